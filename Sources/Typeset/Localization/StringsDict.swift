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
        var deviceTables: [String: [String: String]] = [:]
        var warnings: [Diagnostic] = []
        var keyLocations: [String: SourceLocation] = [:]
        for (key, value) in try members(of: entries) {
            keyLocations[key] = value.location
            do throws(Diagnostic) {
                guard value.name == "dict" else {
                    throw .error(value.location, "the entry of key '\(key)' must be a <dict>, not <\(value.name)>")
                }
                let variables = Dictionary(try members(of: value), uniquingKeysWith: { first, _ in first })
                // A device rule: the document's device's form, else `other`, as a catalog's device
                // variations are read; a width rule: the widest form, said (a mockup has no
                // width to choose by). Both failed the document as entries without a format.
                if let rule = variables["NSStringDeviceSpecificRuleType"] ?? variables["NSStringVariableWidthRuleType"] {
                    guard rule.name == "dict" else {
                        throw .error(rule.location, "the rule of key '\(key)' must be a <dict> of forms, not <\(rule.name)>")
                    }
                    var forms: [(name: String, text: String)] = []
                    for (name, form) in try members(of: rule) { forms.append((name, try string(form, key: key))) }
                    if variables["NSStringDeviceSpecificRuleType"] != nil {
                        for device in deviceNames {
                            if let form = forms.first(where: { $0.name == device }) { deviceTables[device, default: [:]][key] = form.text }
                        }
                        guard let other = forms.first(where: { $0.name == "other" }) else {
                            throw .error(
                                rule.location,
                                "the device rule of key '\(key)' has no 'other' form, which a document shows unless its device has a form of its own")
                        }
                        table[key] = other.text
                    } else {
                        guard let widest = forms.max(by: { (Int($0.name) ?? 0) < (Int($1.name) ?? 0) }) else {
                            throw .error(rule.location, "the width rule of key '\(key)' has no forms")
                        }
                        table[key] = widest.text
                        warnings.append(.warning(
                            rule.location, "key '\(key)' has width variants; a mockup shows the widest, '\(widest.name)'"))
                    }
                    continue
                }
                guard let format = variables["NSStringLocalizedFormatKey"] else {
                    throw .error(value.location, "the entry of key '\(key)' has no NSStringLocalizedFormatKey")
                }
                var forms: [String: String] = [:]
                table[key] = try expanded(
                    try string(format, key: key), variables: variables, key: key, inside: [], expanded: &forms)
            } catch {
                problems[key] = error
            }
        }
        var catalog = StringCatalog(tables: ["": table], sourceLanguage: nil)
        if !problems.isEmpty { catalog.problems[""] = problems }
        for (device, forms) in deviceTables { catalog.deviceTables[device] = ["": forms] }
        catalog.warnings = warnings
        catalog.keyLocations = keyLocations
        return catalog
    }

    /// `text` with each placeholder of a variable of the entry (`%#@NAME@`, `%1$#@NAME@`:
    /// `replacingPlaceholders`, as a catalog's substitutions) replaced by the `other` form of
    /// NAME, expanded in turn: each once (`expanded`, by name), as deep and as long as a
    /// catalog's substitutions may be.
    private static func expanded(
        _ text: String, variables: [String: XMLElement], key: String, inside: [String],
        expanded: inout [String: String]
    ) throws(Diagnostic) -> String {
        let names = Set(variables.keys).subtracting(["NSStringLocalizedFormatKey"])
        let replaced = try replacingPlaceholders(of: names, in: text, limit: longestSubstitutedText) {
            (name, _) throws(Diagnostic) -> String in
            if let known = expanded[name] { return known }
            let variable = variables[name]!
            guard !inside.contains(name), inside.count < maximumSubstitutionDepth else {
                throw .error(
                    variable.location,
                    "the variable '\(name)' of key '\(key)' holds its own placeholder, "
                        + "or variables nest more than \(maximumSubstitutionDepth) deep")
            }
            guard variable.name == "dict" else {
                throw .error(
                    variable.location, "the variable '\(name)' of key '\(key)' must be a <dict> of plural forms")
            }
            let forms = Dictionary(try members(of: variable), uniquingKeysWith: { first, _ in first })
            guard let other = forms["other"] else {
                throw .error(variable.location, "the variable '\(name)' of key '\(key)' has no 'other' form")
            }
            let form = try Self.expanded(
                try string(other, key: key), variables: variables, key: key, inside: inside + [name],
                expanded: &expanded)
            expanded[name] = form
            return form
        }
        guard let replaced else {
            throw .error(
                variables["NSStringLocalizedFormatKey"]?.location ?? SourceLocation(file: "", line: 1, column: 1),
                "the variables of key '\(key)' make a text of more than \(longestSubstitutedText / 1024 / 1024) MiB, "
                    + "the most a document may show")
        }
        return replaced
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
