import Foundation
import Testing
import TestSupport

/// One page-size rule for exports: each page in the resolution its source states (226 dpi for the
/// reMarkable, grown pages too; PDF points for pages on a PDF), so a note's pages share one physical scale.
@Suite("One page-size rule for exports")
struct PageSizeRuleTests {
    let cli = CLI()

    /// Each page's size in points, as `pdfinfo` reads the PDF.
    func pdfSizes(_ path: String) throws -> [(width: Double, height: Double)] {
        let output = try tool(["pdfinfo", "-f", "1", "-l", "1000", path]).output
        return output.split(separator: "\n").compactMap { line -> (width: Double, height: Double)? in
            guard line.hasPrefix("Page "), line.contains(" size: ") else { return nil }
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            // "Page    2 size: 447.244 x 684.31 pts": the page number, then width and height.
            return numbers.count >= 3 ? (numbers[1], numbers[2]) : nil
        }
    }

    /// The page sizes (page pixels) `note show` gives.
    func pixelSizes(_ note: String) throws -> [(width: Double, height: Double)] {
        let show = try #require(try cli.json(["note", "show", note]) as? [String: Any])
        return (show["pages"] as? [[String: Any]] ?? []).map { ($0["width"] as? Double ?? 0, $0["height"] as? Double ?? 0) }
    }

    @Test("a reMarkable notebook's page grown past the screen is in the same units as its neighbours in one PDF: 226 dpi",
          .enabled(if: ImportCorpus.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/pdfinfo"), ImportCorpus.missing))
    func grownPage() throws {
        try cli.ok(["init"])
        let folder = cli.root.appendingPathComponent("xochitl")
        let id = "4f1c7e2a-0000-4000-8000-000000000004"
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(id), withIntermediateDirectories: true)
        for (page, file) in [("a", "rm/rmc/fullpage.rm"), ("b", "rm/rmc/extended.stroke.rm")] {
            try FileManager.default.copyItem(at: URL(fileURLWithPath: ImportCorpus.path(file)),
                                             to: folder.appendingPathComponent(id).appendingPathComponent(page + ".rm"))
        }
        try Data(#"{"fileType": "notebook", "pages": ["a", "b"]}"#.utf8).write(to: folder.appendingPathComponent(id + ".content"))
        let report = try #require(try cli.json(["import", "--no-recognize", folder.appendingPathComponent(id + ".content").path]) as? [String: Any])
        let note = try #require(((report["imported"] as? [[String: Any]])?.first?["notes"] as? [[String: Any]])?.first?["id"] as? String)
        let pixels = try pixelSizes(note)
        #expect(pixels.count == 2 && pixels[0] == (1404, 1872) && (pixels[1].width != 1404 || pixels[1].height != 1872), "the second page grew: \(pixels)")
        let pdf = cli.root.appendingPathComponent("notebook.pdf").path
        try cli.ok(["export", note, "--format", "pdf", "-o", pdf])
        let points = try pdfSizes(pdf)
        #expect(points.count == 2)
        for (pixel, point) in zip(pixels, points) {
            #expect(abs(point.width - pixel.width * 72 / 226) < 0.1 && abs(point.height - pixel.height * 72 / 226) < 0.1, "\(pixel) px → \(point) pt")
        }
        // InkML carries the same resolution: the file rendered without a library gives the same sizes.
        let inkml = cli.root.appendingPathComponent("notebook.inkml").path
        try cli.ok(["export", note, "--format", "inkml", "-o", inkml])
        let again = cli.root.appendingPathComponent("again.pdf").path
        try cli.ok(["render", inkml, "-o", again])
        let inkmlPoints = try pdfSizes(again)
        #expect(inkmlPoints.count == 2)
        for (a, b) in zip(points, inkmlPoints) { #expect(abs(a.width - b.width) < 0.1 && abs(a.height - b.height) < 0.1, "\(a) vs \(b)") }
        // The grown page alone, converted without a library, is at 226 dpi too.
        let alone = cli.root.appendingPathComponent("alone.pdf").path
        try cli.ok(["render", ImportCorpus.path("rm/rmc/extended.stroke.rm"), "-o", alone])
        let single = try #require(try pdfSizes(alone).first)
        #expect(abs(single.width - points[1].width) < 0.1 && abs(single.height - points[1].height) < 0.1, "\(single) vs \(points[1])")
    }

    @Test("an InkML file in inches renders at its stated 226 dpi, not a point a pixel",
          .enabled(if: ImportCorpus.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/pdfinfo"), ImportCorpus.missing))
    func inkmlInInches() throws {
        let source = ImportCorpus.path("inkml/writer_reader_inkml/word_output.xml")
        let pdf = cli.root.appendingPathComponent("word.pdf").path
        try FileManager.default.createDirectory(at: cli.root, withIntermediateDirectories: true)
        try cli.ok(["render", source, "-o", pdf])
        let page = try #require(try pdfSizes(pdf).first)
        // The default page is 1404 × 1872 px at 226 dpi (447.3 × 596.4 pt), grown to hold the ink.
        #expect(page.width >= 447 && page.width < 1404 * 72 / 226 * 4, "\(page)")
    }
}
