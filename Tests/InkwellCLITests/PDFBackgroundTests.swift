import CCairo
import Foundation
import InkwellKit
import Testing
import TestSupport
import InkInterchange
import InkPDF

/// Writing on PDFs: a PDF imported to annotate, a Xournal++ document annotating one, and the PDF kept
/// under the ink in every export (as vectors in PDFs), stored once per note, never read as handwriting.
@Suite("PDF backgrounds")
struct PDFBackgroundTests {
    let cli = CLI()

    static let paper = TestPDF.vector([(612, 792, "Quarterly plan"), (792, 612, "Second page")])

    /// A plain-XML Xournal++ document on `pdf` (as Xournal++ writes it), a red stroke on its first page.
    static func xopp(pdf: String) -> String {
        """
        <?xml version="1.0" standalone="no"?>
        <xournal creator="xournalpp 1.2.3" fileversion="4">
        <page width="612.00" height="792.00"><background type="pdf" domain="absolute" filename="\(pdf)" pageno="1ll"/>
        <layer><stroke tool="pen" color="#ff0000ff" width="4.00">300 400 350 420 400 400 450 430 500 400</stroke></layer></page>
        <page width="792.00" height="612.00"><background type="pdf" pageno="2ll"/><layer/></page>
        </xournal>
        """
    }

    func input(_ name: String, _ data: Data) throws -> String {
        let path = try cli.write(name, "")
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    func importedID(_ arguments: [String]) throws -> (id: String, report: [String: Any]) {
        let report = try #require(try cli.json(["import", "--no-recognize"] + arguments) as? [String: Any])
        let note = try #require(((report["imported"] as? [[String: Any]])?.first?["notes"] as? [[String: Any]])?.first)
        return (try #require(note["id"] as? String), report)
    }

    /// The background PDFs stored in the library.
    func storedBackgrounds() -> [URL] {
        let walker = FileManager.default.enumerator(at: cli.library, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "pdf" && $0.deletingLastPathComponent().lastPathComponent == "backgrounds" }
    }

    /// The RGB of a pixel of a PNG file.
    static func pixel(_ png: String, x: Int, y: Int) throws -> (r: Int, g: Int, b: Int, width: Int, height: Int) {
        let surface = try #require(cairo_image_surface_create_from_png(png))
        defer { cairo_surface_destroy(surface) }
        try #require(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, "\(png) is not a PNG")
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = try #require(cairo_image_surface_get_data(surface))
        let format = cairo_image_surface_get_format(surface)
        if format == CAIRO_FORMAT_A8 {
            let v = Int(data[y * stride + x])
            return (v, v, v, width, height)
        }
        let value = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        return (Int(value >> 16 & 0xFF), Int(value >> 8 & 0xFF), Int(value & 0xFF), width, height)
    }

    @Test("a PDF imports as a note to write on: a page per PDF page, each its size, the PDF under every export")
    func importPDF() throws {
        try cli.ok(["init"])
        let pdf = try input("paper.pdf", Self.paper)
        let (id, report) = try importedID([pdf])
        #expect((report["imported"] as? [[String: Any]])?.first?["format"] as? String == "pdf")
        let show = try #require(try cli.json(["note", "show", id]) as? [String: Any])
        let pages = try #require(show["pages"] as? [[String: Any]])
        #expect(pages.map { $0["width"] as? Double } == [612, 792])
        #expect(pages.map { ($0["background"] as? [String: Any])?["page"] as? Int } == [1, 2])
        #expect(pages.allSatisfy { ($0["background"] as? [String: Any])?["stored"] as? Bool == true })
        #expect(storedBackgrounds().map(\.lastPathComponent) == [try PDFPages.documentID(of: Self.paper) + ".pdf"])

        // Page 2 is landscape, as in the PDF; the box is drawn where the PDF has it.
        let out = cli.root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try cli.ok(["render", id, "--page", "2", "-o", out.appendingPathComponent("p2.png").path])
        let box = try Self.pixel(out.appendingPathComponent("p2.png").path, x: 150, y: 125)
        #expect((box.width, box.height) == (792, 612))
        #expect(box.r < 40 && box.g < 40 && box.b < 40, "the PDF's box is not drawn: \(box)")
        let outside = try Self.pixel(out.appendingPathComponent("p2.png").path, x: 400, y: 400)
        #expect(outside.r > 240 && outside.g > 240 && outside.b > 240)

        // A PDF gone from the note's folder: `check` says so and fails; the pages still render, on plain paper.
        for url in storedBackgrounds() { try FileManager.default.removeItem(at: url) }
        let check = try cli.run(["check"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("2 drawn on a missing PDF"), "\(check.stdout)")
        try cli.ok(["render", id, "--page", "2", "-o", out.appendingPathComponent("plain.png").path])
        let plain = try Self.pixel(out.appendingPathComponent("plain.png").path, x: 150, y: 125)
        #expect(plain.r > 240, "\(plain)")
    }

    @Test("a Xournal++ file annotating a PDF keeps it: stored once, vector text and boxes under the ink in the PDF export",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext"), "needs pdftotext and pdfimages (poppler-utils)"))
    func xournalOnPDF() throws {
        try cli.ok(["init"])
        _ = try input("paper.pdf", Self.paper)
        // The file names the PDF where it was when written; it moved, and is found beside the file by name.
        let xopp = try cli.write("notes.xopp", Self.xopp(pdf: "/home/someone/Documents/paper.pdf"))
        let (id, report) = try importedID([xopp])
        let warnings = (report["imported"] as? [[String: Any]])?.first?["warnings"] as? [String] ?? []
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(storedBackgrounds().count == 1)

        let out = cli.root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let pdf = out.appendingPathComponent("notes.pdf").path
        try cli.ok(["render", id, "-o", pdf])
        let text = try tool(["pdftotext", pdf, "-"]).output
        #expect(text.contains("Quarterly plan") && text.contains("Second page"), "\(text)")
        // Vector content stays vector: no image in the PDF.
        let images = try tool(["pdfimages", "-list", pdf]).output.split(separator: "\n")
        #expect(images.count == 2, "\(images)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/qpdf") {
            let check = try tool(["qpdf", "--check", pdf])
            #expect(check.status == 0, "\(check.output)")
        }

        // PNG: the PDF's box, the red ink over paper, white elsewhere.
        let png = out.appendingPathComponent("notes.png").path
        try cli.ok(["render", id, "--page", "1", "-o", png])
        let box = try Self.pixel(png, x: 150, y: 125)
        #expect(box.r < 40 && box.g < 40 && box.b < 40, "\(box)")
        let ink = try Self.pixel(png, x: 300, y: 400)
        #expect(ink.r > 200 && ink.g < 60 && ink.b < 60, "\(ink)")
        let paper = try Self.pixel(png, x: 500, y: 700)
        #expect(paper.r > 240 && paper.g > 240 && paper.b > 240)

        // SVG: the PDF page as an image under the ink, in a form SVG 1.1 readers take.
        let svg = out.appendingPathComponent("notes.svg").path
        try cli.ok(["render", id, "--page", "1", "-o", svg])
        let svgText = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(svgText.contains("xmlns:xlink=\"http://www.w3.org/1999/xlink\"") && svgText.contains("xlink:href=\"data:image/png;base64,"))

        // Converting the file without a library draws the same page.
        let direct = out.appendingPathComponent("direct.pdf").path
        try cli.ok(["render", xopp, "-o", direct])
        #expect(try tool(["pdftotext", direct, "-"]).output.contains("Quarterly plan"))
    }

    @Test("a Xournal++ file whose PDF is missing imports on blank paper with a warning naming where it looked")
    func missingPDF() throws {
        try cli.ok(["init"])
        let xopp = try cli.write("alone.xopp", Self.xopp(pdf: "/nowhere/lost.pdf"))
        let (_, report) = try importedID([xopp])
        let warnings = (report["imported"] as? [[String: Any]])?.first?["warnings"] as? [String] ?? []
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("2 pages with a PDF background whose PDF was not found") == true, "\(warnings)")
        #expect(warnings.first?.contains("/nowhere/lost.pdf") == true)
        #expect(storedBackgrounds().isEmpty)
    }

    @Test("a damaged PDF is refused with its reason, the library unchanged")
    func damagedPDF() throws {
        try cli.ok(["init"])
        let before = try cli.snapshot()
        for (name, data) in [("garbage.pdf", Data("%PDF-1.7\n".utf8) + Data(repeating: 0x41, count: 4000)),
                             ("half.pdf", Data(Self.paper.prefix(200)))] {
            let path = try input(name, data)
            let result = try cli.run(["import", path])
            #expect(result.status != 0)
            #expect(result.stderr.contains(path), "\(result.stderr)")
            #expect(try cli.snapshot() == before)
        }
    }

    @Test("a reMarkable document on a PDF keeps it: every page on its PDF page, the ink scaled from 226 dpi about the page's middle",
          .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func remarkablePDF() throws {
        try cli.ok(["init"])
        let folder = cli.root.appendingPathComponent("xochitl")
        let id = "4f1c7e2a-0000-4000-8000-000000000001"
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(id), withIntermediateDirectories: true)
        try Self.paper.write(to: folder.appendingPathComponent(id + ".pdf"))
        // The first page shows the PDF's second (landscape) page and holds ink; the second the first, without ink.
        try FileManager.default.copyItem(at: URL(fileURLWithPath: ImportCorpus.path("rm/rmc/fullpage.rm")),
                                         to: folder.appendingPathComponent(id).appendingPathComponent("a.rm"))
        try Data(#"{"fileType": "pdf", "cPages": {"pages": [{"id": "a", "idx": {"value": "ba"}, "redir": {"value": 1}}, {"id": "b", "idx": {"value": "bb"}, "redir": {"value": 0}}]}}"#.utf8)
            .write(to: folder.appendingPathComponent(id + ".content"))
        let (note, report) = try importedID([folder.appendingPathComponent(id + ".content").path])
        let warnings = (report["imported"] as? [[String: Any]])?.first?["warnings"] as? [String] ?? []
        #expect(!warnings.contains { $0.contains("blank paper") }, "\(warnings)")
        let show = try #require(try cli.json(["note", "show", note]) as? [String: Any])
        let pages = try #require(show["pages"] as? [[String: Any]])
        #expect(pages.map { [$0["width"] as? Double, $0["height"] as? Double] } == [[792, 612], [612, 792]])
        #expect(pages.map { ($0["background"] as? [String: Any])?["page"] as? Int } == [2, 1])
        // fullpage.rm's ink spans the screen (x 0…1404, y 0…1872 tablet pixels): on the 792 pt page it lies
        // from 396 − 702·72/226 to 396 + 702·72/226 points across, and from the top down to 1872·72/226.
        let inkml = cli.root.appendingPathComponent("page.inkml")
        try cli.ok(["export", note, "--format", "inkml", "-o", inkml.path])
        let recording = try InkMLDecoder.decode(try Data(contentsOf: inkml), file: inkml.path)
        var xs: [Float] = [], ys: [Float] = []
        for event in recording.notes[0].events {
            if case .penMove(let p, _) = event { xs.append(p.x); ys.append(p.y) }
        }
        let k: Float = 72 / 226
        #expect(try #require(xs.min()) >= 396 - 702 * k - 1 && xs.max()! <= 396 + 702 * k + 1, "x \(xs.min()!)…\(xs.max()!)")
        #expect(try #require(ys.min()) >= -1 && ys.max()! <= 1872 * k + 1 && ys.max()! > 1872 * k * 0.8, "y \(ys.min()!)…\(ys.max()!)")
    }

    @Test("the packaged Xournal++ test file keeps its attached PDF", .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func corpusPackaged() throws {
        try cli.ok(["init"])
        let (id, report) = try importedID([ImportCorpus.path("xopp/xournalpp/test/files/packaged_xopp/pdfBackground/new.xopp")])
        #expect(((report["imported"] as? [[String: Any]])?.first?["warnings"] as? [String] ?? []).isEmpty)
        #expect(storedBackgrounds().count == 1)
        let png = cli.root.appendingPathComponent("corpus.png").path
        try cli.ok(["render", id, "--page", "1", "-o", png])
        // The brown square of the PDF's first page.
        let square = try Self.pixel(png, x: 150, y: 200)
        #expect(square.r > square.b + 40 && square.r < 160, "\(square)")
    }
}
