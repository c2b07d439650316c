import Foundation
import InkCore
import Testing
@testable import InkFont
import InkSamples

/// The repository's `fonts/` folder, found from this file's path.
let fontsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fonts")

func font(_ fileName: String) throws -> HersheyFont {
    try HersheyFont(contentsOf: fontsDirectory.appendingPathComponent(fileName))
}

@Suite("Hershey font parser")
struct HersheyFontTests {
    @Test("the shipped fonts cover printable ASCII")
    func shippedFonts() throws {
        for fileName in ["rowmans.jhf", "scripts.jhf"] {
            let font = try font(fileName)
            #expect(font.glyphs.count >= 95, "\(fileName)")
            for code in UInt8(33)...126 {
                #expect(font.glyph(for: Character(UnicodeScalar(code)))?.strokes.isEmpty == false,
                        "\(fileName) has no ink for \(Character(UnicodeScalar(code)))")
            }
            #expect(font.glyph(for: " ")?.strokes.isEmpty == true)
            #expect(font.glyph(for: "é") == nil)
        }
    }

    @Test("a real glyph parses to its vertex count and bounds")
    func realGlyph() throws {
        // rowmans.jhf, the line for `A`: number 501, 9 vertex pairs with the bounds, three strokes.
        let a = try #require(try font("rowmans.jhf").glyph(for: "A"))
        #expect(a.number == 501)
        #expect(a.left == -9 && a.right == 9 && a.advance == 18)
        #expect(a.strokes == [
            [Vector(x: 0, y: -12), Vector(x: -8, y: 9)],
            [Vector(x: 0, y: -12), Vector(x: 8, y: 9)],
            [Vector(x: -5, y: 2), Vector(x: 5, y: 2)],
        ])
        let vertexPairs = a.strokes.reduce(0) { $0 + $1.count } + (a.strokes.count - 1) + 1
        #expect(vertexPairs == 9)
    }

    @Test("a glyph wrapped over several lines parses like the unwrapped one")
    func wrappedLines() throws {
        let line = "  733 12H]SBLb RYBRb RLOZO RKUYU"
        let wrapped = "  733 12H]SBLb RY\nBRb RLOZO R\nKUYU\n"
        let one = try HersheyFont(parsing: Array((line + "\n").utf8), name: "one.jhf")
        let other = try HersheyFont(parsing: Array(wrapped.utf8), name: "wrapped.jhf")
        #expect(one.glyphs == other.glyphs)
        #expect(other.glyphs[0].strokes.count == 4)

        // The shipped files hold long glyphs on one line; wrapped at 72 columns they read the same.
        let original = try Data(contentsOf: fontsDirectory.appendingPathComponent("scripts.jhf"))
        let rewrapped = String(decoding: original, as: UTF8.self).split(separator: "\n").map { line in
            stride(from: 0, to: line.count, by: 72).map { start in
                String(line.dropFirst(start).prefix(72))
            }.joined(separator: "\n")
        }.joined(separator: "\n")
        #expect(rewrapped.split(separator: "\n").count > 96)
        #expect(try HersheyFont(parsing: Array(rewrapped.utf8), name: "scripts-72.jhf").glyphs == font("scripts.jhf").glyphs)
    }

    @Test("comment lines, blank lines and CRLF line ends are accepted")
    func tolerantLayout() throws {
        let text = "#{\"define_cap_line\": -12}\r\n\r\n    1  1JZ\r\n    2  9MWRFRT RRYQZR[SZRY\r\n"
        let font = try HersheyFont(parsing: Array(text.utf8), name: "crlf.jhf")
        #expect(font.glyphs.count == 2)
        #expect(font.glyph(for: "!")?.strokes.count == 2)
    }

    @Test("bad input throws an error naming the file and line", arguments: [
        ("", 0, "holds no glyphs"),
        ("    1  1JZ\n  733 12H]SBLb RYBRb\n", 2, "truncated"),
        ("    1  1JZ\n    2  4JZRFRT\n    3  2JZRF\n", 2, "truncated"),
        ("    1  1JZ\n abcd  1JZ\n", 2, "glyph number"),
        ("    1 x1JZ\n", 1, "vertex count"),
        ("    1  0JZ\n", 1, "vertex count"),
        ("    1  2J\n", 1, "shorter than its 10-byte header"),
        ("    1  3JZRF\u{FF}T\n", 1, "byte 0xFF"),
        ("    1  3JZRF T\n", 1, "a space"),
        ("    1  2JZRFRTRU\n", 1, "past its 1 vertex pairs"),
        ("    1  2J\u{01}RF\n", 1, "column 10"),
        ("    1  3JZRF\n\u{FF}T\n", 2, "column 1: byte 0xFF"),
    ])
    func badInput(text: String, line: Int, reason: String) {
        let bytes = text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        let error = #expect(throws: HersheyFontError.self) {
            try HersheyFont(parsing: bytes, name: "bad.jhf")
        }
        #expect(error?.file == "bad.jhf")
        #expect(error?.line == line)
        #expect(error?.description.hasPrefix(line > 0 ? "bad.jhf:\(line): " : "bad.jhf: ") == true)
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    @Test("a missing file throws an error naming it")
    func missingFile() {
        #expect(throws: HersheyFontError.self) {
            try HersheyFont(contentsOf: URL(fileURLWithPath: "/nonexistent/rowmans.jhf"))
        }
    }

    @Test("random and mangled bytes never crash the parser")
    func fuzz() throws {
        var rng = SeededGenerator(seed: 42)
        let real = Array(try Data(contentsOf: fontsDirectory.appendingPathComponent("rowmans.jhf")))
        for round in 0..<400 {
            var bytes: [UInt8]
            switch round % 4 {
            case 0: bytes = (0..<rng.index(below: 300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            case 1: bytes = Array(real.prefix(rng.index(below: real.count)))
            default:
                bytes = real
                for _ in 0..<(1 + rng.index(below: 8)) {
                    bytes[rng.index(below: bytes.count)] = UInt8(truncatingIfNeeded: rng.next())
                }
            }
            do {
                let font = try HersheyFont(parsing: bytes, name: "fuzz.jhf")
                #expect(!font.glyphs.isEmpty)
            } catch {
                #expect(error.file == "fuzz.jhf")
                #expect(!error.reason.isEmpty)
            }
        }
    }
}

@Suite("Compiled-in fonts")
struct ShippedFontTests {
    @Test("Roman Simplex compiled into the program is fonts/rowmans.jhf, glyph for glyph")
    func romanSimplexIsTheShippedFile() throws {
        let shipped = try font("rowmans.jhf")
        #expect(HersheyFont.romanSimplex.glyphs == shipped.glyphs)
        #expect(HersheyFont.romanSimplex.glyphs.count >= 95)
    }

    @Test("Script Simplex compiled into the program is fonts/scripts.jhf, glyph for glyph")
    func scriptSimplexIsTheShippedFile() throws {
        #expect(HersheyFont.scriptSimplex.glyphs == (try font("scripts.jhf")).glyphs)
        #expect(HersheyFont.shipped("scripts.jhf")?.glyphs == HersheyFont.scriptSimplex.glyphs)
        #expect(HersheyFont.shipped("nope.jhf") == nil)
    }
}

@Suite("Hershey line breaking")
struct HersheyMetricsTests {
    let font = HersheyFont.romanSimplex

    @Test("lines break at spaces, keep the spaces inside a line as written, and break a word only when it alone is too wide")
    func wrap() {
        let size = 32.0 // one font unit a unit
        let text = "ab  cd efgh"[...]
        // Wide enough for everything: one line, its double space kept.
        #expect(font.wrap(text, width: 1000, size: size) == ["ab  cd efgh"])
        // As wide as "ab  cd": the break drops the space before "efgh".
        let first = font.width(of: "ab  cd", size: size)
        #expect(font.wrap(text, width: first, size: size) == ["ab  cd", "efgh"])
        #expect(font.wrap(text, width: first - 1, size: size) == ["ab", "cd", "efgh"])
        // Narrower than "efgh": the word is broken between characters, every piece within the width.
        let narrow = font.width(of: "ef", size: size)
        let pieces = font.wrap(text, width: narrow, size: size)
        #expect(pieces.joined() == "abcdefgh" && pieces.count > 3)
        #expect(pieces.allSatisfy { font.width(of: $0, size: size) <= narrow })
        // No words: one empty line; a character wider than the width still makes a piece.
        #expect(font.wrap("   "[...], width: 100, size: size) == [""])
        #expect(font.breakCharacters("W"[...], width: 1, size: size) == ["W"])
    }
}
