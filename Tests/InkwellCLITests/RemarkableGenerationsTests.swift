import Foundation
import InkInterchange
import InkPDF
import Testing
import TestSupport

/// reMarkable documents of every software generation on their PDF: a `.content` with only `pages`
/// (software before 3.0) keeps its PDF, v5 ink is placed by the layout of its time, and v5 highlighter
/// strokes over the PDF's text are yellow and quote the words under them.
@Suite("reMarkable generations on a PDF")
struct RemarkableGenerationsTests {
    let cli = CLI()

    static let paper = TestPDF.vector([(612, 792, "Quarterly plan"), (612, 792, "Second page")])

    /// A `.lines` version 5 page with one line: `tool`, `color`, its points (tablet pixels, from the
    /// screen's top-left corner), every point `width` wide.
    static func v5Page(tool: UInt32, color: UInt32, width: Float, points: [(Float, Float)]) -> Data {
        var bytes = Array("reMarkable .lines file, version=5".utf8)
        bytes += Array(repeating: UInt8(ascii: " "), count: 43 - bytes.count)
        func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func f32(_ value: Float) { u32(value.bitPattern) }
        u32(1); u32(1) // one layer, one line
        u32(tool); u32(color); u32(0); f32(2); u32(0); u32(UInt32(points.count))
        for (x, y) in points { f32(x); f32(y); f32(0); f32(0); f32(width); f32(0.5) }
        return Data(bytes)
    }

    /// A document `UUID.content` with `content` beside `UUID.pdf` (``paper``) and `pages` (page id → `.rm`
    /// bytes) in `UUID/`; returns the `.content`'s path.
    func document(content: String, pages: [String: Data]) throws -> String {
        let folder = cli.root.appendingPathComponent("xochitl")
        let id = "4f1c7e2a-0000-4000-8000-000000000002"
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(id), withIntermediateDirectories: true)
        try Self.paper.write(to: folder.appendingPathComponent(id + ".pdf"))
        for (page, data) in pages { try data.write(to: folder.appendingPathComponent(id).appendingPathComponent(page + ".rm")) }
        try Data(content.utf8).write(to: folder.appendingPathComponent(id + ".content"))
        return folder.appendingPathComponent(id + ".content").path
    }

    func importNote(_ content: String) throws -> (id: String, warnings: [String]) {
        let report = try #require(try cli.json(["import", "--no-recognize", content]) as? [String: Any])
        let imported = try #require((report["imported"] as? [[String: Any]])?.first)
        let note = try #require((imported["notes"] as? [[String: Any]])?.first)
        return (try #require(note["id"] as? String), imported["warnings"] as? [String] ?? [])
    }

    /// The note's strokes as InkML gives them back: each stroke's points (page points) and its colour.
    func strokes(_ note: String) throws -> [(points: [RecordedPoint], pen: RecordedPen)] {
        let inkml = cli.root.appendingPathComponent("page-\(UUID().uuidString).inkml")
        try cli.ok(["export", note, "--format", "inkml", "-o", inkml.path])
        let recording = try InkMLDecoder.decode(try Data(contentsOf: inkml), file: inkml.path)
        var result: [(points: [RecordedPoint], pen: RecordedPen)] = []
        for event in recording.notes[0].events {
            switch event {
            case .penDown(let point, let pen, _): result.append(([point], pen))
            case .penMove(let point, _): result[result.count - 1].points.append(point)
            case .penUp(let point?, _): result[result.count - 1].points.append(point)
            default: break
            }
        }
        return result
    }

    @Test("a .content with only a pages list (software before 3.0) keeps its PDF: page N on PDF page N",
          .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func pagesOnly() throws {
        try cli.ok(["init"])
        let handwriting = try Data(contentsOf: URL(fileURLWithPath: ImportCorpus.path("rm-v5/remarks/184d0d14-d0c8-4963-a42d-b94f247e4ff2.rm")))
        let content = try document(content: #"{"fileType": "pdf", "pageCount": 2, "pages": ["a", "b"]}"#, pages: ["a": handwriting])
        let (note, warnings) = try importNote(content)
        #expect(!warnings.contains { $0.contains("blank paper") }, "\(warnings)")
        let show = try #require(try cli.json(["note", "show", note]) as? [String: Any])
        let pages = try #require(show["pages"] as? [[String: Any]])
        #expect(pages.map { ($0["background"] as? [String: Any])?["page"] as? Int } == [1, 2])
        #expect(pages.map { [$0["width"] as? Double, $0["height"] as? Double] } == [[612, 792], [612, 792]])

        // The v5 page's ink (x 185…1264, y 903…1766 tablet pixels) on the PDF page fitted into the screen:
        // 612 × 792 pt fits the 1404 × 1872 screen at max(612/1404, 792/1872) pt a pixel, from the corner.
        let scale: Float = max(612 / 1404, 792 / 1872)
        let points = try strokes(note).flatMap(\.points)
        let xs = points.map(\.x), ys = points.map(\.y)
        #expect(abs(try #require(xs.min()) - 184.75 * scale) < 1 && abs(xs.max()! - 1264.32 * scale) < 1, "x \(xs.min()!)…\(xs.max()!)")
        #expect(abs(try #require(ys.min()) - 902.75 * scale) < 1 && abs(ys.max()! - 1766.18 * scale) < 1, "y \(ys.min()!)…\(ys.max()!)")
    }

    @Test("a v5 highlighter stroke over the PDF's text is the tablet's yellow and quotes the words under it (pdftotext -bbox)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext"), "needs pdftotext (poppler-utils)"))
    func v5Highlight() throws {
        try cli.ok(["init"])
        let pdf = cli.root.appendingPathComponent("paper.pdf")
        try Self.paper.write(to: pdf)
        // Where pdftotext puts the word "plan" on page 1 (points from the top-left corner).
        let bbox = try tool(["pdftotext", "-bbox", "-f", "1", "-l", "1", pdf.path, "-"]).output
        let line = try #require(bbox.split(separator: "\n").first { $0.hasSuffix(">plan</word>") })
        func value(_ name: String) throws -> Float {
            let range = try #require(line.range(of: "\(name)=\""))
            return try #require(Float(line[range.upperBound...].prefix { $0 != "\"" }))
        }
        let (xMin, yMin, xMax, yMax) = (try value("xMin"), try value("yMin"), try value("xMax"), try value("yMax"))
        // A stroke over the middle of "plan" alone, in tablet pixels (fitted layout, from the corner), colour 1
        // (the grey a v5 file may store for its highlighter).
        let scale: Float = max(612 / 1404, 792 / 1872)
        let y = (yMin + yMax) / 2 / scale
        let page = Self.v5Page(tool: 5, color: 1, width: 30, points: [((xMin + 4) / scale, y), ((xMax - 4) / scale, y)])
        let content = try document(content: #"{"fileType": "pdf", "pages": ["a", "b"]}"#, pages: ["a": page])
        let (note, _) = try importNote(content)
        let text = try #require((try cli.json(["note", "text", note]) as? [String: Any])?["text"] as? String)
        #expect(text.contains("> plan (p. 1)"), "\(text)")
        #expect(!text.contains("Quarterly"), "\(text)")
        let highlighter = try #require(try strokes(note).first)
        #expect(highlighter.pen.tool == .highlighter)
        #expect((highlighter.pen.color.red, highlighter.pen.color.green, highlighter.pen.color.blue) == (255, 237, 117), "\(highlighter.pen.color)")
    }

    @Test("words under highlighter strokes: runs widened to whole words, joined across lines, split where text lies between")
    func textUnderStrokes() {
        // "alpha beta\ngamma delta": one box per character, 10 pt wide, the second line 20 pt lower.
        let characters = Array("alpha beta\ngamma delta")
        var boxes: [PDFPageText.Box] = []
        var x = 0.0, y = 0.0
        for character in characters {
            boxes.append(PDFPageText.Box(x1: x, y1: y, x2: x + 10, y2: y + 10))
            if character == "\n" { x = 0; y += 20 } else { x += 10 }
        }
        let text = PDFPageText(characters: characters, boxes: boxes)
        // Part of "beta" and of "gamma": one quote over the line break, whole words.
        #expect(text.text { $0.midX > 70 && $0.midY < 10 || $0.midX < 20 && $0.midY > 20 } == ["beta gamma"])
        // Part of "alpha" and of "delta": "beta gamma" between them, so two quotes.
        #expect(text.text { $0.midX < 20 && $0.midY < 10 || $0.midX > 80 && $0.midY > 20 } == ["alpha", "delta"])
        #expect(text.text { _ in false } == [])
    }
}
