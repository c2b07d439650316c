import Foundation
import InkCore
import Testing
@testable import InkInterchange

@Suite("reMarkable .rm v6 decoding")
struct RemarkableDecoderTests {
    /// rmscene's reading of every corpus .rm file (scripts/rmscene-counts.py, run on the corpus).
    static let reference: [String: (strokes: Int, points: Int, first: [[Double]])] = {
        guard let text = try? String(contentsOf: Fixtures.url("rmscene-counts.jsonl"), encoding: .utf8) else { return [:] }
        var table: [String: (Int, Int, [[Double]])] = [:]
        for line in text.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let file = object["file"] as? String, let strokes = object["strokes"] as? Int,
                  let points = object["points"] as? Int, let first = object["first"] as? [[Double]] else { continue }
            table[file] = (strokes, points, first)
        }
        return table
    }()

    @Test("every corpus .rm file gives rmscene's strokes and points, in rmscene's drawing order",
          .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func corpusMatchesRmscene() throws {
        let files = Corpus.files("rm").filter { $0.pathExtension == "rm" }
        #expect(files.count >= 28)
        for file in files {
            let name = Corpus.relative(file)
            let expected = try #require(Self.reference[name], "no rmscene reference for \(name)")
            let recording = try RemarkableDecoder.decode(try Data(contentsOf: file), file: name)
            let strokes = recording.strokes
            #expect(strokes.count == expected.strokes, "\(name)")
            #expect(recording.pointCount == expected.points, "\(name)")
            let first = strokes.map { [Double($0.points[0].x), Double($0.points[0].y)] }
            #expect(first.count == expected.first.count)
            for (ours, theirs) in zip(first, expected.first) {
                #expect(abs(ours[0] - theirs[0]) < 0.01 && abs(ours[1] - theirs[1]) < 0.01, "\(name): \(ours) vs \(theirs)")
            }
        }
    }

    @Test("ARGB colours of firmware 3.14 and the tools of writing_tools.rm", .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func colorsAndTools() throws {
        let root = try #require(Corpus.root)
        let colours = try RemarkableDecoder.decode(Data(contentsOf: root.appendingPathComponent("rm/rmscene/Color_and_tool_v3.14.4.rm")), file: "c.rm")
        let pens = colours.strokes.map(\.pen)
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
        ("short", Data("reMarkable".utf8), "not a reMarkable v6"),
        ("v5", Data("reMarkable .lines file, version=5          ".utf8), "version 5 is not supported"),
    ])
    func badHeaders(name: String, data: Data, message: String) throws {
        let error = #expect(throws: ImportError.self) { try RemarkableDecoder.decode(data, file: name) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
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
