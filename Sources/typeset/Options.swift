// Options shared by the commands that lay out markup (SPEC 5.1–5.3).
import ArgumentParser
import Foundation
import Typeset

struct LayoutArguments: ParsableArguments {
    @Option(help: "Language of the strings to use; also sets the document's lang unless it pins one.")
    var locale: String?

    @Option(help: "String catalog: .xcstrings, .strings or a JSON object of key → text.")
    var strings: String?

    @Option(help: "Dynamic Type size: xSmall, Small, Medium, Large, xLarge, xxLarge, xxxLarge, AX1…AX5.")
    var textSize: String?

    @Option(help: "Extra folder of fonts, searched before system fonts (repeatable).")
    var fontDir: [String] = []

    @Option(help: "Extra folder images may come from (repeatable).")
    var assets: [String] = []

    /// Dynamic Type body sizes (SPEC 5.3).
    static let textSizes: [(String, Double)] = [
        ("xSmall", 14), ("Small", 15), ("Medium", 16), ("Large", 17), ("xLarge", 19), ("xxLarge", 21),
        ("xxxLarge", 23), ("AX1", 28), ("AX2", 33), ("AX3", 40), ("AX4", 47), ("AX5", 53),
    ]

    static func bodySize(_ name: String) -> Double? {
        textSizes.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// Apple's `en_GB` spelling of a locale, as BCP 47 writes it (`en-GB`).
    static func normalizedLocale(_ locale: String) -> String {
        locale.replacingOccurrences(of: "_", with: "-")
    }

    /// `17`, `19.5`: a size without a needless `.0`.
    static func formatPoints(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    func validate() throws {
        if let locale, !Language.isWellFormed(tag: LayoutArguments.normalizedLocale(locale)) {
            throw ValidationError("--locale takes a BCP 47 language tag such as ar or ar-EG; '\(locale)' is not one")
        }
        if let textSize, LayoutArguments.bodySize(textSize) == nil {
            throw ValidationError("unknown --text-size '\(textSize)'; use one of \(LayoutArguments.textSizes.map(\.0).joined(separator: ", "))")
        }
    }

    /// The settings every input of the run shares; a broken catalog is reported and fails.
    func settings() throws -> JobSettings {
        let locale = self.locale.map(LayoutArguments.normalizedLocale)
        var layout = LayoutOptions(locale: locale, bodySize: textSize.flatMap(LayoutArguments.bodySize))
        if let strings {
            do {
                let catalog = try StringCatalog.load(path: strings)
                layout.strings = catalog.strings(locale: locale)
            } catch {
                var diagnostics = Diagnostics()
                diagnostics.report(error)
                printDiagnostics(diagnostics)
                throw ExitCode(ExitStatus.inputFailed)
            }
        }
        return JobSettings(assetDirectories: assets, layout: layout)
    }
}
