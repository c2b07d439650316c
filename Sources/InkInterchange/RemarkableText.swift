import Foundation
import InkCore
import InkFont

/// The typed text of a reMarkable page (its root text block): paragraphs in reading order, each with
/// its style and the ids of its characters, where the text column's top sits, and the baselines of its lines.
///
/// Handwriting beside typed text is stored relative to a character of it (a stroke group's anchor),
/// so the baselines here are what puts such strokes on the page; see ``anchorY(_:)``.
struct RemarkableText {
    /// A paragraph's look, as the tablet's keyboard sets it.
    enum Style: UInt8 {
        case basic = 0, plain, heading, bold, bullet, bullet2, checkbox, checked
    }

    struct Paragraph {
        /// The newline that opens this paragraph (it ends the line before), nil for the first paragraph.
        var newline: CrdtID?
        var style: Style
        /// Markdown: inline bold and italic as `**`/`*`, the paragraph style as a prefix.
        var markdown: String
        /// The words as the page shows them (no Markdown), leading spaces dropped.
        var plain: String
        /// The characters written in it, deleted ones included (they still anchor strokes).
        var characters: [CrdtID]
        /// Where each of `characters` sits in `plain`, in characters (a deleted one where the next visible one is).
        var offsets: [Int] = []
        var hasVisibleText: Bool
    }

    /// One line of the column as the page shows it: a paragraph's, or part of one the column wrapped.
    struct Line {
        var paragraph: Int
        /// Its first character in the paragraph's `plain`, and its text.
        var start: Int
        var text: Substring
        var baseline: Float
    }

    /// Anchors that name no character: the top and the end of the typed text.
    static let topAnchor = CrdtID(author: 0, counter: 0xFFFF_FFFF_FFFE)
    static let bottomAnchor = CrdtID(author: 0, counter: 0xFFFF_FFFF_FFFF)
    /// Where the special anchors sit on a page without typed text (rmc's value).
    static let anchorWithoutText: Float = 100
    /// The first line's top above the text block's `pos_y`, tablet pixels (rmc's measurement).
    static let topOffset: Float = -88
    /// Most characters, deleted ones included, read from one page's text (the format allows 4 G; a page
    /// holds a few thousand, and its editing history some more). Each costs a step of the CRDT ordering.
    /// Fuzz builds (`scripts/fuzz.sh`) take 2,000: the same refusal, and a mutated 4-byte run no longer
    /// costs the fuzzer a 100,000-step ordering on every input.
    #if FUZZING
    static let maxCharacters = 2_000
    #else
    static let maxCharacters = 100_000
    #endif

    /// The text block's `pos_x` and `pos_y`, tablet pixels (x centred on 0).
    let x: Float
    let y: Float
    let paragraphs: [Paragraph]
    /// The column's lines, top to bottom: each paragraph wrapped at the column's width (at least one line
    /// each), its first line as high as its style says and the lines wrapped below it ``wrappedLineHeight(_:)``,
    /// each baseline the text's top plus the heights of the lines so far, its own included.
    let lines: [Line]
    /// The first of `lines` of each paragraph.
    private let firstLine: [Int]
    /// The paragraph each character and opening newline belongs to, and where in it (a newline at the end
    /// of the paragraph before).
    private let places: [CrdtID: (paragraph: Int, offset: Int)]

    /// The text of a column at (`x`, `y`), `width` wide (nil: not stated, the lines are not wrapped).
    init(x: Float = 0, y: Float = 0, width: Float? = nil, paragraphs: [Paragraph] = []) {
        self.x = x
        self.y = y
        self.paragraphs = paragraphs
        var lines: [Line] = []
        var firstLine: [Int] = []
        var baseline = y + Self.topOffset
        for (index, paragraph) in paragraphs.enumerated() {
            firstLine.append(lines.count)
            for (start, text) in Self.wrap(paragraph, width: width) {
                baseline += start == 0 ? Self.lineHeight(paragraph.style) : Self.wrappedLineHeight(paragraph.style)
                lines.append(Line(paragraph: index, start: start, text: text, baseline: baseline))
            }
        }
        self.lines = lines
        self.firstLine = firstLine
        var places: [CrdtID: (paragraph: Int, offset: Int)] = [:]
        for (index, paragraph) in paragraphs.enumerated() {
            if let newline = paragraph.newline { places[newline] = (index - 1, Int.max) }
            for (character, offset) in zip(paragraph.characters, paragraph.offsets) { places[character] = (index, offset) }
        }
        self.places = places
    }

    /// A paragraph's lines as the column shows them: its words wrapped at `width` less its list marker, in
    /// the Hershey roman font it is printed in at its size (the tablet's own font metrics are not in the
    /// file), each with its first character's offset in `plain`. One line without a width or visible text.
    private static func wrap(_ paragraph: Paragraph, width: Float?) -> [(start: Int, text: Substring)] {
        let text = paragraph.plain[...]
        guard let width, paragraph.hasVisibleText else { return [(0, text)] }
        let font = HersheyFont.romanSimplex
        let size = Double(textSize(paragraph.style))
        let room = Double(width) - font.width(of: marker(paragraph.style), size: size)
        return font.wrap(text, width: room, size: size).map { (text.distance(from: text.startIndex, to: $0.startIndex), $0) }
    }

    /// The baseline of the line holding character `offset` of paragraph `index` (the last line for an offset
    /// past its end).
    private func baseline(paragraph index: Int, offset: Int) -> Float {
        var line = firstLine[index]
        while line + 1 < lines.count, lines[line + 1].paragraph == index, lines[line + 1].start <= offset { line += 1 }
        return lines[line].baseline
    }

    /// Line height by style, tablet pixels, as `rmc` measured them (its `LINE_HEIGHTS`).
    static func lineHeight(_ style: Style) -> Float {
        switch style {
        case .heading: 150
        case .bullet, .bullet2, .checkbox, .checked: 35
        case .basic, .plain, .bold: 70
        }
    }

    /// The height of a line a paragraph wraps onto, tablet pixels: a list item's line (35 px, which has no
    /// space above it) at the paragraph's size; the file does not say, and `rmc` does not wrap.
    static func wrappedLineHeight(_ style: Style) -> Float {
        lineHeight(.bullet) * textSize(style) / textSize
    }

    /// The y, in tablet pixels, that strokes anchored to `id` are relative to: the baseline of the line the
    /// character sits on. A paragraph's opening newline sits at the end of the line before. The top anchor
    /// is the first line's baseline, the end anchor the last line with visible text. Nil for an id the text
    /// does not hold.
    func anchorY(_ id: CrdtID) -> Float? {
        if id == Self.topAnchor { return lines.first?.baseline ?? Self.anchorWithoutText }
        if id == Self.bottomAnchor {
            guard !paragraphs.isEmpty else { return Self.anchorWithoutText }
            return paragraphs.indices.last(where: { paragraphs[$0].hasVisibleText }).map { baseline(paragraph: $0, offset: .max) }
                ?? y + Self.topOffset
        }
        return places[id].map { $0.paragraph < 0 ? y + Self.topOffset : baseline(paragraph: $0.paragraph, offset: $0.offset) }
    }

    /// The text as Markdown, paragraphs in order; empty lines left out, list items kept together.
    var markdown: String {
        var out = ""
        var previousWasListItem = false
        for paragraph in paragraphs where paragraph.hasVisibleText {
            let isListItem = [.bullet, .bullet2, .checkbox, .checked].contains(paragraph.style)
            if !out.isEmpty { out += isListItem && previousWasListItem ? "\n" : "\n\n" }
            out += paragraph.markdown
            previousWasListItem = isListItem
        }
        return out
    }

    // MARK: Reading

    /// One character (or formatting code) of the text's CRDT sequence.
    private enum Piece {
        case character(Character)
        case format(UInt32)
        case deleted
    }

    /// Reads a root text block (type 7) from just after its header.
    static func read(_ reader: inout TaggedReader) throws(ImportError) -> RemarkableText {
        var x: Float = 0, y: Float = 0
        _ = try reader.taggedID(1)
        var items: [SequenceItem<Piece>] = []
        var styles: [CrdtID: Style] = [:]
        try reader.inside(2) { (reader: inout TaggedReader) throws(ImportError) in
            try reader.inside(1) { (reader: inout TaggedReader) throws(ImportError) in
                try reader.inside(1) { (reader: inout TaggedReader) throws(ImportError) in
                    let count = try reader.varuint()
                    guard count <= UInt64(reader.end - reader.offset) else { throw reader.fail("\(count) text items cannot fit in the block") }
                    for _ in 0..<count { try readItem(&reader, into: &items) }
                }
            }
            try reader.inside(2) { (reader: inout TaggedReader) throws(ImportError) in
                try reader.inside(1) { (reader: inout TaggedReader) throws(ImportError) in
                    let count = try reader.varuint()
                    guard count <= UInt64(reader.end - reader.offset) else { throw reader.fail("\(count) paragraph styles cannot fit in the block") }
                    for _ in 0..<count {
                        let character = try reader.crdtID()
                        _ = try reader.taggedID(1)
                        try reader.inside(2) { (reader: inout TaggedReader) throws(ImportError) in
                            _ = try reader.u8()
                            let code = try reader.u8()
                            styles[character] = Style(rawValue: code) ?? .plain
                        }
                    }
                }
            }
        }
        // pos_x, pos_y, then the column's width (tag 4), where the tablet wraps the lines.
        try reader.inside(3) { (reader: inout TaggedReader) throws(ImportError) in
            x = Float(try reader.f64())
            y = Float(try reader.f64())
        }
        guard x.isFinite, y.isFinite, abs(x) <= ImportLimits.coordinate, abs(y) <= ImportLimits.coordinate else {
            throw reader.fail("the text block is at (\(x), \(y)), not a finite position within ±\(Int(ImportLimits.coordinate))")
        }
        var width: Float?
        if reader.has(4, 0x4) {
            let stated = try reader.taggedF32(4)
            guard stated.isFinite, stated > 0, stated <= ImportLimits.coordinate else {
                throw reader.fail("the text column is \(stated) px wide, not a width within \(Int(ImportLimits.coordinate))")
            }
            width = stated
        }
        return RemarkableText(x: x, y: y, width: width, paragraphs: paragraphs(SequenceItem.ordered(items), styles: styles))
    }

    /// One text item, expanded to a sequence item per character (the item's id names its first character,
    /// the next ones count up), as `rmscene` does.
    private static func readItem(_ reader: inout TaggedReader, into items: inout [SequenceItem<Piece>]) throws(ImportError) {
        try reader.inside(0) { (reader: inout TaggedReader) throws(ImportError) in
            let id = try reader.taggedID(2)
            let left = try reader.taggedID(3)
            let right = try reader.taggedID(4)
            let deletedLength = Int(try reader.taggedU32(5))
            var pieces: [Piece] = []
            if reader.has(6, 0xC) {
                try reader.inside(6) { (reader: inout TaggedReader) throws(ImportError) in
                    let length = Int(clamping: try reader.varuint())
                    _ = try reader.u8()
                    guard length <= reader.end - reader.offset else { throw reader.fail("a text item of \(length) bytes runs past its block") }
                    let string = String(decoding: reader.bytes[reader.offset..<reader.offset + length], as: UTF8.self)
                    reader.offset += length
                    if reader.has(2, 0x4) {
                        pieces = [.format(try reader.taggedU32(2))]
                    } else {
                        pieces = string.map(Piece.character)
                    }
                }
            }
            // Checked before anything is made: a deleted run claims up to 4 G characters in 4 bytes.
            guard items.count + max(pieces.count, deletedLength) <= maxCharacters else {
                throw reader.fail("the typed text has more than \(maxCharacters) characters")
            }
            if deletedLength > 0 { pieces = Array(repeating: .deleted, count: deletedLength) }
            var previous = left, current = id
            for (index, piece) in pieces.enumerated() {
                let next = index == pieces.count - 1 ? right : CrdtID(author: id.author, counter: current.counter &+ 1)
                items.append(SequenceItem(id: current, left: previous, right: next, deleted: false, value: piece))
                previous = current
                current = next
            }
        }
    }

    /// Splits the ordered characters into paragraphs at newlines (the newline opens the next paragraph), as
    /// `rmscene` does. Inline bold and italic (formatting codes 1–4) become `**` and `*` around the words they
    /// cover, except in headings and bold paragraphs, which are bold as a whole.
    private static func paragraphs(_ items: [SequenceItem<Piece>], styles: [CrdtID: Style]) -> [Paragraph] {
        var paragraphs: [Paragraph] = []
        var current = Paragraph(newline: nil, style: styles[.zero] ?? .plain, markdown: "", plain: "", characters: [], hasVisibleText: false)
        var plain = ""
        /// Where each character of `current` sits in `plain` as written, leading spaces included.
        var offsets: [Int] = []
        var written = 0
        var bold = false, italic = false
        var shownBold = false, shownItalic = false
        var body = ""
        func emphasis() -> (bold: Bool, italic: Bool) {
            current.style == .heading || current.style == .bold ? (false, false) : (bold, italic)
        }
        /// Closes emphasis before the spaces that end the body so far (Markdown needs `word**`, not `word **`).
        func close(_ marker: String) {
            let trailing = body.reversed().prefix(while: \.isWhitespace).count
            body.insert(contentsOf: marker, at: body.index(body.endIndex, offsetBy: -trailing))
        }
        func finish() {
            if shownItalic { close("*") }
            if shownBold { close("**") }
            shownBold = false
            shownItalic = false
            // Leading spaces would make a Markdown code block; the indent is the tablet's, not a code block.
            body = String(body.drop(while: \.isWhitespace))
            let dropped = plain.prefix(while: \.isWhitespace).count
            current.plain = String(plain.dropFirst(dropped))
            current.offsets = offsets.map { max(0, $0 - dropped) }
            plain = ""
            offsets = []
            written = 0
            current.hasVisibleText = !body.isEmpty
            current.markdown = prefix(current.style) + (current.style == .bold && current.hasVisibleText ? "**\(body)**" : body)
            paragraphs.append(current)
            body = ""
        }
        for (index, item) in items.enumerated() {
            switch item.value {
            case .character("\n")?:
                if index > 0 { finish() } // a newline first of all opens the first paragraph
                current = Paragraph(newline: item.id, style: styles[item.id] ?? .plain, markdown: "", plain: "", characters: [], hasVisibleText: false)
            case .character(let character)?:
                current.characters.append(item.id)
                offsets.append(written)
                written += 1
                let wanted = emphasis()
                if !character.isWhitespace, wanted != (shownBold, shownItalic) {
                    if shownItalic { close("*") }
                    if shownBold, !wanted.bold { close("**") }
                    if wanted.bold, !shownBold { body += "**" }
                    if wanted.italic { body += "*" }
                    (shownBold, shownItalic) = wanted
                }
                body.append(character)
                plain.append(character)
            case .format(let code)?:
                switch code {
                case 1: bold = true
                case 2: bold = false
                case 3: italic = true
                case 4: italic = false
                default: break
                }
            case .deleted?, nil:
                current.characters.append(item.id)
                offsets.append(written)
            }
        }
        if !items.isEmpty { finish() }
        return paragraphs
    }

    /// The column's lines printed on the page where the tablet shows them, moved by (`dx`, `dy`) like the
    /// ink: from the column's left edge on each baseline, headings twice the size, bold paragraphs and
    /// headings bold, list items with a dash or a box in front of their first line and the lines the
    /// column wrapped aligned with their text.
    func printed(dx: Float, dy: Float) -> [PrintedLine] {
        let font = HersheyFont.romanSimplex
        return Array(lines.lazy.compactMap { line -> PrintedLine? in
            let paragraph = paragraphs[line.paragraph]
            guard paragraph.hasVisibleText else { return nil }
            let marker = Self.marker(paragraph.style)
            let size = Self.textSize(paragraph.style)
            let first = line.start == 0
            return PrintedLine(text: first ? marker + line.text : String(line.text),
                               x: x + dx + (first ? 0 : Float(font.width(of: marker, size: Double(size)))),
                               baseline: line.baseline + dy, size: size,
                               bold: paragraph.style == .heading || paragraph.style == .bold)
        }.prefix(PrintedLine.maxPerPage)) // the page file's limit; every paragraph stays in the typed text
    }

    /// The em of typed text, tablet pixels. Measured from the files: handwriting anchored to a character
    /// starts where that character does (`anchor_origin_x`), about 14 px per character from the column's
    /// left edge, which the Hershey roman font's average advance (0.52 em) matches at 27 px.
    static let textSize: Float = 27

    /// The em of a paragraph in `style`: headings are twice the size.
    static func textSize(_ style: Style) -> Float { style == .heading ? 2 * textSize : textSize }

    /// What is printed in front of a list item's first line.
    private static func marker(_ style: Style) -> String {
        switch style {
        case .bullet: "- "
        case .bullet2: "    - "
        case .checkbox: "[ ] "
        case .checked: "[x] "
        case .basic, .plain, .bold, .heading: ""
        }
    }

    private static func prefix(_ style: Style) -> String {
        switch style {
        case .heading: "# "
        case .bullet: "- "
        case .bullet2: "  - "
        case .checkbox: "- [ ] "
        case .checked: "- [x] "
        case .basic, .plain, .bold: ""
        }
    }
}
