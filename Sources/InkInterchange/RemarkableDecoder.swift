import Foundation
import InkCore

/// Reads reMarkable `.lines` version 6 pages (`.rm`, firmware 3.x) into a ``Recording`` of one note with
/// one page, and reMarkable notebook folders (`.content` + `<uuid>/<page>.rm`) into one note per notebook.
///
/// Strokes are read from the scene tree: layers in their CRDT order, and within a layer the strokes in
/// the order of the CRDT sequence (a topological sort of the left/right links, as the tablet draws them),
/// deleted items left out. Points of block version 1 (six floats) and 2 (14 bytes) are read; x is moved by
/// 702 so the page runs 0…1404 like the tablet's screen (226 dpi). Strokes written beside typed text are
/// moved to the line of the character they are anchored to (``RemarkableText``), and the typed text becomes
/// the note's typed text. Text highlights (glyph ranges over the PDF or EPUB under the page) become
/// highlighter strokes over their rectangles, and their text the page's ``Page/highlights``; area
/// erasers are skipped with a warning; unknown blocks are skipped. The format has no time: strokes are
/// timed by ``SyntheticTiming``.
public enum RemarkableDecoder {
    public static let header = Array("reMarkable .lines file, version=6".utf8)
    static let headerLength = 43
    /// Half the page width: the tablet stores x centred on 0.
    public static let xOffset: Float = 702
    /// The tablet's pixels per inch.
    public static let remarkableUnitsPerInch: Float = 226

    public static func decode(_ data: Data, file: String) throws(ImportError) -> Recording {
        let page = try decodePage(data, file: file)
        let typedText = ([page.typedText] + quotes(page.highlights, page: 1)).filter { !$0.isEmpty }.joined(separator: "\n\n")
        var recording = Recording(notes: [RecordedNote(events: ImportedPage.events([page.page]), typedText: typedText)], format: "rm")
        recording.warnings = page.warnings
        return recording
    }

    /// One decoded page: its ink, its typed text (Markdown), the text it highlights and what was
    /// repaired or skipped.
    struct Page {
        var page: ImportedPage
        var typedText: String
        /// The text of each highlight on the page, in the page's order.
        var highlights: [String] = []
        var warnings: [String]
        /// How the page's ink lies on a PDF page under it: by the generation of the format.
        var layout: RemarkablePDFLayout = .trueSize
    }

    /// The highlighted text of page `page` as Markdown quotes, one paragraph each: `> text (p. 3)`.
    static func quotes(_ highlights: [String], page: Int) -> [String] {
        highlights.map { text in
            let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
            return "> \(line) (p. \(page))"
        }
    }

    /// One page with its typed text and warnings. With `growing` (a page of its own) the page grows to
    /// hold ink beyond the screen; without (a page on a PDF, placed by the PDF page) it stays the screen,
    /// 1404 × 1872 with x from −702 moved to 0, whatever lies outside.
    static func decodePage(_ data: Data, file: String, growing: Bool = true) throws(ImportError) -> Page {
        let bytes = [UInt8](data)
        let prefix = Array("reMarkable .lines file, version=".utf8)
        guard bytes.count >= headerLength, bytes.starts(with: prefix) else {
            if bytes.starts(with: prefix) {
                throw ImportError(file: file, position: "byte \(bytes.count)", reason: "the file ends inside its \(headerLength)-byte header")
            }
            throw ImportError(file: file, position: "byte 0", reason: "not a reMarkable .rm file (wrong header)")
        }
        if bytes.starts(with: header) {
            var scene = Scene(file: file)
            try scene.readBlocks(bytes)
            return try scene.page(growing: growing)
        }
        let version = String(decoding: bytes[prefix.count..<headerLength], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        switch version {
        case "5": return try RemarkableLinesV5.decodePage(bytes, hasUnknownField: true, file: file, growing: growing)
        case "3": return try RemarkableLinesV5.decodePage(bytes, hasUnknownField: false, file: file, growing: growing)
        default:
            let shown = String(version.unicodeScalars.prefix(8).filter { $0.properties.generalCategory != .control }.map(Character.init))
            throw ImportError(file: file, position: "byte \(prefix.count)",
                              reason: "reMarkable .lines version \(shown) is not supported (versions 3, 5 and 6 are)")
        }
    }

    /// The page of the tablet's 1404×1872 screen holding `strokes` (in tablet pixels, x from 0) and the
    /// `printed` text: with `growing`, grown (with 20 px of paper) to hold ink more than 2 px below, right
    /// of, above or left of the screen, ink above or left moving the page's corner there.
    static func layOut(_ strokes: [ImportedStroke], printed: [PrintedLine] = [], layers: [PageLayer], growing: Bool) -> ImportedPage {
        var page = ImportedPage(size: .remarkable)
        // The tablet's pixels, 226 an inch, on the screen and past it alike.
        page.template.unitsPerInch = remarkableUnitsPerInch
        let margin: Float = 20
        var minX: Float = 0, minY: Float = 0, maxX = page.size.width, maxY = page.size.height
        for stroke in strokes {
            for point in stroke.points {
                minX = min(minX, point.x); maxX = max(maxX, point.x)
                minY = min(minY, point.y); maxY = max(maxY, point.y)
            }
        }
        // The typed text printed on the page counts too: a long text grows the page like ink does.
        for line in printed {
            minX = min(minX, line.x)
            minY = min(minY, line.baseline - line.size)
            maxY = max(maxY, line.baseline + 0.3 * line.size)
        }
        // Samples within a pixel or two of the edge are the pen at the screen's border, not ink beyond it.
        let edge: Float = growing ? 2 : .infinity
        // Ink spread wider than the coordinate limit (only a hostile file can): the corner moves no farther
        // than keeps the far side's ink within the limit, and ink beyond the near side is off the page.
        let left = max(minX < -edge ? (minX - margin).rounded(.down) : 0, (maxX - ImportLimits.coordinate).rounded(.up))
        let top = max(minY < -edge ? (minY - margin).rounded(.down) : 0, (maxY - ImportLimits.coordinate).rounded(.up))
        let right = maxX > page.size.width + edge ? (maxX + margin).rounded(.up) : page.size.width
        let bottom = maxY > page.size.height + edge ? (maxY + margin).rounded(.up) : page.size.height
        page.size = PageSize(width: right - left, height: bottom - top)
        page.strokes = strokes
        page.template.printed = printed
        page.template.layers = layers
        page.move(dx: -left, dy: -top)
        return page
    }

    /// The warning for a file damaged at `damage` (cut short, or a length that runs past its end): what was
    /// kept before it.
    static func damageWarning(_ damage: ImportError, kept strokes: Int) -> String {
        "\(damage.file): damaged at \(damage.position ?? "its end") (\(damage.reason)): the rest of the file is lost; "
            + "the \(strokes) stroke\(strokes == 1 ? "" : "s") before it \(strokes == 1 ? "is" : "are") kept"
    }
}

/// A CRDT identifier: author and counter.
struct CrdtID: Hashable, Comparable {
    var author: UInt8
    var counter: UInt64
    static let zero = CrdtID(author: 0, counter: 0)
    static let root = CrdtID(author: 0, counter: 1)
    static func < (a: CrdtID, b: CrdtID) -> Bool { (a.author, a.counter) < (b.author, b.counter) }
}

/// One item of a CRDT sequence (a layer's children or the root's layers).
struct SequenceItem<Value> {
    var id: CrdtID
    var left: CrdtID
    var right: CrdtID
    var deleted: Bool
    var value: Value?
}

extension SequenceItem {
    /// Items in CRDT sequence order: Kahn's topological sort of "left before item before right", ready items
    /// taken highest author first, then lowest counter (as rmscene and the tablet do). Unknown neighbours
    /// count as the sequence's ends; items caught in a cycle follow in id order.
    static func ordered(_ items: [SequenceItem]) -> [SequenceItem] {
        guard items.count > 1 else { return items }
        var index: [CrdtID: Int] = [:]
        for (i, item) in items.enumerated() { index[item.id] = i } // a repeated id: the last wins, as in rmscene
        // Nodes: 0 = start, 1 = end, 2 + i = item i.
        let count = items.count + 2
        var inDegree = [Int](repeating: 0, count: count)
        var dependents = [[Int]](repeating: [], count: count)
        for (i, item) in items.enumerated() where index[item.id] == i {
            let node = i + 2
            let left = item.left == .zero ? 0 : index[item.left].map { $0 + 2 } ?? 0
            let right = item.right == .zero ? 1 : index[item.right].map { $0 + 2 } ?? 1
            inDegree[node] += 1
            dependents[left].append(node)
            inDegree[right] += 1
            dependents[node].append(right)
        }
        func key(_ node: Int) -> (Int, Int, UInt64) {
            switch node {
            case 0: (0, 0, 0)
            case 1: (2, 0, 0)
            default: (1, -Int(items[node - 2].id.author), items[node - 2].id.counter)
            }
        }
        var heap = Heap<Int>(by: { key($0) < key($1) })
        for node in 0..<count where inDegree[node] == 0 && (node < 2 || index[items[node - 2].id] == node - 2) { heap.push(node) }
        var result: [SequenceItem] = []
        result.reserveCapacity(items.count)
        var emitted = Set<Int>()
        while let node = heap.pop() {
            if node >= 2 {
                result.append(items[node - 2])
                emitted.insert(node)
            }
            if node == 1 { break }
            for next in dependents[node] {
                inDegree[next] -= 1
                if inDegree[next] == 0 { heap.push(next) }
            }
        }
        if result.count < index.count {
            let rest = items.indices.filter { index[items[$0].id] == $0 && !emitted.contains($0 + 2) }
                .sorted { items[$0].id < items[$1].id }
            result += rest.map { items[$0] }
        }
        return result
    }
}

/// A stroke as the tablet stores it.
struct RemarkableLine {
    var tool: UInt32
    var color: UInt32
    var rgba: RGBA?
    var points: [RecordedPoint]
    var widths: [Float]
}

extension RemarkableLine {
    /// Appends one point as the tablet stored it (x already from 0): refuses a coordinate that is not finite or
    /// beyond ``ImportLimits/coordinate`` (the stroke is then left out), takes a pressure that is not a number as
    /// 0.5 and a width that is not as 0, and clamps both.
    static func append(x: Float, y: Float, pressure: Float, width: Float, to points: inout [RecordedPoint], widths: inout [Float],
                       index: Int, at: Int, file: String) throws(ImportError) {
        guard x.isFinite, y.isFinite, abs(x) <= ImportLimits.coordinate, abs(y) <= ImportLimits.coordinate else {
            throw ImportError(file: file, position: "byte \(at)", reason: "point \(index + 1) of a stroke is at (\(x), \(y)), not a finite coordinate within ±\(Int(ImportLimits.coordinate))")
        }
        points.append(RecordedPoint(x: x, y: y, pressure: pressure.isFinite ? min(max(pressure, 0), 1) : 0.5))
        widths.append(width.isFinite ? min(max(width, 0), ImportLimits.maxWidth) : 0)
    }

    /// The stroke Inkwell draws for this line: the tablet's tool as Inkwell's (each pen's own brush), its
    /// colour (the ARGB of firmware 3.14 when stored, else the palette), its width the median of its points'
    /// widths; nil without points. The same for every version of the format.
    var stroke: ImportedStroke? {
        let line = self
        guard !line.points.isEmpty else { return nil }
        var pen = RecordedPen()
        switch line.tool {
        case 1, 14, 7, 13, 23: pen.tool = .pencil
        case 3, 16: pen.tool = .marker
        case 4, 17: pen.tool = .fineliner
        case 5, 18: pen.tool = .highlighter
        case 6: pen.tool = .eraser
        default: pen.tool = .pen // 0/12 brush, 2/15 ballpoint, 21 calligraphy, unknown
        }
        pen.color = line.rgba ?? Self.palette(line.color, highlighter: pen.tool == .highlighter)
        let sorted = line.widths.sorted()
        let median = sorted[sorted.count / 2]
        pen.width = min(max(median, 0.5), ImportLimits.maxWidth)
        return ImportedStroke(pen: pen, points: line.points, times: nil)
    }

    /// Whether the palette has colour `id` (rmscene's `PenColor`, 0 to 13; 9 is the highlighters' own ink).
    static func paletteHas(_ id: UInt32, highlighter: Bool) -> Bool { highlighter ? id <= 13 : id <= 13 && id != 9 }

    static func palette(_ id: UInt32, highlighter: Bool) -> RGBA {
        if highlighter {
            // Highlighter colours before firmware 3.14 (no ARGB stored): the tablet's translucent inks.
            switch id {
            case 4: return RGBA(red: 125, green: 250, blue: 95, alpha: 100)
            case 5: return RGBA(red: 255, green: 130, blue: 190, alpha: 100)
            case 1: return RGBA(red: 150, green: 150, blue: 150, alpha: 100)
            default: return RGBA(red: 255, green: 237, blue: 117, alpha: 100)
            }
        }
        switch id {
        case 1: return RGBA(red: 144, green: 144, blue: 144)
        case 2: return .white
        case 3: return RGBA(red: 251, green: 247, blue: 25)
        case 4: return RGBA(red: 0, green: 255, blue: 0)
        case 5: return RGBA(red: 255, green: 192, blue: 203)
        case 6: return RGBA(red: 78, green: 105, blue: 201)
        case 7: return RGBA(red: 179, green: 62, blue: 57)
        case 8: return RGBA(red: 125, green: 125, blue: 125)
        case 10: return RGBA(red: 161, green: 216, blue: 125)
        case 11: return RGBA(red: 139, green: 208, blue: 229)
        case 12: return RGBA(red: 183, green: 130, blue: 205)
        case 13: return RGBA(red: 247, green: 232, blue: 81)
        default: return .black
        }
    }
}

/// The strokes of a page drawn with another tool or colour than the tablet's, counted for the page's
/// warnings: pens Inkwell has no brush for, and tools and colours it does not know.
struct RemarkableMappings {
    private enum Mapping: Hashable {
        case tool(UInt32)
        case color(UInt32, highlighter: Bool)
    }
    private var counts: [Mapping: Int] = [:]

    /// Counts `line` when its stroke is not drawn with the tablet's tool or colour.
    mutating func count(_ line: RemarkableLine) {
        switch line.tool {
        case 1...8, 13...18: break // each drawn with its own kind of tool (2/15 ballpoint: the pressure pen)
        case 0: counts[.tool(12), default: 0] += 1 // the paintbrush of the first generation
        default: counts[.tool(line.tool), default: 0] += 1
        }
        let highlighter = [5, 18].contains(line.tool)
        if line.rgba == nil, !RemarkableLine.paletteHas(line.color, highlighter: highlighter) {
            counts[.color(line.color, highlighter: highlighter), default: 0] += 1
        }
    }

    /// One warning a kind: `FILE: 3 paintbrush strokes drawn with Inkwell's pen (…)`.
    func warnings(file: String) -> [String] {
        counts.map { mapping, count in
            let strokes = count == 1 ? "stroke" : "strokes"
            switch mapping {
            case .tool(12):
                return "\(file): \(count) paintbrush \(strokes) drawn with Inkwell's pen (it has no paintbrush: the width does not follow speed and tilt)"
            case .tool(21):
                return "\(file): \(count) calligraphy pen \(strokes) drawn with Inkwell's pen (it has no calligraphy pen: the width does not follow the direction)"
            case .tool(23):
                return "\(file): \(count) shader \(strokes) drawn with Inkwell's pencil (it has no shader)"
            case .tool(let tool):
                return "\(file): \(count) \(strokes) of tool \(tool), which Inkwell does not know, drawn with its pen"
            case .color(let color, let highlighter):
                return "\(file): \(count) \(strokes) in colour \(color), which Inkwell does not know, drawn \(highlighter ? "in the highlighter's yellow" : "black")"
            }
        }.sorted()
    }
}

enum SceneChild {
    case group(CrdtID)
    case line(RemarkableLine)
    case highlight(RemarkableHighlight)
}

/// A text highlight as the tablet stores it (a glyph range): the text marked, its colour and the
/// rectangles it covers on the page (tablet pixels, x centred on 0 like strokes).
struct RemarkableHighlight {
    var text: String
    var color: UInt32
    var rgba: RGBA?
    var rects: [(x: Float, y: Float, width: Float, height: Float)]

    /// Most rectangles read from one highlight.
    static let maxRects = 10_000

    /// The highlighter strokes drawn over it: one per rectangle, along its middle, as wide as it is
    /// high, its round ends within the rectangle, in the highlighter's translucent ink.
    var strokes: [ImportedStroke] {
        let color = rgba ?? RemarkableLine.palette(color, highlighter: true)
        return rects.compactMap { rect in
            guard rect.width > 0, rect.height > 0 else { return nil }
            let y = rect.y + rect.height / 2
            let width = min(rect.height, rect.width, ImportLimits.maxWidth)
            let pen = RecordedPen(tool: .highlighter, color: color, width: width)
            let x = rect.x + RemarkableDecoder.xOffset
            let points = [RecordedPoint(x: x + width / 2, y: y, pressure: 1),
                          RecordedPoint(x: x + rect.width - width / 2, y: y, pressure: 1)]
            return ImportedStroke(pen: pen, points: points, times: nil)
        }
    }
}

/// Reads tagged values from one block's bytes, failing with the file position.
struct TaggedReader {
    let bytes: [UInt8]
    var offset: Int
    var end: Int
    let file: String

    func fail(_ reason: String) -> ImportError {
        ImportError(file: file, position: "byte \(offset)", reason: reason)
    }

    mutating func u8() throws(ImportError) -> UInt8 {
        guard offset < end else { throw fail("block ends too soon") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() throws(ImportError) -> UInt16 {
        guard end - offset >= 2 else { throw fail("block ends too soon") }
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func u32() throws(ImportError) -> UInt32 {
        guard end - offset >= 4 else { throw fail("block ends too soon") }
        defer { offset += 4 }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    mutating func f32() throws(ImportError) -> Float { Float(bitPattern: try u32()) }

    mutating func f64() throws(ImportError) -> Double {
        let low = UInt64(try u32()), high = UInt64(try u32())
        return Double(bitPattern: high << 32 | low)
    }

    mutating func varuint() throws(ImportError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try u8()
            guard shift < 64 else { throw fail("varint longer than 64 bits") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func crdtID() throws(ImportError) -> CrdtID {
        CrdtID(author: try u8(), counter: try varuint())
    }

    /// The next tag without moving, or nil at the end of the block or on a malformed tag.
    func peekTag() -> (index: UInt64, type: UInt8)? {
        var copy = self
        guard copy.offset < copy.end, let tag = try? copy.varuint() else { return nil }
        return (tag >> 4, UInt8(tag & 0xF))
    }

    func has(_ index: UInt64, _ type: UInt8) -> Bool {
        guard let tag = peekTag() else { return false }
        return tag.index == index && tag.type == type
    }

    mutating func tag(_ index: UInt64, _ type: UInt8) throws(ImportError) {
        let at = offset
        let tag = try varuint()
        guard tag >> 4 == index, tag & 0xF == UInt64(type) else {
            offset = at
            throw fail("expected tag \(index) of type 0x\(String(type, radix: 16)), found tag \(tag >> 4) of type 0x\(String(tag & 0xF, radix: 16))")
        }
    }

    mutating func taggedID(_ index: UInt64) throws(ImportError) -> CrdtID {
        try tag(index, 0xF)
        return try crdtID()
    }

    mutating func taggedU32(_ index: UInt64) throws(ImportError) -> UInt32 {
        try tag(index, 0x4)
        return try u32()
    }

    mutating func taggedF32(_ index: UInt64) throws(ImportError) -> Float {
        try tag(index, 0x4)
        return try f32()
    }

    mutating func taggedF64(_ index: UInt64) throws(ImportError) -> Double {
        try tag(index, 0x8)
        return try f64()
    }

    mutating func taggedBool(_ index: UInt64) throws(ImportError) -> Bool {
        try tag(index, 0x1)
        return try u8() != 0
    }

    /// Reads a length-prefixed sub-block with `body`, which cannot read past it; continues after it.
    mutating func inside<T>(_ index: UInt64, _ body: (inout TaggedReader) throws(ImportError) -> T) throws(ImportError) -> T {
        let blockEnd = try subblock(index)
        let outerEnd = end
        end = blockEnd
        defer { end = outerEnd }
        let value = try body(&self)
        offset = blockEnd
        return value
    }

    /// A length-prefixed sub-block: returns its end; the caller reads inside and then sets `offset` to it.
    mutating func subblock(_ index: UInt64) throws(ImportError) -> Int {
        try tag(index, 0xC)
        let length = Int(try u32())
        guard length <= end - offset else { throw fail("sub-block of \(length) bytes runs past its block") }
        return offset + length
    }
}

/// The scene of one page as its blocks build it.
private struct Scene {
    let file: String
    /// Children sequences by parent group.
    var children: [CrdtID: [SequenceItem<SceneChild>]] = [:]
    var groups: Set<CrdtID> = [CrdtID.root]
    var labels: [CrdtID: String] = [:]
    var hidden: Set<CrdtID> = []
    var skippedBlocks: [String: Int] = [:]
    var totalPoints = 0
    /// Groups written beside typed text: the character they follow and the x their points are relative to.
    var anchors: [CrdtID: (character: CrdtID, originX: Float)] = [:]
    var text: RemarkableText?
    /// Why the typed text could not be read, when it could not (the strokes are still imported).
    var unreadableText: String?
    /// Blocks left out for a bad value, each alone.
    var recovery = Recovery()
    /// Where the file stops making sense (cut short, a block running past its end); the blocks before are kept.
    var damage: ImportError?

    init(file: String) { self.file = file }

    mutating func readBlocks(_ bytes: [UInt8]) throws(ImportError) {
        var offset = RemarkableDecoder.headerLength
        while offset < bytes.count {
            // The file cut short, or a length that runs past its end: every whole block before is kept.
            guard bytes.count - offset >= 8 else {
                damage = ImportError(file: file, position: "byte \(offset)",
                                     reason: "truncated block header (\(bytes.count - offset) byte\(bytes.count - offset == 1 ? "" : "s") of 8)")
                return
            }
            var header = TaggedReader(bytes: bytes, offset: offset, end: bytes.count, file: file)
            let length = Int(try header.u32())
            _ = try header.u8()
            let minVersion = try header.u8()
            let version = try header.u8()
            let type = try header.u8()
            let start = offset + 8
            guard length <= bytes.count - start else {
                damage = ImportError(file: file, position: "byte \(offset)",
                                     reason: "block of type \(type) claims \(length) bytes but only \(bytes.count - start) remain")
                return
            }
            var reader = TaggedReader(bytes: bytes, offset: start, end: start + length, file: file)
            do {
                try readBlock(type: type, minVersion: minVersion, version: version, &reader)
            } catch {
                // A bad value costs its block only (its length is known, so the next one is found);
                // a file over the size limits is still refused.
                if error.exceedsLimits { throw error }
                if type == 0x05 {
                    recovery.note("stroke skipped", "strokes skipped", error)
                } else {
                    recovery.note("block skipped", "blocks skipped", error)
                }
            }
            offset = start + length
        }
    }

    mutating func readBlock(type: UInt8, minVersion: UInt8, version: UInt8, _ reader: inout TaggedReader) throws(ImportError) {
        switch type {
        case 0x01: // scene tree: a group (layer) node
            let treeID = try reader.taggedID(1)
            _ = try reader.taggedID(2)
            _ = try reader.taggedBool(3)
            let end = try reader.subblock(4)
            _ = try reader.taggedID(1) // parent
            reader.offset = end
            groups.insert(treeID)
        case 0x02: // tree node: a group's label and visibility
            let nodeID = try reader.taggedID(1)
            if reader.has(2, 0xC) {
                let end = try reader.subblock(2)
                _ = try reader.taggedID(1)
                let stringEnd = try reader.subblock(2)
                let length = Int(clamping: try reader.varuint())
                _ = try reader.u8()
                if length <= stringEnd - reader.offset {
                    labels[nodeID] = String(decoding: reader.bytes[reader.offset..<reader.offset + length], as: UTF8.self)
                }
                reader.offset = end
            }
            if reader.has(3, 0xC) {
                let end = try reader.subblock(3)
                _ = try reader.taggedID(1)
                if try !reader.taggedBool(2) { hidden.insert(nodeID) }
                reader.offset = end
            }
            // A group of strokes written beside typed text: anchored to one of its characters (7), at x (10).
            if reader.has(7, 0xC) {
                let anchor = try reader.inside(7) { (reader: inout TaggedReader) throws(ImportError) in
                    _ = try reader.taggedID(1)
                    return try reader.taggedID(2)
                }
                for index: UInt64 in 8...9 where reader.has(index, 0xC) { reader.offset = try reader.subblock(index) }
                var originX: Float = 0
                if reader.has(10, 0xC) {
                    originX = try reader.inside(10) { (reader: inout TaggedReader) throws(ImportError) in
                        _ = try reader.taggedID(1)
                        return try reader.taggedF32(2)
                    }
                }
                guard originX.isFinite, abs(originX) <= ImportLimits.coordinate else {
                    throw reader.fail("a stroke group is anchored at x = \(originX), not a finite coordinate within ±\(Int(ImportLimits.coordinate))")
                }
                anchors[nodeID] = (anchor, originX)
            }
        case 0x03, 0x04, 0x05: // highlight item, group item, line item
            if type == 0x05, minVersion > 2 {
                skippedBlocks["stroke written by newer firmware (block version \(minVersion))", default: 0] += 1
                return
            }
            let parent = try reader.taggedID(1)
            let id = try reader.taggedID(2)
            let left = try reader.taggedID(3)
            let right = try reader.taggedID(4)
            let deletedLength = try reader.taggedU32(5)
            var value: SceneChild?
            if reader.has(6, 0xC) {
                let end = try reader.subblock(6)
                let itemType = try reader.u8()
                if type == 0x03 {
                    guard itemType == 0x01 else { throw reader.fail("highlight item of type \(itemType)") }
                    value = .highlight(try highlight(&reader))
                } else if type == 0x04 {
                    guard itemType == 0x02 else { throw reader.fail("group item of type \(itemType)") }
                    value = .group(try reader.taggedID(2))
                } else {
                    guard itemType == 0x03 else { throw reader.fail("stroke item of type \(itemType)") }
                    let line = try self.line(&reader, version: version, end: end)
                    if line.tool == 8 {
                        skippedBlocks["area eraser", default: 0] += 1
                    } else {
                        value = .line(line)
                    }
                }
                reader.offset = end
            }
            children[parent, default: []].append(SequenceItem(id: id, left: left, right: right, deleted: deletedLength > 0, value: value))
        case 0x07:
            let start = reader.offset
            do {
                text = try RemarkableText.read(&reader)
            } catch {
                unreadableText = "\(error.reason) (\(error.position ?? "byte \(start)"))"
            }
        default:
            break // migration info, page info, author ids, scene info, tombstones, text items, unknown: skipped
        }
    }

    /// A glyph range: its start (optional) and length in the document's text, colour, text and rectangles
    /// (a count, then x, y, width and height as doubles each); firmware 3.14 adds its ARGB colour (tag 10).
    func highlight(_ reader: inout TaggedReader) throws(ImportError) -> RemarkableHighlight {
        if reader.has(2, 0x4) { _ = try reader.taggedU32(2) } // start
        _ = try reader.taggedU32(3) // length
        let color = try reader.taggedU32(4)
        let text = try reader.inside(5) { (reader: inout TaggedReader) throws(ImportError) -> String in
            let length = Int(clamping: try reader.varuint())
            _ = try reader.u8() // is ASCII
            guard length <= reader.end - reader.offset else { throw reader.fail("highlight text of \(length) bytes runs past its block") }
            return String(decoding: reader.bytes[reader.offset..<reader.offset + length], as: UTF8.self)
        }
        let rects = try reader.inside(6) { (reader: inout TaggedReader) throws(ImportError) -> [(x: Float, y: Float, width: Float, height: Float)] in
            let count = Int(clamping: try reader.varuint())
            guard count <= RemarkableHighlight.maxRects, count * 32 <= reader.end - reader.offset else {
                throw reader.fail("\(count) highlight rectangles do not fit in their block")
            }
            var rects: [(x: Float, y: Float, width: Float, height: Float)] = []
            for _ in 0..<count {
                let at = reader.offset
                let values = [try reader.f64(), try reader.f64(), try reader.f64(), try reader.f64()].map(Float.init)
                guard values.allSatisfy({ $0.isFinite && abs($0) <= ImportLimits.coordinate }) else {
                    throw ImportError(file: file, position: "byte \(at)", reason: "a highlight rectangle is not finite coordinates within ±\(Int(ImportLimits.coordinate))")
                }
                rects.append((values[0], values[1], values[2], values[3]))
            }
            return rects
        }
        // Firmware 3.14's colour (tag 10, ARGB, opaque): its hue, as translucent as the palette's highlighter.
        var rgba: RGBA?
        if reader.has(10, 0x4) {
            let packed = try reader.taggedU32(10)
            rgba = RGBA(red: UInt8(packed >> 16 & 0xFF), green: UInt8(packed >> 8 & 0xFF), blue: UInt8(packed & 0xFF),
                        alpha: RemarkableLine.palette(color, highlighter: true).alpha)
        }
        return RemarkableHighlight(text: text, color: color, rgba: rgba, rects: rects)
    }

    mutating func line(_ reader: inout TaggedReader, version: UInt8, end: Int) throws(ImportError) -> RemarkableLine {
        let tool = try reader.taggedU32(1)
        let color = try reader.taggedU32(2)
        _ = try reader.taggedF64(3) // thickness scale
        _ = try reader.taggedF32(4) // starting length
        let pointsEnd = try reader.subblock(5)
        let size: Int
        switch version {
        case 1: size = 24
        case 2: size = 14
        default: throw reader.fail("stroke points of version \(version) (versions 1 and 2 are known)")
        }
        let dataLength = pointsEnd - reader.offset
        guard dataLength % size == 0 else { throw reader.fail("\(dataLength) bytes of points is not a multiple of \(size)") }
        let count = dataLength / size
        totalPoints += count
        guard count <= ImportLimits.pointsPerStroke else {
            throw reader.fail("a stroke has more than \(ImportLimits.pointsPerStroke) points").exceedingLimits()
        }
        guard totalPoints <= ImportLimits.pointsPerFile else {
            throw reader.fail("the file has more than \(ImportLimits.pointsPerFile) points").exceedingLimits()
        }
        var points: [RecordedPoint] = []
        var widths: [Float] = []
        points.reserveCapacity(count)
        widths.reserveCapacity(count)
        for index in 0..<count {
            let at = reader.offset
            let x = try reader.f32(), y = try reader.f32()
            let pressure: Float, width: Float
            if version == 1 {
                _ = try reader.f32() // speed
                _ = try reader.f32() // direction
                width = try reader.f32()
                pressure = try reader.f32()
            } else {
                _ = try reader.u16() // speed
                width = Float(try reader.u16()) / 4
                _ = try reader.u8() // direction
                pressure = Float(try reader.u8()) / 255
            }
            do {
                try RemarkableLine.append(x: x + RemarkableDecoder.xOffset, y: y, pressure: pressure, width: width,
                                          to: &points, widths: &widths, index: index, at: at, file: file)
            } catch {
                totalPoints -= count
                throw error
            }
        }
        reader.offset = pointsEnd
        _ = try reader.taggedID(6) // timestamp
        if reader.has(7, 0xF) { _ = try reader.taggedID(7) } // move id
        var rgba: RGBA?
        if reader.has(8, 0x4) {
            let packed = try reader.taggedU32(8)
            rgba = RGBA(red: UInt8(packed >> 16 & 0xFF), green: UInt8(packed >> 8 & 0xFF), blue: UInt8(packed & 0xFF),
                        alpha: UInt8(packed >> 24))
        }
        return RemarkableLine(tool: tool, color: color, rgba: rgba, points: points, widths: widths)
    }

    /// The page: layers from the root in sequence order, each layer's strokes in sequence order, groups
    /// written beside typed text moved to their anchor. The page is the tablet's 1404×1872, grown (with
    /// 20 px of paper) to hold ink more than 2 px below, right of, above or left of it; ink above or left
    /// moves the page's corner there.
    func page(growing: Bool = true) throws(ImportError) -> RemarkableDecoder.Page {
        var strokes: [ImportedStroke] = []
        var visited: Set<CrdtID> = []
        var reached = 0
        var unplaced = 0
        var layers: [PageLayer] = []
        var highlights: [String] = []
        var mappings = RemarkableMappings()
        let typed = text ?? RemarkableText()
        /// Each group under the root is a layer (its label and visibility); groups below it are anchored
        /// groups of strokes within that layer (a hidden one hides its strokes; they are not a layer).
        func walk(_ group: CrdtID, depth: Int, layer: UInt16?, dx: Float, dy: Float) {
            guard depth < 64, visited.insert(group).inserted else { return }
            var dx = dx, dy = dy
            if let anchor = anchors[group] {
                dx += anchor.originX
                if let y = typed.anchorY(anchor.character) {
                    dy += y
                } else {
                    unplaced += 1
                }
            }
            for item in SequenceItem.ordered(children[group] ?? []) where !item.deleted {
                switch item.value {
                case .group(let child)?:
                    var childLayer = layer
                    if layer == nil {
                        childLayer = UInt16(min(layers.count, PageLayer.maxPerPage - 1))
                        if layers.count < PageLayer.maxPerPage {
                            layers.append(PageLayer(name: labels[child] ?? "Layer \(layers.count + 1)", isVisible: !hidden.contains(child)))
                        }
                    }
                    walk(child, depth: depth + 1, layer: childLayer, dx: dx, dy: dy)
                case .line(let line)?:
                    reached += 1
                    guard var stroke = line.stroke else { break }
                    mappings.count(line)
                    stroke.pen.layer = layer ?? 0
                    strokes.append(stroke.moved(dx: dx, dy: dy))
                case .highlight(let highlight)?:
                    for var stroke in highlight.strokes {
                        stroke.pen.layer = layer ?? 0
                        strokes.append(stroke.moved(dx: dx, dy: dy))
                    }
                    if !highlight.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { highlights.append(highlight.text) }
                case nil: break
                }
            }
        }
        walk(.root, depth: 0, layer: nil, dx: 0, dy: 0)

        let printed = text?.printed(dx: RemarkableDecoder.xOffset, dy: 0) ?? []
        let page = RemarkableDecoder.layOut(strokes, printed: printed, layers: layers, growing: growing)

        if strokes.isEmpty, text == nil, highlights.isEmpty, let problem = recovery.firstProblem ?? damage { throw problem } // nothing could be kept
        var warnings: [String] = recovery.warnings
        if let damage { warnings.append(RemarkableDecoder.damageWarning(damage, kept: strokes.count)) }
        let total = children.values.reduce(0) { count, items in
            count + items.filter { if !$0.deleted, case .line? = $0.value { true } else { false } }.count
        }
        if total > reached {
            warnings.append("\(file): \(total - reached) stroke\(total - reached == 1 ? "" : "s") outside any layer skipped")
        }
        if unplaced > 0 {
            warnings.append("\(file): \(unplaced) stroke group\(unplaced == 1 ? " is" : "s are") anchored to typed text the page does not hold; placed as if at its top")
        }
        if let unreadableText {
            warnings.append("\(file): the typed text could not be read and was skipped: \(unreadableText)")
        }
        for (kind, count) in skippedBlocks.sorted(by: { $0.key < $1.key }) {
            warnings.append("\(file): \(count) \(kind)\(count == 1 ? "" : "s") skipped (Inkwell keeps pen strokes and typed text)")
        }
        warnings += mappings.warnings(file: file)
        return RemarkableDecoder.Page(page: page, typedText: text?.markdown ?? "", highlights: highlights, warnings: warnings)
    }
}

/// A binary min-heap with a caller's ordering.
struct Heap<Element> {
    private var items: [Element] = []
    let less: (Element, Element) -> Bool

    init(by less: @escaping (Element, Element) -> Bool) { self.less = less }

    mutating func push(_ element: Element) {
        items.append(element)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Element? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var best = parent
            if left < items.count, less(items[left], items[best]) { best = left }
            if right < items.count, less(items[right], items[best]) { best = right }
            guard best != parent else { break }
            items.swapAt(parent, best)
            parent = best
        }
        return top
    }
}
