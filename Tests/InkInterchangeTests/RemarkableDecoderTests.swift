import Foundation
import InkCore
import InkFont
import Testing
@testable import InkInterchange

@Suite("reMarkable .rm v6 decoding")
struct RemarkableDecoderTests {
    /// rmscene's reading of every corpus .rm file (scripts/rmscene-counts.py, run on the corpus): strokes,
    /// points, each stroke's first point relative to its group, and its group's anchor.
    struct Reference {
        var strokes: Int
        var points: Int
        var first: [[Double]]
        /// Per stroke: the anchor character (author, counter) and anchor_origin_x, or nil.
        var anchors: [(character: CrdtID, originX: Double)?]
    }

    static let reference: [String: Reference] = {
        guard let text = try? String(contentsOf: Fixtures.url("rmscene-counts.jsonl"), encoding: .utf8) else { return [:] }
        var table: [String: Reference] = [:]
        for line in text.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let file = object["file"] as? String, let strokes = object["strokes"] as? Int,
                  let points = object["points"] as? Int, let first = object["first"] as? [[Double]],
                  let anchors = object["anchors"] as? [Any] else { continue }
            table[file] = Reference(strokes: strokes, points: points, first: first, anchors: anchors.map { anchor in
                guard let values = anchor as? [Double], values.count == 3 else { return nil }
                return (CrdtID(author: UInt8(values[0]), counter: UInt64(values[1])), values[2])
            })
        }
        return table
    }()

    /// Where each corpus stroke's group sits relative to its anchor's line, minus where the page's corner
    /// moved: the first point's offset from rmscene's, with the group's anchor_origin_x taken out.
    static func anchorOffsets(_ name: String) throws -> (recording: Recording, offsets: [(x: Double, y: Double)], reference: Reference) {
        let root = try #require(Corpus.root)
        let reference = try #require(Self.reference[name], "no rmscene reference for \(name)")
        let recording = try RemarkableDecoder.decode(try Data(contentsOf: root.appendingPathComponent(name)), file: name)
        // rmscene's lines only: the highlighter drawn over text highlights (glyph ranges) is Inkwell's.
        let lines = recording.strokes.filter { !RemarkableBackupTests.isTextHighlight($0) }
        let offsets = zip(lines, zip(reference.first, reference.anchors)).map { stroke, expected in
            (x: Double(stroke.points[0].x) - expected.0[0] - (expected.1?.originX ?? 0), y: Double(stroke.points[0].y) - expected.0[1])
        }
        return (recording, offsets, reference)
    }

    @Test("every corpus .rm file gives rmscene's strokes and points, in rmscene's drawing order, each group moved as one",
          .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func corpusMatchesRmscene() throws {
        let files = Corpus.files("rm").filter { $0.pathExtension == "rm" }
        #expect(files.count >= 28)
        for file in files {
            let name = Corpus.relative(file)
            let (recording, offsets, expected) = try Self.anchorOffsets(name)
            let lines = recording.strokes.filter { !RemarkableBackupTests.isTextHighlight($0) }
            #expect(lines.count == expected.strokes, "\(name)")
            #expect(lines.reduce(0) { $0 + $1.points.count } == expected.points, "\(name)")
            #expect(offsets.count == expected.first.count)
            // Strokes outside anchored groups keep rmscene's coordinates up to the page's corner; all the
            // strokes of one anchored group move by the same amount, and x by the page's corner too.
            let corner = zip(offsets, expected.anchors).first { $0.1 == nil }?.0
            var byAnchor: [CrdtID: (x: Double, y: Double)] = [:]
            for (offset, anchor) in zip(offsets, expected.anchors) {
                if let anchor {
                    let first = byAnchor[anchor.character, default: offset]
                    byAnchor[anchor.character] = first
                    #expect(abs(offset.x - first.x) < 0.01 && abs(offset.y - first.y) < 0.01, "\(name): \(offset) vs \(first)")
                } else if let corner {
                    #expect(abs(offset.x - corner.x) < 0.01 && abs(offset.y - corner.y) < 0.01, "\(name): \(offset) vs \(corner)")
                }
            }
            if corner == nil, expected.anchors.allSatisfy({ $0 == nil }) {
                #expect(offsets.isEmpty, "\(name)")
            }
            // Nothing is cut: every point lies on the page (the pen at the screen's border up to 2 px beyond it).
            let size = try #require(recording.pageSizes.first)
            let points = recording.strokes.flatMap(\.points)
            #expect(points.allSatisfy { $0.x >= -2 && $0.y >= -2 && $0.x <= size.width + 2 && $0.y <= size.height + 2 }, "\(name)")
        }
    }

    @Test("handwriting beside typed text lands on the line of the character it follows; the top and end anchors on the first and last lines",
          .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func anchoredStrokes() throws {
        // Text at pos_y 234: lines start 88 above it; plain lines are 70 high, headings 150. The first
        // line's baseline is 234 − 88 + 70 = 216.
        /// The y each anchor put its strokes at, on the tablet's page (the page's corner, moved `corner`
        /// px up, taken out).
        func anchorY(_ name: String, corner: Double = 0) throws -> [CrdtID: Double] {
            let (_, offsets, reference) = try Self.anchorOffsets(name)
            var found: [CrdtID: Double] = [:]
            for (offset, anchor) in zip(offsets, reference.anchors) {
                if let anchor { found[anchor.character] = offset.y - corner }
                #expect(abs(offset.x) < 0.01, "\(name): x moves by anchor_origin_x alone")
            }
            return found
        }
        func same(_ found: [CrdtID: Double], _ expected: [CrdtID: Double]) -> Bool {
            found.keys == expected.keys && expected.allSatisfy { abs(found[$0.key]! - $0.value) < 0.01 }
        }
        // "A" (line 1), "v3.2.2" (line 2), "Normal bold italic" (line 3): a tick after v3.2.2 and
        // "v3.3.2" handwritten after the third line.
        let lines = try anchorY("rm/rmscene/Normal_A_stroke_2_layers_v3.3.2.rm")
        #expect(same(lines, [CrdtID(author: 1, counter: 14): 216, CrdtID(author: 1, counter: 38): 286, CrdtID(author: 1, counter: 63): 356]))
        // Handwriting anchored to the top of the text sits above its first line, on the page.
        #expect(same(try anchorY("rm/rmscene/With_SceneInfo_Block.rm"), [RemarkableText.topAnchor: 216]))
        // Fourteen empty lines, then a heading: the drawing is anchored to the newline ending line 6, the
        // samples written last to the end of the text (the heading's baseline, 146 + 14 × 70 + 150).
        let tools = try anchorY("rm/rmc/writing_tools_with_text.rm", corner: 67)
        #expect(same(tools, [CrdtID(author: 1, counter: 122): 566, RemarkableText.topAnchor: 216, RemarkableText.bottomAnchor: 1276]))
        // That drawing reaches 46 px above the page: the page's corner moves up to hold it, 20 px beyond.
        let root = try #require(Corpus.root)
        let recording = try RemarkableDecoder.decode(Data(contentsOf: root.appendingPathComponent("rm/rmc/writing_tools_with_text.rm")), file: "w.rm")
        #expect(recording.pageSizes == [PageSize(width: 1404, height: 1872 + 67)])
        // Its paintbrush and calligraphy samples are drawn with Inkwell's pen, and said so.
        #expect(recording.warnings == [
            "w.rm: 13 calligraphy pen strokes drawn with Inkwell's pen (it has no calligraphy pen: the width does not follow the direction)",
            "w.rm: 14 paintbrush strokes drawn with Inkwell's pen (it has no paintbrush: the width does not follow speed and tilt)",
        ])
    }

    @Test("typed text becomes the note's Markdown: headings, bold, bullets, checkboxes, inline bold and italic",
          .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func typedText() throws {
        let root = try #require(Corpus.root)
        func text(_ name: String) throws -> String {
            let recording = try RemarkableDecoder.decode(Data(contentsOf: root.appendingPathComponent(name)), file: name)
            #expect(!recording.warnings.contains { $0.contains("text") }, "\(recording.warnings)")
            return recording.notes[0].typedText
        }
        #expect(try text("rm/rmc/Bold_Heading_Bullet_Normal.rm") == "**A**\n\n# new line\n\n- B is a letter of the alphabet\n\nC")
        #expect(try text("rm/rmc/keyboard-checkboxes-and-bullets.rm") == """
            # This is a text test file

            - [ ] checkbox
            - bullet

            small

            **medium**

            # large

            - [x] crossed check
            """)
        #expect(try text("rm/rmscene/Normal_A_stroke_2_layers_v3.3.2.rm") == """
            A

            v3.2.2

            Normal **bold** *italic*

            **Bold** *italic* normal

            **Bold line**

            Normal line

            # Heading line
            """)
        // The text is also printed on the page, each paragraph on its baseline from the column's left edge
        // (pos_x −576 + 702 = 126), headings twice the size and bold, list items marked.
        let keyboard = try RemarkableDecoder.decode(Data(contentsOf: root.appendingPathComponent("rm/rmc/keyboard-checkboxes-and-bullets.rm")), file: "k.rm")
        let printed = try #require(keyboard.pageTemplates.first?.printed)
        #expect(printed.map(\.text) == ["This is a text test file", "[ ] checkbox", "- bullet", "small", "medium", "large", "[x] crossed check"])
        #expect(printed.allSatisfy { $0.x == 126 })
        #expect(printed[0].baseline == 234 - 88 + 150 && printed[0].size == 2 * RemarkableText.textSize && printed[0].bold)
        #expect(printed[1].baseline == printed[0].baseline + 35 && !printed[1].bold)
        #expect(printed[4].bold && printed[4].size == RemarkableText.textSize) // "medium" is a bold paragraph
        // Indented with spaces on the tablet: kept as a paragraph, not turned into a Markdown code block.
        #expect(try text("rm/rmc/text_multiple_lines.rm").contains("\n\ntext 4\n\n"))
        #expect(try text("rm/rmc/fullpage.rm") == "")
    }

    /// The right edge of the ink `line` is drawn with: each glyph's strokes where the renderer puts them.
    static func inkRight(_ line: PrintedLine) -> Double {
        let font = HersheyFont.romanSimplex
        let scale = Double(line.size) / HersheyFont.unitsPerEm
        var pen = Double(line.x), right = pen
        for character in line.text {
            guard character != " " else { pen += HersheyFont.wordSpace * scale; continue }
            for glyph in font.glyphs(for: character) ?? [] {
                for point in glyph.strokes.joined() { right = max(right, pen + (point.x - Double(glyph.left)) * scale) }
                pen += Double(glyph.advance) * scale
            }
        }
        return right
    }

    static let pangrams = Array(repeating: "The quick brown fox jumps over the lazy dog.", count: 6).joined(separator: " ")

    @Test("typed text wraps at its column's width as the tablet wraps it: at spaces, inside a word only when it alone is too wide, list items aligned; a short line is unchanged")
    func typedTextWrapsAtTheColumn() throws {
        let word = String(repeating: "x", count: 120)
        var file = RemarkableFile()
        file.layer(10, item: 11)
        file.rootText([(Self.pangrams, 1), ("A heading long enough to run past the column's right edge", 2), (word, 1),
                       ("short line", 1), ("a bullet long enough to need a second line in the column, and maybe a third", 4)])
        let recording = try RemarkableDecoder.decode(file.data, file: "wrap.rm")
        #expect(recording.warnings.isEmpty, "\(recording.warnings)")
        let printed = try #require(recording.pageTemplates.first?.printed)
        // The column: pos_x −468 + 702 = 234, 936 px wide.
        let left: Float = 234, right = 234.0 + 936
        for line in printed {
            #expect(line.x >= left && Self.inkRight(line) <= right, "\(line.text) reaches \(Self.inkRight(line))")
        }
        // Every line on a baseline of its own, each the paragraph's height below the one before.
        #expect(zip(printed, printed.dropFirst()).allSatisfy { $0.baseline < $1.baseline })
        let paragraph = printed.prefix { $0.size == RemarkableText.textSize }
        let heading = printed.filter { $0.size == 2 * RemarkableText.textSize }
        #expect(paragraph.count > 1)
        #expect(paragraph.map(\.text).joined(separator: " ") == Self.pangrams)
        // The first line a paragraph's height below the top, the lines it wraps onto a list item's line apart.
        #expect(paragraph.map(\.baseline) == paragraph.indices.map { 216 + 35 * Float($0) })
        #expect(heading.count >= 2 && heading.allSatisfy(\.bold) && heading[1].baseline - heading[0].baseline == 70)
        #expect(heading.map(\.text).joined(separator: " ") == "A heading long enough to run past the column's right edge")
        let pieces = printed.filter { $0.text.allSatisfy { $0 == "x" } }
        #expect(pieces.count > 1 && pieces.map(\.text).joined() == word)
        // A line shorter than the column is printed as before.
        let short = try #require(printed.first { $0.text == "short line" })
        #expect(short.x == left && short.size == RemarkableText.textSize && !short.bold)
        // A list item's further lines start under its text, not under its dash.
        let bullet = printed.drop { !$0.text.hasPrefix("- a bullet") }
        #expect(bullet.count >= 2)
        #expect(bullet.dropFirst().allSatisfy { $0.x == left + Float(HersheyFont.romanSimplex.width(of: "- ", size: Double(RemarkableText.textSize))) })
        // The note's Markdown keeps each paragraph whole.
        #expect(recording.notes[0].typedText.contains(Self.pangrams))
    }

    @Test("handwriting anchored to typed text follows the lines the column wrapped: on the line its character is on, and below a wrapped paragraph")
    func anchoredStrokesFollowWrappedLines() throws {
        var file = RemarkableFile()
        file.layer(10, item: 11)
        file.rootText([(Self.pangrams, 1), ("after", 1)])
        // Characters count from 16: the paragraph's first and last, then the first of "after" (past the newline).
        let first: UInt64 = 16, last = 16 + UInt64(Self.pangrams.count) - 1, after = last + 2
        for (index, anchor) in [first, last, after].enumerated() {
            let node = UInt64(20 + index)
            file.anchoredGroup(node, layer: 10, item: UInt64(30 + index), anchor: (1, anchor), originX: -400)
            file.line(layer: node, item: (1, UInt64(40 + index)), points: [(0, 0), (50, 0)])
        }
        let recording = try RemarkableDecoder.decode(file.data, file: "anchors.rm")
        #expect(recording.warnings.isEmpty, "\(recording.warnings)")
        let printed = try #require(recording.pageTemplates.first?.printed)
        let wrapped = printed.count - 1
        #expect(wrapped > 1)
        let lastLine = 216 + 35 * Float(wrapped - 1)
        #expect(recording.strokes.map { $0.points[0].y }.sorted() == [216, lastLine, lastLine + 70])
        #expect(printed.last?.text == "after" && printed.last?.baseline == lastLine + 70)
    }

    @Test("a text block without a column width is not wrapped; a width that is not a width costs the text, with a warning, not the ink")
    func columnWidthMissingOrBad() throws {
        var file = RemarkableFile()
        file.layer(10, item: 11)
        file.rootText([(Self.pangrams, 1)], width: nil)
        let unwrapped = try RemarkableDecoder.decode(file.data, file: "nowidth.rm")
        #expect(unwrapped.pageTemplates.first?.printed.map(\.text) == [Self.pangrams])
        var bad = RemarkableFile()
        bad.layer(10, item: 11)
        bad.line(layer: 10, item: (1, 20), points: [(0, 300), (10, 300)])
        bad.rootText([(Self.pangrams, 1)], width: -.infinity)
        let recording = try RemarkableDecoder.decode(bad.data, file: "badwidth.rm")
        #expect(recording.strokes.count == 1)
        #expect(recording.notes[0].typedText == "")
        #expect(recording.warnings.contains { $0.contains("badwidth.rm") && $0.contains("the text column is -inf px wide") }, "\(recording.warnings)")
    }

    @Test("an unreadable text block costs the text, with a warning naming it, not the page's ink",
          .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func unreadableText() throws {
        let root = try #require(Corpus.root)
        var bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent("rm/rmscene/Normal_A_stroke_2_layers_v3.3.2.rm")))
        // Find the root text block (type 7) and make its first sub-block claim more bytes than it has.
        var offset = RemarkableDecoder.headerLength
        var corrupted = false
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
            if bytes[offset + 7] == 7 {
                // Block content: tag 1 (id: 1 tag byte + 1 author + 1 counter), then tag 2 sub-block length.
                bytes.replaceSubrange(offset + 8 + 4..<offset + 8 + 8, with: [0xF0, 0xFF, 0xFF, 0x0F])
                corrupted = true
                break
            }
            offset += 8 + length
        }
        #expect(corrupted)
        let recording = try RemarkableDecoder.decode(Data(bytes), file: "broken-text.rm")
        #expect(recording.strokes.count == 9)
        #expect(recording.notes[0].typedText == "")
        #expect(recording.warnings.contains { $0.contains("broken-text.rm: the typed text could not be read") && $0.contains("byte ") })
        // Its anchored strokes have no text to follow: they are placed as if at its top, and said so.
        #expect(recording.warnings.contains { $0.contains("anchored to typed text the page does not hold") })
    }

    @Test("strokes drawn with another tool or colour than the tablet's are reported, one warning a kind with its count; the tablet's own tools and palette are not")
    func mappedToolsAndColors() throws {
        var file = RemarkableFile()
        file.layer(10, item: 11)
        let line: [(Float, Float)] = [(0, 300), (50, 300)]
        file.line(layer: 10, item: (1, 20), tool: 12, points: line)                      // paintbrush
        file.line(layer: 10, item: (1, 21), tool: 0, points: line)                       // paintbrush (first generation)
        file.line(layer: 10, item: (1, 22), tool: 12, color: 42, points: line, rgba: 0xFF11_2233) // its colour stored: kept
        file.line(layer: 10, item: (1, 23), tool: 21, points: line)                      // calligraphy pen
        file.line(layer: 10, item: (1, 24), tool: 23, points: line)                      // shader
        file.line(layer: 10, item: (1, 25), tool: 99, points: line)                      // a tool of a later firmware
        file.line(layer: 10, item: (1, 26), tool: 15, color: 42, points: line)           // ballpoint in an unknown colour
        file.line(layer: 10, item: (1, 27), tool: 18, color: 42, points: line)           // highlighter in an unknown colour
        let mapped = try RemarkableDecoder.decode(file.data, file: "m.rm")
        #expect(mapped.strokes.count == 8)
        #expect(mapped.warnings == [
            "m.rm: 1 calligraphy pen stroke drawn with Inkwell's pen (it has no calligraphy pen: the width does not follow the direction)",
            "m.rm: 1 shader stroke drawn with Inkwell's pencil (it has no shader)",
            "m.rm: 1 stroke in colour 42, which Inkwell does not know, drawn black",
            "m.rm: 1 stroke in colour 42, which Inkwell does not know, drawn in the highlighter's yellow",
            "m.rm: 1 stroke of tool 99, which Inkwell does not know, drawn with its pen",
            "m.rm: 3 paintbrush strokes drawn with Inkwell's pen (it has no paintbrush: the width does not follow speed and tilt)",
        ])
        // The tablet's own tools, in its palette's colours: nothing to report.
        var kept = RemarkableFile()
        kept.layer(10, item: 11)
        for (index, tool) in ([1, 2, 3, 4, 5, 6, 7, 13, 14, 15, 16, 17, 18] as [UInt32]).enumerated() {
            kept.line(layer: 10, item: (1, UInt64(20 + index)), tool: tool, color: UInt32(index % 9), points: line)
        }
        let faithful = try RemarkableDecoder.decode(kept.data, file: "k.rm")
        #expect(faithful.strokes.count == 13)
        #expect(faithful.warnings.isEmpty, "\(faithful.warnings)")
    }

    @Test("ARGB colours of firmware 3.14 and the tools of writing_tools.rm", .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func colorsAndTools() throws {
        let root = try #require(Corpus.root)
        let colors = try RemarkableDecoder.decode(Data(contentsOf: root.appendingPathComponent("rm/rmscene/Color_and_tool_v3.14.4.rm")), file: "c.rm")
        let pens = colors.strokes.filter { !RemarkableBackupTests.isTextHighlight($0) }.map(\.pen)
        // Ballpoint in colour ids 10 and 11, and the shader with the ARGB colour of firmware 3.14 (alpha 64).
        #expect(Set(pens.map(\.color)) == [RGBA(red: 161, green: 216, blue: 125), RGBA(red: 139, green: 208, blue: 229),
                                            RGBA(red: 33, green: 30, blue: 28, alpha: 64)])
        #expect(pens.contains { $0.tool == .pencil && $0.color.alpha == 64 })
        let tools = try RemarkableDecoder.decode(Data(contentsOf: root.appendingPathComponent("rm/rmc/writing_tools.rm")), file: "t.rm")
        #expect(Set(tools.strokes.map(\.pen.tool)) == [.pen, .pencil, .marker, .fineliner, .highlighter])
        // Points are on the page: x was centred on 0.
        let xs = tools.strokes.flatMap(\.points).map(\.x)
        #expect(xs.min()! >= 0 && xs.max()! <= 1404)
    }

    @Test("strokes follow the CRDT links, not file order; deleted items are left out")
    func crdtOrder() throws {
        var file = RemarkableFile()
        file.layer(10, item: 11)
        // Sequence: A (1,20) … C (1,22) … B (1,21): C says it is left of B and right of A.
        file.line(layer: 10, item: (1, 21), left: (1, 22), points: [(2, 2)])           // B, after C
        file.line(layer: 10, item: (1, 20), right: (1, 22), points: [(0, 0)])          // A, first
        file.line(layer: 10, item: (1, 22), left: (1, 20), right: (1, 21), points: [(1, 1)]) // C, between
        file.line(layer: 10, item: (1, 23), left: (1, 21), deleted: true, points: [])   // deleted D
        let r = try RemarkableDecoder.decode(file.data, file: "crdt.rm")
        #expect(r.strokes.map { $0.points[0].x - RemarkableDecoder.xOffset } == [0, 1, 2])
    }

    @Test("layers keep their order; point version 1 is read; unknown blocks are skipped")
    func layersAndVersions() throws {
        var file = RemarkableFile()
        file.block(type: 0x42) { $0.data += [1, 2, 3, 4, 5] } // from a future firmware
        file.layer(10, item: 11)
        file.layer(20, item: 12, left: (0, 11))
        file.line(layer: 20, item: (1, 30), version: 1, points: [(5, 5), (6, 6)])
        file.line(layer: 10, item: (1, 31), points: [(7, 7)])
        let r = try RemarkableDecoder.decode(file.data, file: "layers.rm")
        let strokes = r.strokes
        #expect(strokes.map { $0.points[0].y } == [7, 5])
        #expect(strokes[1].points[0].pressure == 0.5) // version 1: pressure as a float
        #expect(strokes[1].pen.width == 2)
        #expect(strokes[0].points[0].pressure == Float(128) / 255)
        #expect(strokes[0].pen.width == 2) // version 2: width / 4
    }

    @Test("no per-point time in the format: timing is synthetic, deterministic and increasing")
    func syntheticTime() throws {
        var file = RemarkableFile()
        file.layer(10, item: 11)
        file.line(layer: 10, item: (1, 20), points: [(0, 0), (250, 0), (250, 250)])
        file.line(layer: 10, item: (1, 21), left: (1, 20), points: [(260, 250), (270, 250)])
        let r = try RemarkableDecoder.decode(file.data, file: "t.rm")
        let times = r.strokes.flatMap(\.times)
        #expect(times == times.sorted())
        #expect(abs(r.strokes[0].times[1] - 1) < 1e-9) // 250 px at 250 px/s
        #expect(try RemarkableDecoder.decode(file.data, file: "t.rm") == r)
    }

    @Test("a reMarkable notebook folder becomes one note with its pages in order", .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func notebook() throws {
        let root = try #require(Corpus.root)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-notebook-\(UUID().uuidString)")
        let pages = folder.appendingPathComponent("doc")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: root.appendingPathComponent("rm/rmc/Lines_v2.rm"), to: pages.appendingPathComponent("p-b.rm"))
        try FileManager.default.copyItem(at: root.appendingPathComponent("rm/rmc/dot.stroke.rm"), to: pages.appendingPathComponent("p-a.rm"))
        let content = #"""
            {"fileType": "notebook", "formatVersion": 2, "cPages": {"pages": [
              {"id": "p-b", "idx": {"timestamp": "1:2", "value": "bb"}},
              {"id": "p-gone", "idx": {"timestamp": "1:2", "value": "ba"}, "deleted": {"timestamp": "1:3", "value": 1}},
              {"id": "p-blank", "idx": {"timestamp": "1:2", "value": "bc"}},
              {"id": "p-a", "idx": {"timestamp": "1:2", "value": "ba"}}]}}
            """#
        let contentURL = folder.appendingPathComponent("doc.content")
        try Data(content.utf8).write(to: contentURL)
        try Data(##"{"visibleName": "Meeting notes", "createdTime": "1700000000000"}"##.utf8).write(to: folder.appendingPathComponent("doc.metadata"))
        #expect(RemarkableNotebook.looksLikeContent(Data(content.utf8)))
        let r = try RemarkableNotebook.decode(Data(content.utf8), file: contentURL.path)
        #expect(r.notes.count == 1)
        #expect(r.notes[0].title == "Meeting notes")
        #expect(r.pagesOfStrokes.map(\.count) == [1, 10, 0]) // dot, Lines_v2, blank
        let found = [contentURL, pages.appendingPathComponent("p-a.rm"), pages.appendingPathComponent("p-b.rm"),
                     folder.appendingPathComponent("other.rm")]
        #expect(RemarkableNotebook.withoutNotebookPages(found) == [contentURL, folder.appendingPathComponent("other.rm")])

        // An annotated PDF: only the pages with handwriting, and a warning.
        let pdf = #"{"fileType": "pdf", "pages": ["p-none", "p-b", "p-gone"]}"#
        let annotated = try RemarkableNotebook.decode(Data(pdf.utf8), file: contentURL.path)
        #expect(annotated.pagesOfStrokes.map(\.count) == [10])
        #expect(annotated.warnings.contains { $0.contains("annotates a PDF") })
        let bare = #"{"fileType": "pdf", "pages": ["p-none"]}"#
        #expect(throws: ImportError.self) { try RemarkableNotebook.decode(Data(bare.utf8), file: contentURL.path) }
    }

    @Test("notebook page ids that would leave the folder are refused")
    func notebookTraversal() throws {
        let content = ##"{"fileType": "notebook", "pages": ["../../etc/passwd"]}"##
        let error = #expect(throws: ImportError.self) { try RemarkableNotebook.decode(Data(content.utf8), file: "/tmp/x.content") }
        #expect(error?.description.contains("not a plain file name") == true)
    }

    @Test("bad .rm files are refused with the byte position and the reason", arguments: [
        ("short", Data("reMarkable".utf8), "not a reMarkable .rm file"),
        ("v7", Data("reMarkable .lines file, version=7          ".utf8), "version 7 is not supported (versions 3, 5 and 6 are)"),
    ])
    func badHeaders(name: String, data: Data, message: String) throws {
        let error = #expect(throws: ImportError.self) { try RemarkableDecoder.decode(data, file: name) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test("a stroke block with a bad value is skipped alone, with a warning naming its byte; the others are imported")
    func corruptBlockSkipped() throws {
        var file = RemarkableFile()
        file.layer(10, item: 11)
        file.line(layer: 10, item: (1, 20), points: [(1, 1), (2, 2)])
        file.line(layer: 10, item: (1, 21), left: (1, 20), points: [(.nan, 1)])
        file.line(layer: 10, item: (1, 22), left: (1, 21), points: [(3, 3)])
        let r = try RemarkableDecoder.decode(file.data, file: "one-bad.rm")
        #expect(r.strokes.map { $0.points[0].y } == [1, 3])
        #expect(r.warnings.contains { $0.hasPrefix("one-bad.rm: 1 stroke skipped at byte ") && $0.contains("not a finite coordinate") }, "\(r.warnings)")
    }

    @Test("truncated and overlong blocks, NaN points and huge counts are refused, never trapped")
    func hostileBlocks() throws {
        var good = RemarkableFile()
        good.layer(10, item: 11)
        good.line(layer: 10, item: (1, 20), points: [(1, 1), (2, 2), (3, 3)])
        let bytes = [UInt8](good.data)
        // Every truncation either decodes (at a block boundary) or fails cleanly.
        for length in 0..<bytes.count {
            _ = try? RemarkableDecoder.decode(Data(bytes.prefix(length)), file: "cut.rm")
        }
        let cut = #expect(throws: ImportError.self) { try RemarkableDecoder.decode(Data(bytes.dropLast(3)), file: "cut.rm") }
        #expect(cut?.position?.hasPrefix("byte ") == true)

        var nan = RemarkableFile()
        nan.layer(10, item: 11)
        nan.line(layer: 10, item: (1, 20), points: [(.nan, 1)])
        let error = #expect(throws: ImportError.self) { try RemarkableDecoder.decode(nan.data, file: "nan.rm") }
        #expect(error?.description.contains("not a finite coordinate") == true)

        var huge = RemarkableFile()
        huge.block(type: 0x05) { b in
            b.id(1, 0, 10); b.id(2, 1, 1); b.id(3, 0, 0); b.id(4, 0, 0); b.tag(5, 0x4); b.u32(0)
            b.tag(6, 0xC); b.u32(0xFFFF_FFF0)
        }
        let overlong = #expect(throws: ImportError.self) { try RemarkableDecoder.decode(huge.data, file: "huge.rm") }
        #expect(overlong?.description.contains("runs past its block") == true)

        var claim = RemarkableFile()
        claim.bytes.u32(0x7FFF_FFFF); claim.bytes.data += [0, 1, 1, 5]
        let claimed = #expect(throws: ImportError.self) { try RemarkableDecoder.decode(claim.data, file: "claim.rm") }
        #expect(claimed?.description.contains("claims 2147483647 bytes") == true)
    }
}
