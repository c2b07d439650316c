import InkCore

/// Reads typed text line by line into ``BodyLine``s: the block structure of Markdown that a notes
/// app shows (headings, tasks, lists, dividers, code, paragraphs), not inline formatting.
enum BodyParser {
    /// A line as split from the text: its characters (no line end) and its line end (`\n`, `\r\n` or "").
    struct RawLine {
        var characters: [Character]
        var ending: String
    }

    /// Splits on `\n` (a `\r` before it belongs to the line end). Text ending in a line end has no
    /// empty last line; empty text has no lines.
    static func split(_ text: String) -> [RawLine] {
        var lines: [RawLine] = []
        let bytes = Array(text.utf8)
        var start = 0
        func add(_ end: Int, _ ending: String) {
            var stop = end
            var lineEnding = ending
            if ending == "\n", stop > start, bytes[stop - 1] == UInt8(ascii: "\r") {
                stop -= 1
                lineEnding = "\r\n"
            }
            lines.append(RawLine(characters: Array(String(decoding: bytes[start..<stop], as: UTF8.self)), ending: lineEnding))
        }
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            add(index, "\n")
            start = index + 1
        }
        if start < bytes.count { add(bytes.count, "") }
        return lines
    }

    static func parse(_ raw: [RawLine]) -> [BodyLine] {
        var state = State()
        var lines: [BodyLine] = []
        for (index, line) in raw.enumerated() {
            var characters = line.characters
            if index == 0, characters.first == "\u{FEFF}" { characters.removeFirst() }
            let read = state.read(characters, number: index + 1, text: String(line.characters), into: &lines)
            lines.append(read)
        }
        return lines
    }

    /// What the parser remembers from one line to the next.
    struct State {
        /// The open fenced code block: its character, length, indentation and list level.
        var fence: (character: Character, length: Int, indent: Int, level: Int)?
        /// Indentation (columns) of the list items the next line may be nested in, outermost first.
        var listIndents: [Int] = []
        /// Indices of the top-level paragraph lines directly above (a setext underline makes them headings).
        var paragraphRun: [Int] = []

        /// Reads one line (`characters` without a byte-order mark); may turn lines above into headings.
        mutating func read(_ characters: [Character], number: Int, text: String, into lines: inout [BodyLine]) -> BodyLine {
            var line = BodyLine(number: number, text: text, kind: .paragraph, level: 0, content: "", listMarker: nil, hashtags: [])
            let offsetOfBOM = text.count - characters.count
            let (indent, start) = BodyParser.indentation(characters)
            let rest = characters[start...]

            if let open = fence {
                line.level = open.level
                if BodyParser.closes(rest, open.character, open.length) {
                    line.kind = .codeFence
                    fence = nil
                } else {
                    line.kind = .code
                    line.content = BodyParser.dropIndent(characters, columns: open.indent)
                }
                paragraphRun = []
                return line
            }
            if rest.isEmpty {
                line.kind = .blank
                paragraphRun = []
                return line
            }
            if let (character, length, info) = BodyParser.fenceOpening(rest) {
                line.level = nest(indent)
                line.kind = .codeFence
                line.content = info
                fence = (character, length, indent, line.level)
                paragraphRun = []
                return line
            }
            if indent <= 3, !paragraphRun.isEmpty, let level = BodyParser.setextLevel(rest) {
                for index in paragraphRun { lines[index].kind = .heading(level: level) }
                line.kind = .headingUnderline
                paragraphRun = []
                listIndents = []
                return line
            }
            if indent <= 3, BodyParser.isDivider(rest) {
                line.kind = .divider
                paragraphRun = []
                listIndents = []
                return line
            }
            if indent <= 3, let (level, contentStart) = BodyParser.headingOpening(rest) {
                line.kind = .heading(level: level)
                (line.content, line.hashtags) = Inline.read(BodyParser.headingContent(rest[contentStart...]))
                paragraphRun = []
                listIndents = []
                return line
            }
            if let item = BodyParser.listItem(rest) {
                while let last = listIndents.last, last >= indent { listIndents.removeLast() }
                line.level = listIndents.count
                listIndents.append(indent)
                line.listMarker = item.marker
                var body = rest[item.contentStart...]
                if let marker = BodyParser.taskMarker(body) {
                    line.kind = .task(marker)
                    line.markerOffset = offsetOfBOM + body.startIndex + 1
                    body = BodyParser.trimmingLeadingBlanks(body.dropFirst(3))
                } else {
                    line.kind = item.number.map { .numbered($0) } ?? .bullet
                }
                (line.content, line.hashtags) = Inline.read(body)
                paragraphRun = []
                return line
            }
            line.kind = .paragraph
            line.level = nest(indent)
            (line.content, line.hashtags) = Inline.read(BodyParser.trimmingTrailingBlanks(rest))
            if line.level == 0 { paragraphRun.append(number - 1) } else { paragraphRun = [] }
            return line
        }

        /// The level of a line indented `indent` columns that is not a list item: inside every open
        /// item indented less; the items it is not inside are closed.
        mutating func nest(_ indent: Int) -> Int {
            while let last = listIndents.last, last >= indent { listIndents.removeLast() }
            return listIndents.count
        }
    }

    // MARK: Line shapes

    /// Columns of leading blanks (a tab runs to the next multiple of 4) and where the text starts.
    static func indentation(_ characters: [Character]) -> (columns: Int, start: Int) {
        var columns = 0
        var index = 0
        while index < characters.count {
            switch characters[index] {
            case " ": columns += 1
            case "\t": columns += 4 - columns % 4
            default: return (columns, index)
            }
            index += 1
        }
        return (columns, index)
    }

    /// A code line without up to `columns` of the fence's indentation.
    static func dropIndent(_ characters: [Character], columns: Int) -> String {
        var removed = 0
        var index = 0
        while index < characters.count, removed < columns, characters[index] == " " || characters[index] == "\t" {
            removed += characters[index] == "\t" ? 4 - removed % 4 : 1
            index += 1
        }
        return String(characters[index...])
    }

    static func isBlank(_ character: Character) -> Bool { character == " " || character == "\t" }

    static func trimmingLeadingBlanks(_ text: ArraySlice<Character>) -> ArraySlice<Character> {
        text.drop(while: isBlank)
    }

    static func trimmingTrailingBlanks(_ text: ArraySlice<Character>) -> ArraySlice<Character> {
        var end = text.endIndex
        while end > text.startIndex, isBlank(text[end - 1]) { end -= 1 }
        return text[text.startIndex..<end]
    }

    /// ```` ``` ```` or `~~~` (three or more) and an info string; a backtick fence's info has no backticks.
    static func fenceOpening(_ rest: ArraySlice<Character>) -> (Character, Int, String)? {
        guard let first = rest.first, first == "`" || first == "~" else { return nil }
        let length = rest.prefix(while: { $0 == first }).count
        guard length >= 3 else { return nil }
        let info = trimmingTrailingBlanks(trimmingLeadingBlanks(rest.dropFirst(length)))
        if first == "`", info.contains("`") { return nil }
        return (first, length, String(info))
    }

    /// A closing fence: the opening character, at least as many, then only blanks.
    static func closes(_ rest: ArraySlice<Character>, _ character: Character, _ length: Int) -> Bool {
        let run = rest.prefix(while: { $0 == character }).count
        return run >= length && rest.dropFirst(run).allSatisfy(isBlank)
    }

    /// `===…` is level 1, `---…` level 2 (one or more, no spaces between, blanks after).
    static func setextLevel(_ rest: ArraySlice<Character>) -> Int? {
        guard let first = rest.first, first == "=" || first == "-" else { return nil }
        let run = rest.prefix(while: { $0 == first }).count
        guard rest.dropFirst(run).allSatisfy(isBlank) else { return nil }
        return first == "=" ? 1 : 2
    }

    /// Three or more of one of `-`, `*`, `_`, with blanks allowed between, and nothing else.
    static func isDivider(_ rest: ArraySlice<Character>) -> Bool {
        guard let first = rest.first, first == "-" || first == "*" || first == "_" else { return false }
        var count = 0
        for character in rest {
            if character == first { count += 1 } else if !isBlank(character) { return false }
        }
        return count >= 3
    }

    /// One to six `#` followed by a blank or the end of the line: the level and where the text starts.
    static func headingOpening(_ rest: ArraySlice<Character>) -> (Int, Int)? {
        let hashes = rest.prefix(while: { $0 == "#" }).count
        guard (1...6).contains(hashes) else { return nil }
        let after = rest.startIndex + hashes
        guard after == rest.endIndex || isBlank(rest[after]) else { return nil }
        return (hashes, after)
    }

    /// A heading's text without the blanks around it and without a closing run of `#`.
    static func headingContent(_ text: ArraySlice<Character>) -> ArraySlice<Character> {
        var content = trimmingTrailingBlanks(trimmingLeadingBlanks(text))
        var end = content.endIndex
        while end > content.startIndex, content[end - 1] == "#" { end -= 1 }
        if end == content.startIndex {
            return content[content.startIndex..<content.startIndex]
        }
        if end < content.endIndex, isBlank(content[end - 1]) {
            content = trimmingTrailingBlanks(content[content.startIndex..<end])
        }
        return content
    }

    /// A list item's marker and where its text starts: `-`, `*` or `+`, or 1–9 digits and `.` or `)`,
    /// followed by a blank or the end of the line.
    static func listItem(_ rest: ArraySlice<Character>) -> (marker: String, number: Int?, contentStart: Int)? {
        guard let first = rest.first else { return nil }
        var markerEnd: Int
        var number: Int?
        if first == "-" || first == "*" || first == "+" {
            markerEnd = rest.startIndex + 1
        } else {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            guard (1...9).contains(digits.count), digits.endIndex < rest.endIndex,
                  rest[digits.endIndex] == "." || rest[digits.endIndex] == ")" else { return nil }
            number = Int(String(digits))
            markerEnd = digits.endIndex + 1
        }
        guard markerEnd == rest.endIndex || isBlank(rest[markerEnd]) else { return nil }
        let marker = String(rest[rest.startIndex..<markerEnd])
        var contentStart = markerEnd
        while contentStart < rest.endIndex, isBlank(rest[contentStart]) { contentStart += 1 }
        return (marker, number, contentStart)
    }

    /// `[c]` with `c` one of the task markers, followed by a blank or the end of the line.
    static func taskMarker(_ text: ArraySlice<Character>) -> TaskMarker? {
        guard text.count >= 3, text[text.startIndex] == "[", text[text.startIndex + 2] == "]" else { return nil }
        guard text.count == 3 || isBlank(text[text.startIndex + 3]) else { return nil }
        return TaskMarker(text[text.startIndex + 1])
    }
}

/// Inline text: backslash escapes, code spans and hashtags. Everything else is kept as typed.
enum Inline {
    /// The text a reader sees (escapes resolved outside code spans) and the hashtags in it: `#` at
    /// the start of a word, then letters, digits, `-`, `_` or `/`, with at least one that is not a
    /// digit (`#1` is a number); not escaped (`\#`), not in a code span.
    static func read(_ text: ArraySlice<Character>) -> (String, [Tag]) {
        var display = ""
        var tags: [Tag] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\\", index + 1 < text.endIndex, isASCIIPunctuation(text[index + 1]) {
                display.append(text[index + 1])
                index += 2
                continue
            }
            if character == "`" {
                let run = text[index...].prefix(while: { $0 == "`" }).count
                if let close = closingRun(of: run, in: text, after: index + run) {
                    display += String(text[index..<close])
                    index = close
                } else {
                    display += String(repeating: "`", count: run)
                    index += run
                }
                continue
            }
            if character == "#", index == text.startIndex || text[index - 1].isWhitespace {
                let name = text[(index + 1)...].prefix(while: isTagCharacter)
                var trimmed = name
                while trimmed.last == "/" { trimmed = trimmed.dropLast() }
                if trimmed.contains(where: { !$0.isNumber }), let tag = Tag(String(trimmed)), !tags.contains(tag) {
                    tags.append(tag)
                }
            }
            display.append(character)
            index += 1
        }
        return (display, tags)
    }

    /// The index just past the next run of exactly `length` backticks, if there is one.
    static func closingRun(of length: Int, in text: ArraySlice<Character>, after start: Int) -> Int? {
        var index = start
        while index < text.endIndex {
            if text[index] == "`" {
                let run = text[index...].prefix(while: { $0 == "`" }).count
                if run == length { return index + run }
                index += run
            } else {
                index += 1
            }
        }
        return nil
    }

    static func isTagCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "-" || character == "_" || character == "/"
    }

    static func isASCIIPunctuation(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (0x21...0x2F).contains(ascii) || (0x3A...0x40).contains(ascii) || (0x5B...0x60).contains(ascii)
            || (0x7B...0x7E).contains(ascii)
    }
}
