import InkCore

/// A note's typed text: Markdown beside the ink, kept exactly as written, with its lines parsed.
///
/// ```swift
/// let text = TypedText("# Plan\n- [ ] call Sam #work\n")
/// text.lines[1].kind            // .task(.open)
/// text.hashtags                 // [work]
/// let ticked = try text.togglingCheckbox(line: 2).text   // "- [x] call Sam #work"
/// ```
public struct TypedText: Sendable, Hashable {
    /// The text exactly as stored.
    public let text: String
    public let lines: [BodyLine]
    /// Each line's end as typed (`\n`, `\r\n`, or "" for a last line without one).
    private let endings: [String]

    public init(_ text: String) {
        self.text = text
        let raw = BodyParser.split(text)
        endings = raw.map(\.ending)
        lines = BodyParser.parse(raw)
    }

    /// Decodes `bytes` as UTF-8 and parses them, refusing anything else (see ``decode(_:)``).
    public init(utf8 bytes: [UInt8]) throws(TypedTextError) {
        self.init(try TypedText.decode(bytes))
    }

    /// `bytes` as a string when they are UTF-8 and within ``maximumBytes``; otherwise the offset
    /// of the first bad byte, or the size.
    public static func decode(_ bytes: [UInt8]) throws(TypedTextError) -> String {
        guard bytes.count <= maximumBytes else { throw .tooLarge(bytes: bytes.count) }
        if let offset = firstInvalidUTF8(bytes) { throw .notUTF8(byteOffset: offset) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The largest typed text accepted: 16 MiB (a novel is about 1 MiB).
    public static let maximumBytes = 16 << 20

    public var isEmpty: Bool { text.isEmpty }

    /// Hashtags of every line outside code, in the order they first appear.
    public var hashtags: [Tag] {
        var seen = Set<Tag>()
        return lines.flatMap(\.hashtags).filter { seen.insert($0).inserted }
    }

    /// Words, characters and reading time of what a reader sees (see ``TextStatistics``).
    public var statistics: TextStatistics {
        var words = 0
        var characters = 0
        for line in lines where line.hasWords {
            characters += line.content.count
            words += line.content.split(whereSeparator: { $0.isWhitespace })
                .filter { $0.contains(where: { $0.isLetter || $0.isNumber }) }.count
        }
        return TextStatistics(words: words, characters: characters)
    }

    /// This text with `more` after it, on a line of its own: a line end is added first when the
    /// text does not end with one.
    public func appending(_ more: String) -> TypedText {
        guard !text.isEmpty, !more.isEmpty, !text.hasSuffix("\n") else { return TypedText(text + more) }
        return TypedText(text + (endings.contains("\r\n") ? "\r\n" : "\n") + more)
    }

    /// Ticks the checkbox on line `number` (1-based), or opens a ticked one; any other task marker
    /// becomes ticked (``TaskMarker/toggled``). Everything else in the text stays byte for byte.
    public func togglingCheckbox(line number: Int) throws(TypedTextError) -> CheckboxToggle {
        guard number >= 1, number <= lines.count else { throw .noSuchLine(number, lineCount: lines.count) }
        let line = lines[number - 1]
        guard case .task(let before) = line.kind, let offset = line.markerOffset else {
            throw .notACheckbox(line: number, kind: line.kind, text: line.text)
        }
        let after = before.toggled
        var characters = Array(line.text)
        characters[offset] = after.character
        var text = ""
        for (index, current) in lines.enumerated() {
            text += index == number - 1 ? String(characters) : current.text
            text += endings[index]
        }
        return CheckboxToggle(text: TypedText(text), line: number, before: before, after: after)
    }

    /// The offset of the first byte that is not part of well-formed UTF-8 (no overlong forms, no
    /// surrogates, nothing above U+10FFFF), or nil when all of it is.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0x00...0x7F: index += 1; continue
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return index
            }
            for position in 1..<length {
                guard index + position < bytes.count else { return index }
                let byte = bytes[index + position]
                let (min, max) = position == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
                guard byte >= min, byte <= max else { return index }
            }
            index += length
        }
        return nil
    }
}

/// What ``TypedText/togglingCheckbox(line:)`` did.
public struct CheckboxToggle: Sendable, Hashable {
    /// The whole text after the change.
    public let text: TypedText
    public let line: Int
    public let before: TaskMarker
    public let after: TaskMarker
}

/// Counts of typed text for `inkwell note show`. Only what a reader sees counts: the text of
/// headings, list items, paragraphs and code lines, not the markers (`#`, `- [ ]`, `1.`), dividers
/// or fences.
public struct TextStatistics: Sendable, Hashable, Codable {
    /// Runs of non-blank characters holding at least one letter or digit.
    public var words: Int
    /// Characters (grapheme clusters) including spaces, excluding line ends.
    public var characters: Int

    public init(words: Int, characters: Int) {
        self.words = words
        self.characters = characters
    }

    /// 238 words a minute: the average silent reading rate of adults reading English non-fiction
    /// in Brysbaert's meta-analysis of 190 studies (M. Brysbaert, "How many words do we read per
    /// minute? A review and meta-analysis of reading rate", Journal of Memory and Language 109,
    /// 104047, 2019).
    public static let wordsPerMinute = 238

    /// Seconds to read the words at ``wordsPerMinute``, rounded.
    public var readingSeconds: Int { (words * 60 + TextStatistics.wordsPerMinute / 2) / TextStatistics.wordsPerMinute }

    /// Whole minutes, rounded up ("1 min" for a shopping list, 0 only for no words).
    public var readingMinutes: Int { (words + TextStatistics.wordsPerMinute - 1) / TextStatistics.wordsPerMinute }
}

/// Why typed text was refused or a line could not be changed. Callers add the file or note.
public enum TypedTextError: Error, Equatable, CustomStringConvertible {
    case notUTF8(byteOffset: Int)
    case tooLarge(bytes: Int)
    case noSuchLine(Int, lineCount: Int)
    case notACheckbox(line: Int, kind: BodyLineKind, text: String)

    public var description: String {
        switch self {
        case .notUTF8(let offset):
            return "not valid UTF-8 at byte \(offset); typed text must be UTF-8"
        case .tooLarge(let bytes):
            return "more than the \(TypedText.maximumBytes >> 20) MiB typed text may hold (\(bytes) bytes)"
        case let .noSuchLine(line, count):
            return "there is no line \(line): the typed text has \(count) line\(count == 1 ? "" : "s")"
        case let .notACheckbox(line, kind, text):
            let what = switch kind {
            case .code, .codeFence: "in a fenced code block"
            case .blank: "blank"
            case .numbered: "a numbered item without a checkbox"
            case .bullet: "a bullet without a checkbox"
            default: "a \(kind.name)"
            }
            return "line \(line) is \(what), not a checkbox: \"\(text)\""
        }
    }
}
