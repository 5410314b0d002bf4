// Markdown in a catalog's strings, which SwiftUI renders and a mockup shows as written: found
// so that it can be warned about (BlockLayouter.localizedString).

/// The Markdown of a catalog string, which SwiftUI's `Text` renders from a `LocalizedStringKey`
/// (a link, bold text) and UIKit shows as it is written, as a mockup does.
enum CatalogMarkdown {
    /// `text` with SwiftUI's automatic grammar agreement, `^[2 large pizza](inflect: true)`
    /// (an attribute in brackets after `^[…]`), taken out: its text as written, which SwiftUI
    /// would make agree ("2 large pizzas") and a mockup cannot; and the first such text. nil
    /// when there is none. One pass.
    static func withoutInflection(_ text: String) -> (text: String, first: String)? {
        let scalars = Array(text.unicodeScalars)
        var kept = String.UnicodeScalarView()
        var first: String?
        var index = 0
        while index < scalars.count {
            // `^[`, text without brackets or a line end, `](`, an attribute (`name: value`), `)`.
            if scalars[index] == "^", index + 1 < scalars.count, scalars[index + 1] == "[" {
                var close = index + 2
                while close < scalars.count, !"[]\n".unicodeScalars.contains(scalars[close]) { close += 1 }
                if close + 1 < scalars.count, scalars[close] == "]", scalars[close + 1] == "(" {
                    var end = close + 2
                    while end < scalars.count, scalars[end] != ")", scalars[end] != "\n" { end += 1 }
                    if end < scalars.count, scalars[end] == ")", scalars[close + 2..<end].contains(":") {
                        let inner = scalars[index + 2..<close]
                        kept.append(contentsOf: inner)
                        first = first ?? String(String.UnicodeScalarView(inner))
                        index = end + 1
                        continue
                    }
                }
            }
            kept.append(scalars[index])
            index += 1
        }
        return first.map { (String(kept), $0) }
    }

    /// The first stretch of `text` that SwiftUI renders as Markdown, as CommonMark reads it: a
    /// link, `[Terms](https://…)` (with a title or not), an autolink, `<https://…>`, or text
    /// between `**`, `__`, `~~` (or longer runs) that can open and close there (not the `****`
    /// of a card number, the `__` inside a file name, nor a `**` after a letter before a comma),
    /// or between backticks; nil
    /// when there is none. Not single `*` or `_` (italics): "5 * 3", "*Required" are too
    /// common to tell apart. One pass per kind: linear on a hostile 4 MiB string.
    static func firstSpan(in text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        var first: Range<Int>?
        func found(_ range: Range<Int>) {
            if first.map({ range.lowerBound < $0.lowerBound }) ?? true { first = range }
        }
        func isSpace(_ at: Int) -> Bool { at < 0 || at >= scalars.count || scalars[at].properties.isWhitespace }
        func isPunctuation(_ at: Int) -> Bool {
            guard at >= 0 && at < scalars.count else { return false }
            switch scalars[at].properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
                .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
                return true
            default: return false
            }
        }
        func isAlphanumeric(_ at: Int) -> Bool {
            at >= 0 && at < scalars.count && (scalars[at].properties.isAlphabetic || scalars[at].properties.numericType != nil)
        }
        // A link: an unescaped `[`, its text without brackets or a line end, `](`, a destination
        // without spaces, a title in quotes or none, `)`; an autolink.
        var open: Int?
        var index = 0
        links: while index < scalars.count {
            switch scalars[index] {
            case "[": open = index > 0 && scalars[index - 1] == "\\" ? nil : index
            case "\n": open = nil
            case "<":
                let scheme = Array("http".unicodeScalars)
                if index + 8 < scalars.count, scalars[index + 1..<index + 5].elementsEqual(scheme) {
                    var end = index + 5
                    while end < scalars.count, scalars[end] != ">", !isSpace(end), scalars[end] != "<" { end += 1 }
                    if end < scalars.count, scalars[end] == ">", scalars[index + 5..<end].starts(with: "://".unicodeScalars)
                        || scalars[index + 5..<end].starts(with: "s://".unicodeScalars)
                    {
                        found(index..<end + 1)
                        break links
                    }
                    index = max(index, end - 1)
                }
            case "]":
                if let start = open, index > start + 1, index + 1 < scalars.count, scalars[index + 1] == "(" {
                    var end = index + 2
                    while end < scalars.count, scalars[end] != ")", !isSpace(end) { end += 1 }
                    if end > index + 2, end < scalars.count, scalars[end] != ")" {
                        // A title: spaces, then "…" up to its quote, then `)`.
                        var title = end
                        while title < scalars.count, scalars[title] == " " { title += 1 }
                        if title < scalars.count, scalars[title] == "\"" {
                            var close = title + 1
                            while close < scalars.count, scalars[close] != "\"", scalars[close] != "\n" { close += 1 }
                            if close + 1 < scalars.count, scalars[close] == "\"", scalars[close + 1] == ")" { end = close + 1 }
                        }
                    }
                    if end < scalars.count, scalars[end] == ")", end > index + 2 {
                        found(start..<end + 1)
                        break links
                    }
                    index = max(index, end - 1)
                }
                open = nil
            default: break
            }
            index += 1
        }
        // Emphasis and strikethrough: a run of two or more `*`, `_` or `~` that can open
        // (CommonMark's left-flanking: no space after it, and no punctuation after it unless a
        // space or punctuation is before it), then a later one that can close (right-flanking);
        // `_` neither opens after a letter or digit nor closes before one. Code: a run of
        // backticks, then a later run as long.
        for mark in ["*", "_", "~", "`"] as [Unicode.Scalar] {
            var opening: Int?
            var codeOpenings: [Int: Int] = [:]  // backtick runs by their length: the first's start
            var position = 0
            while position < scalars.count {
                guard scalars[position] == mark else {
                    position += 1
                    continue
                }
                var end = position
                while end < scalars.count, scalars[end] == mark { end += 1 }
                defer { position = end }
                if mark == "`" {
                    if let start = codeOpenings[end - position] {
                        found(start..<end)
                        break
                    }
                    codeOpenings[end - position] = position
                    continue
                }
                // (Strikethrough is `~~` exactly: `~~~` is no GFM strikethrough.)
                guard mark == "~" ? end - position == 2 : end - position >= 2 else { continue }
                let (before, after) = (position - 1, end)
                let left = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before))
                let right = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after))
                if let start = opening, right, !(mark == "_" && isAlphanumeric(after)) {
                    found(start..<end)
                    break
                } else if opening == nil, left, !(mark == "_" && isAlphanumeric(before)) {
                    opening = position
                }
            }
        }
        return first.map { String(String.UnicodeScalarView(scalars[$0])) }
    }
}
