// swift-tools-version: 6.0
import Foundation
import PackageDescription

// The release build reaches the metadata of a generic type (`[PositionedGlyph]`, a dictionary
// of our keys) through an accessor compiled for it, not by a mangled name the runtime demangles
// at its first use: a one-document process ran 34.3 million instructions, 6.2 million of them
// demangling and 3.7 million checking conformances for it, and runs 29.6 (the same output).
let releaseSwiftSettings: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))
]

let package = Package(
    name: "typeset",
    products: [
        .library(name: "Typeset", targets: ["Typeset"]),
        .executable(name: "typeset", targets: ["TypesetCLI"]),
    ],
    targets: [
        .systemLibrary(
            name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CCairo", pkgConfig: "cairo-ft", providers: [.apt(["libcairo2-dev"])]),
        // ICU (the toolchain's) breaks lines inside Thai, Lao, Khmer and Myanmar words
        // (LineBreak/DictionaryBreaks.swift); statically linked, it needs the C++ library.
        .target(
            name: "Typeset", dependencies: ["CHarfBuzz", "CCairo"],
            swiftSettings: releaseSwiftSettings,
            linkerSettings: [.linkedLibrary("_FoundationICU"), .linkedLibrary("stdc++")]),
        .executableTarget(
            name: "TypesetCLI",
            dependencies: ["Typeset"],
            path: "Sources/typeset",
            swiftSettings: releaseSwiftSettings,
            // The release binary carries the Swift runtime and FoundationEssentials: each run
            // starts in half the time (no dynamic linking of the Swift libraries' symbols).
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-l_FoundationCShims", "-l_FoundationCollections", "-lswiftSynchronization"], .when(configuration: .release))]),
        .testTarget(name: "TypesetTests", dependencies: ["Typeset"]),
    ]
)

// `make fuzz` only: a libFuzzer target over parsing and layout (Sources/TypesetFuzz). It has no
// `main` of its own (libFuzzer's), so it exists only when TYPESET_FUZZ is set and a plain
// `swift build` or `swift test` never sees it.
if ProcessInfo.processInfo.environment["TYPESET_FUZZ"] != nil {
    package.products.append(.executable(name: "TypesetFuzz", targets: ["TypesetFuzz"]))
    package.targets.append(.executableTarget(name: "TypesetFuzz", dependencies: ["Typeset"]))
}
