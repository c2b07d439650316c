import Foundation
import InkCore

/// One glyph of a Hershey font, in font units: x to the right, y down, origin at the glyph's centre;
/// the base line of a normal-size font is y = 9 and its cap line y = -12.
public struct HersheyGlyph: Sendable, Hashable {
    /// The Hershey glyph number (the first five columns of its line).
    public let number: Int
    /// Left and right spacing bounds: the glyph occupies `right - left` units of advance.
    public let left: Int
    public let right: Int
    /// Pen-down runs of vertices; the file's pen-ups separate them.
    public let strokes: [[Vector]]

    public init(number: Int, left: Int, right: Int, strokes: [[Vector]]) {
        self.number = number
        self.left = left
        self.right = right
        self.strokes = strokes
    }

    /// Horizontal advance in font units.
    public var advance: Int { right - left }
}

/// Why a `.jhf` file could not be read, with the file and line (1-based) it concerns.
public struct HersheyFontError: Error, CustomStringConvertible, Sendable, Equatable {
    public let file: String
    public let line: Int
    public let reason: String

    public var description: String { line > 0 ? "\(file):\(line): \(reason)" : "\(file): \(reason)" }
}

/// A Hershey font in the `.jhf` layout: glyph *i* draws the character with code 32 + *i*.
public struct HersheyFont: Sendable {
    /// The name it was parsed under, usually its file name.
    public let name: String
    /// Glyphs in file order.
    public let glyphs: [HersheyGlyph]

    /// Parses `.jhf` bytes. Each glyph is a 5-column number, a 3-column count of vertex pairs
    /// (the left/right bound pair included), the bounds, then coordinate pairs, each value a letter
    /// offset from `R`; ` R` lifts the pen. A glyph may wrap onto following lines (72-column files);
    /// lines starting with `#` are comments. Any malformed input throws, naming `name` and the line.
    public init(parsing bytes: some Collection<UInt8>, name: String) throws(HersheyFontError) {
        var reader = JHFReader(lines: JHFReader.splitLines(Array(bytes)), file: name)
        var glyphs: [HersheyGlyph] = []
        while let glyph = try reader.nextGlyph() { glyphs.append(glyph) }
        guard !glyphs.isEmpty else { throw HersheyFontError(file: name, line: 0, reason: "holds no glyphs") }
        self.name = name
        self.glyphs = glyphs
    }

    /// Reads and parses the file at `url`, named by its last path component in errors.
    public init(contentsOf url: URL) throws(HersheyFontError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw HersheyFontError(file: url.path, line: 0, reason: "cannot be read (\(error.localizedDescription))")
        }
        try self.init(parsing: data, name: url.lastPathComponent)
    }

    /// The glyph drawing `character`, for printable ASCII (space … `~`) the font covers.
    public func glyph(for character: Character) -> HersheyGlyph? {
        guard let ascii = character.asciiValue, (32...126).contains(ascii) else { return nil }
        let index = Int(ascii) - 32
        return index < glyphs.count ? glyphs[index] : nil
    }
}

/// Walks the lines of a `.jhf` file glyph by glyph.
private struct JHFReader {
    /// A line's bytes (without its line end) and its 1-based number.
    typealias Line = (bytes: [UInt8], number: Int)

    let lines: [Line]
    let file: String
    var next = 0

    init(lines: [Line], file: String) {
        self.lines = lines
        self.file = file
    }

    static func splitLines(_ bytes: [UInt8]) -> [Line] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated().map { index, line in
            (Array(line.last == UInt8(ascii: "\r") ? line.dropLast() : line), index + 1)
        }
    }

    mutating func nextGlyph() throws(HersheyFontError) -> HersheyGlyph? {
        while next < lines.count, lines[next].bytes.allSatisfy(Self.isBlank) || lines[next].bytes.first == UInt8(ascii: "#") {
            next += 1
        }
        guard next < lines.count else { return nil }
        let (header, lineNumber) = lines[next]
        next += 1
        func fail(_ reason: String) -> HersheyFontError { HersheyFontError(file: file, line: lineNumber, reason: reason) }

        guard header.count >= 10 else { throw fail("glyph line is \(header.count) bytes, shorter than its 10-byte header") }
        guard let number = Self.integer(header[0..<5]) else { throw fail("columns 1–5 are not a glyph number") }
        guard let count = Self.integer(header[5..<8]), count >= 1 else { throw fail("columns 6–8 are not a vertex count") }
        let left = try Self.value(header[8], column: 9, fail: fail)
        let right = try Self.value(header[9], column: 10, fail: fail)

        // The coordinate data, joined across wrapped lines, with where each byte came from.
        let needed = 2 * (count - 1)
        var data = Array(header[10...])
        var origin = data.indices.map { (lineNumber, $0 + 11) }
        while data.count < needed, next < lines.count, !Self.startsGlyph(lines[next].bytes) {
            let (bytes, number) = lines[next]
            next += 1
            origin += bytes.indices.map { (number, $0 + 1) }
            data += bytes
        }
        guard data.count >= needed else {
            throw fail("glyph \(number) is truncated: its count promises \(count - 1) vertex pairs, the data holds \(data.count / 2)")
        }
        guard data[needed...].allSatisfy(Self.isBlank) else {
            throw fail("glyph \(number) has data past its \(count - 1) vertex pairs")
        }

        func coordinate(_ index: Int) throws(HersheyFontError) -> Double {
            let (line, column) = origin[index]
            return Double(try Self.value(data[index], column: column) { HersheyFontError(file: file, line: line, reason: $0) })
        }
        var strokes: [[Vector]] = [[]]
        for pair in stride(from: 0, to: needed, by: 2) {
            if data[pair] == UInt8(ascii: " "), data[pair + 1] == UInt8(ascii: "R") {
                strokes.append([])
            } else {
                strokes[strokes.count - 1].append(Vector(x: try coordinate(pair), y: try coordinate(pair + 1)))
            }
        }
        return HersheyGlyph(number: number, left: left, right: right, strokes: strokes.filter { !$0.isEmpty })
    }

    /// A coordinate letter: printable ASCII other than space, as its offset from `R`.
    private static func value(_ byte: UInt8, column: Int, fail: (String) -> HersheyFontError) throws(HersheyFontError) -> Int {
        guard byte > 0x20, byte < 0x7F else {
            let shown = byte == 0x20 ? "a space" : "byte 0x" + String(byte, radix: 16, uppercase: true)
            throw fail("column \(column): \(shown) is not a coordinate letter")
        }
        return Int(byte) - Int(UInt8(ascii: "R"))
    }

    /// A right-aligned decimal number padded with spaces.
    private static func integer(_ bytes: ArraySlice<UInt8>) -> Int? {
        let digits = bytes.drop(while: { $0 == 0x20 })
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// True when `bytes` opens a new glyph: a number and a count in the first 8 columns.
    private static func startsGlyph(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 10 && integer(bytes[0..<5]) != nil && integer(bytes[5..<8]) != nil
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
