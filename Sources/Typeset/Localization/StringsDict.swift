// `.stringsdict` files: an app's plural rules, beside its `.strings` in each language's `.lproj`
// folder (an XML property list). Each key's text is its `NSStringLocalizedFormatKey` with every
// `%#@NAME@` placeholder replaced by the `other` form of the variable NAME, placeholders in that
// form replaced in turn: a mockup has no count to choose a form by, as a String Catalog's plural
// variations show their `other` (StringCatalog.swift). Its specifiers (`%d`) stay, for the
// format-string rules. A key whose entry is broken fails the documents that use it, as a
// catalog's does; a file that is no property list of dictionaries fails to load.

extension StringCatalog {
    /// The catalog of one `.stringsdict` file (its language, as a `.strings` file's, from its
    /// `.lproj` folder: `load`).
    static func stringsDict(_ bytes: [UInt8], file: String) throws(Diagnostic) -> StringCatalog {
        let root = try XMLReader.read(withoutDoctype(bytes, file: file), file: file)
        let top = elements(of: root)
        guard root.name == "plist", top.count == 1, let entries = top.first, entries.name == "dict" else {
            throw .error(root.location, "a .stringsdict must be a property list (<plist>) of one <dict> of keys")
        }
        var table: [String: String] = [:]
        var problems: [String: Diagnostic] = [:]
        for (key, value) in try members(of: entries) {
            do throws(Diagnostic) {
                guard value.name == "dict" else {
                    throw .error(value.location, "the entry of key '\(key)' must be a <dict>, not <\(value.name)>")
                }
                let variables = Dictionary(try members(of: value), uniquingKeysWith: { first, _ in first })
                guard let format = variables["NSStringLocalizedFormatKey"] else {
                    throw .error(value.location, "the entry of key '\(key)' has no NSStringLocalizedFormatKey")
                }
                table[key] = try expanded(try string(format, key: key), variables: variables, key: key, inside: [])
            } catch {
                problems[key] = error
            }
        }
        var catalog = StringCatalog(tables: ["": table], sourceLanguage: nil)
        if !problems.isEmpty { catalog.problems[""] = problems }
        return catalog
    }

    /// How deep variables may hold each other's placeholders (Apple's allow a few).
    private static let deepestVariables = 8

    /// `text` with each `%#@NAME@` (or `%1$#@NAME@`) replaced by the `other` form of variable
    /// NAME, expanded in turn.
    private static func expanded(
        _ text: String, variables: [String: XMLElement], key: String, inside: [String]
    ) throws(Diagnostic) -> String {
        var result = ""
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            rest = rest[percent...]
            // %, then digits and $ (a position), then #@NAME@.
            let afterPosition = rest.dropFirst().drop { $0.isASCII && ($0.isNumber || $0 == "$") }
            guard afterPosition.hasPrefix("#@"), let end = afterPosition.dropFirst(2).firstIndex(of: "@") else {
                result.append("%")
                rest = rest.dropFirst()
                if rest.first == "%" {  // "%%" stays whole
                    result.append("%")
                    rest = rest.dropFirst()
                }
                continue
            }
            let name = String(afterPosition[afterPosition.index(afterPosition.startIndex, offsetBy: 2)..<end])
            guard !inside.contains(name), inside.count < deepestVariables else {
                throw .error(
                    variables[name]?.location ?? SourceLocation(file: "", line: 1, column: 1),
                    "the variable '\(name)' of key '\(key)' holds its own placeholder, "
                        + "or variables nest more than \(deepestVariables) deep")
            }
            guard let variable = variables[name] else {
                throw .error(
                    variables["NSStringLocalizedFormatKey"]?.location ?? SourceLocation(file: "", line: 1, column: 1),
                    "the format of key '\(key)' names the variable '\(name)', which its entry does not define")
            }
            guard variable.name == "dict" else {
                throw .error(
                    variable.location, "the variable '\(name)' of key '\(key)' must be a <dict> of plural forms")
            }
            let forms = Dictionary(try members(of: variable), uniquingKeysWith: { first, _ in first })
            guard let other = forms["other"] else {
                throw .error(variable.location, "the variable '\(name)' of key '\(key)' has no 'other' form")
            }
            result += try expanded(try string(other, key: key), variables: variables, key: key, inside: inside + [name])
            rest = afterPosition[afterPosition.index(after: end)...]
        }
        return result + rest
    }

    /// A <dict>'s members: each <key>'s text and the element after it.
    private static func members(of dict: XMLElement) throws(Diagnostic) -> [(String, XMLElement)] {
        let children = elements(of: dict)
        var members: [(String, XMLElement)] = []
        var index = 0
        while index < children.count {
            let key = children[index]
            guard key.name == "key", index + 1 < children.count else {
                throw .error(
                    key.location, "a <dict> holds a <key>, then its value, for each member; found <\(key.name)>")
            }
            members.append((text(of: key), children[index + 1]))
            index += 2
        }
        return members
    }

    /// The text of a <string>.
    private static func string(_ element: XMLElement, key: String) throws(Diagnostic) -> String {
        guard element.name == "string" else {
            throw .error(element.location, "a text of key '\(key)' must be a <string>, not <\(element.name)>")
        }
        return text(of: element)
    }

    private static func elements(of element: XMLElement) -> [XMLElement] {
        element.children.compactMap { if case .element(let child) = $0 { child } else { nil } }
    }

    private static func text(of element: XMLElement) -> String {
        element.children.map { if case .text(let text) = $0 { text.value } else { "" } }.joined()
    }

    /// `bytes` with a property list's `<!DOCTYPE plist …>` blanked (spaces, line ends kept:
    /// locations stay), which the markup's reader refuses; one with declarations inside
    /// (`[ … ]`) is refused.
    private static func withoutDoctype(_ bytes: [UInt8], file: String) throws(Diagnostic) -> [UInt8] {
        let doctype = Array("<!DOCTYPE".utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: doctype) }) else { return bytes }
        guard let end = bytes[start...].firstIndex(of: UInt8(ascii: ">")),
            !bytes[start..<end].contains(UInt8(ascii: "["))
        else {
            throw .error(
                SourceLocation(file: file, line: 1, column: 1),
                "the .stringsdict's DOCTYPE declares entities, which are refused")
        }
        var copy = bytes
        for index in start...end where copy[index] != 0x0A && copy[index] != 0x0D { copy[index] = 0x20 }
        return copy
    }
}
