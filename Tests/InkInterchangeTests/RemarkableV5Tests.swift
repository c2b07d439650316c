import Foundation
import InkCore
import Testing
@testable import InkInterchange

@Suite("reMarkable .rm v3 and v5 decoding, and damaged pages")
struct RemarkableV5Tests {
    /// The four real v5 pages (handwriting on an EPUB, ballpoint, black, one layer), counted by reading the
    /// format's layout with a separate Python script: lines, points, and the ink's bounds in tablet pixels.
    static let v5Pages: [(name: String, strokes: Int, points: Int, x: ClosedRange<Float>, y: ClosedRange<Float>)] = [
        ("184d0d14-d0c8-4963-a42d-b94f247e4ff2.rm", 90, 3045, 184.7...1264.3, 902.7...1766.2),
        ("2b6c756a-2827-45bc-8624-dfbec38cb671.rm", 92, 2833, 231.0...1378.6, 1664.2...1835.6),
        ("7404fab4-8ad9-4b26-913e-cafc5721aafd.rm", 21, 749, 288.5...1016.5, 654.9...1756.9),
        ("dec7d296-f64b-41e9-a1a3-1a139d441411.rm", 45, 1403, 234.5...1221.9, 1675.9...1750.5),
    ]

    static func v5(_ name: String) throws -> Data {
        try Data(contentsOf: try #require(Corpus.root).appendingPathComponent("rm-v5/remarks/\(name)"))
    }

    @Test("the four real v5 pages import whole: every line a ballpoint stroke, on the screen, x not centred",
          .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func corpusPages() throws {
        #expect(Corpus.files("rm-v5").filter { $0.pathExtension == "rm" }.count == Self.v5Pages.count)
        for page in Self.v5Pages {
            let data = try Self.v5(page.name)
            #expect(RecordingFormat.detect(data) == .remarkable)
            let recording = try RemarkableDecoder.decode(data, file: page.name)
            #expect(recording.warnings.isEmpty, "\(page.name): \(recording.warnings)")
            #expect(recording.strokes.count == page.strokes, "\(page.name)")
            #expect(recording.pointCount == page.points, "\(page.name)")
            #expect(recording.pageSizes == [.remarkable], "\(page.name)")
            #expect(recording.pageTemplates.first?.layers == [PageLayer(name: "Layer 1")])
            #expect(recording.strokes.allSatisfy { $0.pen.tool == .pen && $0.pen.color == .black && $0.pen.layer == 0 }, "\(page.name)")
            // The widths the tablet recorded for a medium ballpoint (about 2 px), as for v6.
            #expect(recording.strokes.allSatisfy { $0.pen.width >= 0.5 && $0.pen.width < 6 }, "\(page.name)")
            let points = recording.strokes.flatMap(\.points)
            let xs = points.map(\.x), ys = points.map(\.y)
            // Where the script found the ink: not moved by 702 as a v6 page's x is.
            #expect(abs(xs.min()! - page.x.lowerBound) < 0.06 && abs(xs.max()! - page.x.upperBound) < 0.06, "\(page.name)")
            #expect(abs(ys.min()! - page.y.lowerBound) < 0.06 && abs(ys.max()! - page.y.upperBound) < 0.06, "\(page.name)")
            #expect(points.allSatisfy { (0...1).contains($0.pressure) })
            // Timed like every .rm page: increasing, deterministic.
            let times = recording.strokes.flatMap(\.times)
            #expect(times == times.sorted())
        }
    }

    @Test("a v3 page decodes as the v5 page it was written from (test v3 pages: the real v5 ones without the field v3 lacks)",
          .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func v3EqualsV5() throws {
        for page in Self.v5Pages {
            let v5 = try Self.v5(page.name)
            let v3 = try #require(RemarkableLinesFile.v3(fromV5: v5), "\(page.name)")
            #expect(v3.count == v5.count - 4 * page.strokes)
            #expect(v3.starts(with: Data("reMarkable .lines file, version=3".utf8)))
            let fromV3 = try RemarkableDecoder.decode(v3, file: page.name)
            #expect(fromV3 == (try RemarkableDecoder.decode(v5, file: page.name)), "\(page.name)")
            #expect(fromV3.strokes.count == page.strokes)
        }
        // And the writer's own files: the same page in both versions.
        var file = RemarkableLinesFile()
        file.layers = [[.init(tool: 4, points: [(10, 20, 3, 0.4), (30, 40, 3, 0.6)])], [.init(tool: 1, color: 1, points: [(5, 5, 2, 1)])]]
        let v5 = try RemarkableDecoder.decode(file.data, file: "f.rm")
        file.version = 3
        #expect(try RemarkableDecoder.decode(file.data, file: "f.rm") == v5)
        #expect(v5.strokes.count == 2)
    }

    @Test("a notebook may mix v5 and v6 pages: each decodes in its own version", .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func mixedNotebook() throws {
        let root = try #require(Corpus.root)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-v5-notebook-\(UUID().uuidString)")
        let pages = folder.appendingPathComponent("doc")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: root.appendingPathComponent("rm-v5/remarks/7404fab4-8ad9-4b26-913e-cafc5721aafd.rm"),
                                         to: pages.appendingPathComponent("old.rm"))
        try FileManager.default.copyItem(at: root.appendingPathComponent("rm/rmc/Lines_v2.rm"), to: pages.appendingPathComponent("new.rm"))
        let content = Data(#"{"fileType": "notebook", "pages": ["old", "new"]}"#.utf8)
        let r = try RemarkableNotebook.decode(content, file: folder.appendingPathComponent("doc.content").path)
        #expect(r.pagesOfStrokes.map(\.count) == [21, 10])
        #expect(r.warnings.isEmpty, "\(r.warnings)")
    }

    @Test("tools, colours and layers are mapped as for v6; erasers as v6 keeps them; area erasers skipped with a warning")
    func toolsColorsLayers() throws {
        var file = RemarkableLinesFile()
        func line(_ tool: UInt32, _ color: UInt32 = 0, x: Float) -> RemarkableLinesFile.Line {
            .init(tool: tool, color: color, points: [(x, 100, 8, 0.5), (x + 1, 101, 8, 0.5)])
        }
        file.layers = [
            [line(12, x: 1), line(14, 1, x: 2), line(15, 2, x: 3), line(16, x: 4), line(17, x: 5), line(18, 4, x: 6)],
            [line(6, x: 7), line(13, x: 8), line(8, x: 9), line(21, x: 10), line(5, 5, x: 11), line(0, x: 12)],
        ]
        let r = try RemarkableDecoder.decode(file.data, file: "tools.rm")
        let pens = r.strokes.map(\.pen)
        #expect(pens.map(\.tool) == [.pen, .pencil, .pen, .marker, .fineliner, .highlighter, .eraser, .pencil, .pen, .highlighter, .pen])
        #expect(r.strokes.map { $0.points[0].x } == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]) // the area eraser (9) left out
        #expect(pens.map(\.layer) == [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
        #expect(r.pageTemplates.first?.layers == [PageLayer(name: "Layer 1"), PageLayer(name: "Layer 2")])
        // The v6 palette: grey, white, the translucent highlighter inks.
        #expect(pens[1].color == RemarkableLine.palette(1, highlighter: false) && pens[1].color != .black)
        #expect(pens[2].color == .white)
        #expect(pens[5].color == RemarkableLine.palette(4, highlighter: true) && pens[5].color.alpha < 255)
        #expect(pens[9].color == RemarkableLine.palette(5, highlighter: true))
        #expect(pens.allSatisfy { $0.width == 8 })
        // The paintbrushes (12, 0) and the calligraphy pen (21) are drawn with the pen, and said so.
        #expect(r.warnings == ["tools.rm: 1 area eraser skipped (Inkwell keeps pen strokes and typed text)",
                               "tools.rm: 1 calligraphy pen stroke drawn with Inkwell's pen (it has no calligraphy pen: the width does not follow the direction)",
                               "tools.rm: 2 paintbrush strokes drawn with Inkwell's pen (it has no paintbrush: the width does not follow speed and tilt)"])
    }

    @Test("bad values: a NaN or huge point costs its line, NaN pressure and width are mended, huge counts are refused before allocating")
    func hostileValues() throws {
        var file = RemarkableLinesFile()
        file.layers = [[
            .init(points: [(1, 1, 2, 0.5)]),
            .init(points: [(2, 2, 2, 0.5), (.nan, 2, 2, 0.5)]),
            .init(points: [(3, 3, 2, 0.5), (4, 2e9, 2, 0.5)]),
            .init(points: [(5, 5, .nan, .nan), (6, 6, .infinity, 7)]),
        ]]
        let r = try RemarkableDecoder.decode(file.data, file: "bad.rm")
        #expect(r.strokes.map { $0.points[0].x } == [1, 5])
        #expect(r.strokes[1].points.map(\.pressure) == [0.5, 1])
        #expect(r.strokes[1].pen.width.isFinite && r.strokes[1].pen.width <= ImportLimits.maxWidth)
        // The first bad point's byte: header 43, counts 8, line 1 (24 + 24), line 2's header 24 and its first point 24.
        // (A named Int: the sum inside the literal took the type checker half a minute.)
        let firstBadByte: Int = 43 + 8 + 48 + 24 + 24
        #expect(r.warnings == ["bad.rm: 2 strokes skipped, the first at byte \(firstBadByte): point 2 of a stroke is at (nan, 2.0), not a finite coordinate within ±1000000"],
                "\(r.warnings)")

        // Only bad lines: refused with the first one's byte.
        var only = RemarkableLinesFile()
        only.layers = [[.init(points: [(.infinity, 1, 2, 0.5)])]]
        let refused = #expect(throws: ImportError.self) { try RemarkableDecoder.decode(only.data, file: "inf.rm") }
        let onlyBadByte: Int = 43 + 8 + 24
        #expect(refused?.description == "inf.rm: byte \(onlyBadByte): point 1 of a stroke is at (inf, 1.0), not a finite coordinate within ±1000000")

        // Counts no file of this length could hold: refused where the bytes run out, nothing allocated for them.
        let header = Array("reMarkable .lines file, version=5          ".utf8)
        for (bytes, message) in [
            (header + [0xFF, 0xFF, 0xFF, 0xFF], "byte 47: the file ends before layer 1 of 4294967295"),
            (header + [1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F], "byte 51: the file ends inside line 1 of 2147483647 of layer 1"),
            (header + [1, 0, 0, 0, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 20) + [0xFF, 0xFF, 0xFF, 0xFF],
             "byte 71: line 1 of layer 1 claims 4294967295 points but only 0 bytes remain"),
        ] {
            let error = #expect(throws: ImportError.self) { try RemarkableDecoder.decode(Data(bytes), file: "count.rm") }
            #expect(error?.description == "count.rm: " + message)
        }
        // More points in a line than any importer takes, really there: the file is refused.
        var long = RemarkableLinesFile()
        long.layers = [[.init(points: Array(repeating: (1, 1, 2, 0.5), count: ImportLimits.pointsPerStroke + 1))]]
        let limit = #expect(throws: ImportError.self) { try RemarkableDecoder.decode(long.data, file: "long.rm") }
        #expect(limit?.exceedsLimits == true && limit?.description.contains("more than 100000 points") == true)
        // Ink wider and taller than the coordinate limit: the page grows, but no point leaves the limit.
        var wide = RemarkableLinesFile()
        wide.layers = [[.init(points: [(-600_000, -700_000, 2, 0.5), (600_000, 900_000, 2, 0.5)])]]
        let spread = try RemarkableDecoder.decode(wide.data, file: "wide.rm")
        #expect(spread.strokes.flatMap(\.points).allSatisfy { abs($0.x) <= ImportLimits.coordinate && abs($0.y) <= ImportLimits.coordinate })
        #expect(spread.strokes.flatMap(\.points).map(\.x).max() == ImportLimits.coordinate)
        // Bytes after the last layer are named, not read.
        var tail = [UInt8](file.data)
        tail += [1, 2, 3]
        let extra = try RemarkableDecoder.decode(Data(tail), file: "tail.rm")
        #expect(extra.strokes == r.strokes)
        #expect(extra.warnings.last == "tail.rm: 3 bytes after the last layer, at byte \(file.data.count), ignored")
    }

    @Test("bad headers: other versions and a cut header are refused with the byte and the reason", arguments: [
        ("reMarkable .lines file, version=4          ", "byte 32: reMarkable .lines version 4 is not supported (versions 3, 5 and 6 are)"),
        ("reMarkable .lines file, version=5", "byte 33: the file ends inside its 43-byte header"),
        ("reMarkable .lines file, version=5          ", "byte 43: the file ends before its layer count"),
        ("reMarkable .lines file, version=3          \u{1}\0\0", "byte 43: the file ends before its layer count"),
    ])
    func badHeaders(header: String, message: String) throws {
        let error = #expect(throws: ImportError.self) { try RemarkableDecoder.decode(Data(header.utf8), file: "h.rm") }
        #expect(error?.description == "h.rm: " + message)
    }

    /// The ends of a v6 page's blocks (each: a u32 length, 4 bytes of header, then the content), and which
    /// of them end a stroke block (type 5).
    static func blockEnds(_ bytes: [UInt8]) -> [(end: Int, isLine: Bool)] {
        var ends: [(Int, Bool)] = []
        var offset = RemarkableDecoder.headerLength
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
            guard offset + 8 + length <= bytes.count else { break }
            ends.append((offset + 8 + length, bytes[offset + 7] == 5))
            offset += 8 + length
        }
        return ends
    }

    @Test("damage costs a page's end, not the page: a v6 page cut anywhere keeps every whole block before the cut, with a warning",
          .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func truncatedV6() throws {
        var checked = 0
        for url in Corpus.files("rm").filter({ $0.pathExtension == "rm" }) {
            let name = Corpus.relative(url)
            let bytes = [UInt8](try Data(contentsOf: url))
            let whole = try RemarkableDecoder.decode(Data(bytes), file: name)
            guard !whole.strokes.isEmpty else { continue }
            let ends = Self.blockEnds(bytes)
            #expect(ends.last?.end == bytes.count, "\(name)")
            for i in 1...50 {
                let cut = RemarkableDecoder.headerLength + (bytes.count - RemarkableDecoder.headerLength) * i / 51
                let before = ends.filter { $0.end <= cut }
                // The same page as the file of the whole blocks before the cut: what the decoder must keep.
                let boundary = before.last?.end ?? RemarkableDecoder.headerLength
                let kept = try? RemarkableDecoder.decode(Data(bytes.prefix(boundary)), file: name)
                do {
                    let damaged = try RemarkableDecoder.decode(Data(bytes.prefix(cut)), file: name)
                    #expect(damaged.strokes.count <= whole.strokes.count, "\(name) cut at \(cut)")
                    #expect(damaged.strokes == kept?.strokes, "\(name) cut at \(cut)")
                    if cut > boundary {
                        #expect(damaged.warnings.contains { $0.hasPrefix("\(name): damaged at byte \(boundary) (") && $0.contains("the rest of the file is lost") },
                                "\(name) cut at \(cut): \(damaged.warnings)")
                    }
                    checked += 1
                } catch {
                    // Refused only when no stroke block was whole, and then with the byte.
                    #expect(!before.contains { $0.isLine } || (kept?.strokes.isEmpty ?? true), "\(name) cut at \(cut): \(error)")
                    #expect(error.file == name && error.position?.hasPrefix("byte ") == true)
                }
            }
            // One byte more than the page: the same strokes, and a warning naming the byte.
            let longer = try RemarkableDecoder.decode(Data(bytes + [0]), file: name)
            #expect(longer.strokes == whole.strokes && longer.pageSizes == whole.pageSizes, "\(name)")
            #expect(longer.warnings.contains { $0.hasPrefix("\(name): damaged at byte \(bytes.count) (truncated block header (1 byte of 8))") }, "\(longer.warnings)")
        }
        #expect(checked > 500)
        // The tablet's own 99 %: writing_tools.rm without its last 1 % keeps all but its last strokes.
        let tools = [UInt8](try Data(contentsOf: try #require(Corpus.root).appendingPathComponent("rm/rmc/writing_tools.rm")))
        let cut = try RemarkableDecoder.decode(Data(tools.prefix(tools.count * 99 / 100)), file: "tools.rm")
        #expect(cut.strokes.count >= 110 && cut.strokes.count < 116, "\(cut.strokes.count)")
    }

    @Test("a v5 page cut anywhere keeps every whole line before the cut; one byte more changes nothing but a warning",
          .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func truncatedV5() throws {
        for page in Self.v5Pages {
            let bytes = [UInt8](try Self.v5(page.name))
            let whole = try RemarkableDecoder.decode(Data(bytes), file: page.name)
            // Where each line ends (one layer): 43 + 8, then per line 24 bytes and 24 a point.
            var lineEnds: [Int] = []
            var offset = 43 + 8
            while offset + 24 <= bytes.count {
                let points = Int(bytes[offset + 20]) | Int(bytes[offset + 21]) << 8 | Int(bytes[offset + 22]) << 16 | Int(bytes[offset + 23]) << 24
                offset += 24 + 24 * points
                lineEnds.append(offset)
            }
            #expect(lineEnds.count == page.strokes && lineEnds.last == bytes.count)
            for i in 1...50 {
                let cut = 43 + (bytes.count - 43) * i / 51
                let whole = lineEnds.filter { $0 <= cut }.count
                do {
                    let damaged = try RemarkableDecoder.decode(Data(bytes.prefix(cut)), file: page.name)
                    #expect(damaged.strokes.count == whole, "\(page.name) cut at \(cut)")
                    #expect(damaged.warnings.contains { $0.contains("damaged at byte") && $0.contains("the \(whole) stroke") }, "\(damaged.warnings)")
                } catch {
                    #expect(whole == 0, "\(page.name) cut at \(cut): \(error)")
                    #expect(error.position?.hasPrefix("byte ") == true)
                }
            }
            let longer = try RemarkableDecoder.decode(Data(bytes + [0]), file: page.name)
            #expect(longer.strokes == whole.strokes)
            #expect(longer.warnings == ["\(page.name): 1 byte after the last layer, at byte \(bytes.count), ignored"])
        }
    }
}
