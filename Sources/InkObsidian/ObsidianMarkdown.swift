import Foundation
import InkExport
import InkText

/// Recognised handwriting and titles as Obsidian Markdown that means what was written and nothing
/// more: hashtags stay tags (`#q3-plan`), task markers at the start of a line stay tasks
/// (`- [ ]`, `- [x]`, `- [!]`, `- [?]`), and every other character Markdown or Obsidian would act
/// on (`*`, `_`, `[`, `<`, `|`, `$`, `==`, `%%`, `^`, a `#` that is no tag, a leading `>` or `---` …)
/// is escaped with a backslash, so it shows as written and cannot start a heading, a link, an
/// embed, a comment or a table.
public enum ObsidianMarkdown {
    /// Characters escaped wherever they are.
    static let alwaysEscaped: Set<Character> = ["\\", "`", "*", "_", "[", "]", "<", ">", "|", "$", "^", "&"]
    /// Characters escaped when doubled (`==highlight==`, `%%comment%%`, `~~strike~~`).
    static let escapedWhenDoubled: Set<Character> = ["=", "%", "~"]
    /// Task markers kept as written at the start of a line.
    static let taskStates: Set<Character> = [" ", "x", "X", "!", "?"]

    /// One line of recognised text as one line of Markdown ("" for a blank line).
    public static func line(_ raw: String) -> String {
        let text = cleaned(raw).trimmingCharacters(in: .whitespaces)
        let characters = Array(text)
        var prefix = ""
        var start = 0
        if characters.count >= 5, "-*+".contains(characters[0]), characters[1] == " ", characters[2] == "[",
           taskStates.contains(characters[3]), characters[4] == "]", characters.count == 5 || characters[5] == " " {
            prefix = String(characters[0..<min(6, characters.count)])
            start = prefix.count
        } else if characters.count >= 2, "-*+".contains(characters[0]), characters[1] == " " {
            prefix = String(characters[0..<2])
            start = 2
        }
        let body = escaped(Array(characters[start...]), keepTags: true)
        // What starts a block when it opens a line: a heading or tag sign handled above, rules and
        // setext underlines (`---`, `===`), list markers without a space, ordered lists are left be.
        if prefix.isEmpty, let first = body.first, "-+=".contains(first) {
            return "\\" + body
        }
        return prefix + body
    }

    /// Recognised text (lines separated by newlines) as Markdown lines: blank runs collapsed to one,
    /// none at either end.
    public static func text(_ raw: String) -> [String] {
        var lines: [String] = []
        for piece in raw.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline }) {
            let converted = line(String(piece))
            if converted.isEmpty && (lines.last?.isEmpty ?? true) { continue }
            lines.append(converted)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// A note's typed text (Markdown the user typed) as written, except what would break out of
    /// its section: headings go two levels down, below the section's own (`# Plan` becomes
    /// `### Plan`, an underlined heading becomes `###` or `####`), and a code block left open is
    /// closed, so it cannot swallow the rest of the daily note. Blank lines at the end are dropped.
    public static func typed(_ typed: TypedText) -> [String] {
        var lines: [String] = []
        var openFence: String?
        for (index, line) in typed.lines.enumerated() {
            switch line.kind {
            case .heading(let level):
                let text = line.text.drop(while: { $0 == " " })
                let underlined = index + 1 < typed.lines.count && typed.lines[index + 1].kind == .headingUnderline
                let hashes = String(repeating: "#", count: min(6, level + 2))
                lines.append(underlined ? hashes + " " + text.trimmingCharacters(in: .whitespaces)
                                        : hashes + text.drop(while: { $0 == "#" }))
            case .headingUnderline:
                continue
            case .codeFence:
                let fence = String(line.text.drop(while: { $0 == " " }).prefix(while: { $0 == "`" || $0 == "~" }))
                openFence = openFence == nil ? fence : nil
                lines.append(line.text)
            default:
                lines.append(line.text)
            }
        }
        if let openFence { lines.append(openFence) }
        while lines.last?.allSatisfy({ $0 == " " || $0 == "\t" }) == true { lines.removeLast() }
        return lines
    }

    /// A title as plain inline text for a heading: one line, every Markdown character escaped,
    /// `#` too (a title's words are not tags).
    public static func inline(_ raw: String) -> String {
        let text = cleaned(raw).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return escaped(Array(text), keepTags: false)
    }

    /// The text without control characters; tabs and line breaks of every kind become spaces.
    static func cleaned(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "\t" || CharacterSet.newlines.contains(scalar) {
                out.unicodeScalars.append(" ")
            } else if scalar.value >= 0x20 && scalar.value != 0x7F && !(0x80...0x9F).contains(scalar.value) {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The Obsidian tag starting at `index` (just after a `#`), if the characters there make one:
    /// letters, digits, `_`, `-` and `/`, at least one of them not a digit.
    static func tagBody(_ characters: [Character], from index: Int) -> Int {
        var end = index
        while end < characters.count, characters[end].isLetter || characters[end].isNumber || "_-/".contains(characters[end]) {
            end += 1
        }
        let body = characters[index..<end]
        return body.contains(where: { !$0.isNumber }) ? end - index : 0
    }

    static func escaped(_ characters: [Character], keepTags: Bool) -> String {
        var out = ""
        var i = 0
        while i < characters.count {
            let character = characters[i]
            if character == "#" {
                let startsWord = i == 0 || characters[i - 1].isWhitespace
                let length = keepTags && startsWord ? tagBody(characters, from: i + 1) : 0
                if length > 0 {
                    out += "#" + String(characters[(i + 1)...(i + length)])
                    i += length + 1
                    continue
                }
                out += "\\#"
            } else if alwaysEscaped.contains(character) {
                out += "\\" + String(character)
            } else if escapedWhenDoubled.contains(character),
                      (i + 1 < characters.count && characters[i + 1] == character) || (i > 0 && characters[i - 1] == character) {
                out += "\\" + String(character)
            } else {
                out.append(character)
            }
            i += 1
        }
        return out
    }
}
