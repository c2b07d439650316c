import CCairo
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import InkCore
import InkPDF
import Testing
import TestSupport
@testable import InkRender

/// A decoded PNG (through Cairo), for looking at pixels.
struct Image {
    let width: Int
    let height: Int
    let pixels: [RGBA]

    init(png bytes: [UInt8]) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("inkrender-\(UUID().uuidString).png")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        try self.init(file: url)
    }

    init(file url: URL) throws {
        let surface = cairo_image_surface_create_from_png(url.path)!
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { throw RenderError.png("cannot decode \(url.path)") }
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let opaque = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24
        let data = cairo_image_surface_get_data(surface)!
        var pixels: [RGBA] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                let v = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
                let a = opaque ? 255 : v >> 24
                func c(_ shift: UInt32) -> UInt8 { a == 0 ? 0 : UInt8(min(255, ((v >> shift) & 0xFF) * 255 / a)) }
                pixels.append(RGBA(red: c(16), green: c(8), blue: c(0), alpha: UInt8(a)))
            }
        }
        self.pixels = pixels
    }

    subscript(x: Int, y: Int) -> RGBA { pixels[y * width + x] }

    /// Share of pixels differing by more than `threshold` in some channel, and the mean difference.
    func difference(_ other: Image, threshold: Int = 40) -> (share: Double, mean: Double) {
        var far = 0
        var total = 0
        for (a, b) in zip(pixels, other.pixels) {
            let d = [Int(a.red) - Int(b.red), Int(a.green) - Int(b.green), Int(a.blue) - Int(b.blue), Int(a.alpha) - Int(b.alpha)].map(abs)
            if d.max()! > threshold { far += 1 }
            total += d.reduce(0, +)
        }
        return (Double(far) / Double(pixels.count), Double(total) / Double(pixels.count * 4))
    }
}

/// The PNG colour type (0 grey, 2 RGB, 6 RGBA) and size from the header.
func pngHeader(_ bytes: [UInt8]) -> (width: Int, height: Int, colorType: Int) {
    func be(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
    return (be(16), be(20), Int(bytes[25]))
}

@Suite("Rendering")
struct RenderTests {
    let renderer = Renderer()
    let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    @Test("PNG sizes at 1x, 2x and 3x; 1x is one pixel per page unit", arguments: [1, 2, 3])
    func pngSizes(scale: Int) throws {
        let png = try renderer.png(samplePage(), scale: Double(scale))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let header = pngHeader(png)
        #expect(header.width == 180 * scale && header.height == 100 * scale)
        #expect(header.colorType == 2, "an opaque page with colours is RGB")
        let image = try Image(png: png)
        #expect(image.width == 180 * scale)
    }

    @Test("a reMarkable page at 1x is 1404 × 1872 pixels")
    func remarkableSize() throws {
        var page = samplePage()
        page.size = .remarkable
        let header = pngHeader(try renderer.png(page, scale: 1))
        #expect(header.width == 1404 && header.height == 1872)
        let thumbnail = pngHeader(try renderer.thumbnail(page))
        #expect(thumbnail.width == 256 && thumbnail.height == 341)
    }

    @Test("grey pages are written as 8-bit grey (unless asked not to); see-through paper as RGBA")
    func colorTypes() throws {
        var page = samplePage()
        page.template = PageTemplate(kind: .blank)
        page.strokes = page.strokes.filter { $0.tool == .pen || $0.tool == .pencil }.map {
            var s = $0
            s.color = .black
            return s
        }
        let gray = try renderer.png(page)
        #expect(pngHeader(gray).colorType == 0)
        let rgb = try Renderer(options: RenderOptions(grayPNG: false)).png(page)
        #expect(pngHeader(rgb).colorType == 2)
        #expect(try Image(png: gray).difference(try Image(png: rgb)).share == 0, "same pixels either way")
        page.template.paper = RGBA(red: 255, green: 255, blue: 255, alpha: 0)
        #expect(pngHeader(try renderer.png(page)).colorType == 6)
    }

    @Test("golden renders match within a pixel tolerance", arguments: [1, 3])
    func golden(scale: Int) throws {
        let png = try renderer.png(samplePage(), scale: Double(scale))
        let url = goldens.appendingPathComponent("sample-\(scale)x.png")
        if ProcessInfo.processInfo.environment["INKRENDER_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: goldens, withIntermediateDirectories: true)
            try Data(png).write(to: url)
        }
        let expected = try Image(file: url)
        let actual = try Image(png: png)
        #expect(actual.width == expected.width && actual.height == expected.height)
        let (share, mean) = actual.difference(expected)
        #expect(share < 0.005, "\(share * 100) % of pixels differ")
        #expect(mean < 1.5)
    }

    @Test("the highlighter goes under the ink: ink stays dark, paper turns yellow, overlaps do not darken")
    func highlighter() throws {
        let yellow = RGBA(red: 255, green: 235, blue: 59)
        let ink = stroke(line(from: (10, 50), to: (190, 50), count: 20), pressure: [1], width: 6, id: 1)
        // Drawn after the ink, and crossing itself.
        let marker = stroke(line(from: (20, 50), to: (180, 50), count: 10) + line(from: (180, 58), to: (100, 58), count: 6),
                            width: 24, tool: .highlighter, color: yellow, id: 2)
        let page = Page(id: PageID(rawValue: "hilitepage01"), size: PageSize(width: 200, height: 100), strokes: [ink, marker])
        let image = try Image(png: try renderer.png(page, scale: 2))
        let inked = image[100 * 2, 50 * 2]
        #expect(inked.red < 40 && inked.green < 40 && inked.blue < 40, "ink under a highlighter is still dark: \(inked)")
        let once = image[40 * 2, 42 * 2]   // highlighter only, one pass
        let twice = image[140 * 2, 54 * 2] // where the stroke overlaps itself
        #expect(once.blue < 180 && once.red > 230 && once.green > 220, "highlighted paper is yellow: \(once)")
        #expect(once == twice, "a stroke's own overlaps do not darken: \(once) vs \(twice)")
        let paper = image[5, 5]
        #expect(paper == RGBA.white)
    }

    @Test("erased ink is gone from the render")
    func erased() throws {
        let ink = stroke(line(from: (10, 50), to: (90, 50), count: 10), width: 4, id: 1)
        let eraser = stroke(line(from: (50, 0), to: (50, 100), count: 3), width: 20, tool: .eraser, id: 2)
        let page = Page(id: PageID(rawValue: "erasedpage01"), size: PageSize(width: 100, height: 100), strokes: [ink, eraser])
        let split = try Image(png: try renderer.png(page))
        #expect(split[50, 50] == .white)
        #expect(split[20, 50].red < 60)
        let whole = try Image(png: try Renderer(options: RenderOptions(eraserMode: .wholeStroke)).png(page))
        #expect(whole[20, 50] == .white)
    }

    @Test("rendering several pages at once gives the same bytes as one by one")
    func parallel() throws {
        var pages: [Page] = []
        for i in 0..<4 {
            var page = samplePage()
            page.strokes = Array(page.strokes.dropFirst(i))
            pages.append(page)
        }
        let together = try renderer.pngs(pages, scale: 2)
        let single = try pages.map { try Renderer(options: RenderOptions(parallelism: 1)).png($0, scale: 2) }
        #expect(together == single)
    }

    @Test("pages drawn one after another in the same pixel memory come out as if each were drawn alone")
    func reusedPixelMemory() throws {
        let inked = samplePage()
        var seeThrough = samplePage()
        seeThrough.template.paper = RGBA(red: 255, green: 255, blue: 255, alpha: 0)
        seeThrough.strokes = Array(seeThrough.strokes.prefix(2))
        var bare = samplePage()
        bare.template = PageTemplate(kind: .blank)
        bare.strokes = []
        var fractional = samplePage()
        fractional.size = PageSize(width: 170.3, height: 90.7)  // its paper ends inside a pixel: what lies under shows
        fractional.strokes = []
        var smaller = samplePage()
        smaller.size = PageSize(width: 60, height: 40)
        // After a full page, each of these would show what the page before left, were the memory not made blank.
        let pages = [inked, seeThrough, inked, bare, inked, fractional, inked, smaller]
        let oneWorker = Renderer(options: RenderOptions(parallelism: 1))
        for scale in [1.0, 2.0] {
            let together = try oneWorker.pngs(pages, scale: scale)
            let alone = try pages.map { try Renderer(options: RenderOptions(parallelism: 1)).png($0, scale: scale) }
            for (index, (drawn, expected)) in zip(together, alone).enumerated() {
                let same = drawn == expected  // not in the #expect: it would print both PNGs' bytes
                #expect(same, "page \(index + 1) at \(scale)x differs from the page drawn alone")
            }
        }
    }

    @Test("a bad scale is refused")
    func badScale() {
        #expect(throws: RenderError.badScale(0)) { try renderer.png(samplePage(), scale: 0) }
    }
}

@Suite("Vector output")
struct VectorTests {
    let scratch = ScratchFolder()

    func pages(_ count: Int) -> [Page] {
        (0..<count).map { i in
            var page = samplePage()
            page.id = PageID(rawValue: "vectorpage0\(i)")
            return page
        }
    }

    func write(_ bytes: [UInt8]) throws -> URL {
        let url = scratch.url.appendingPathComponent("out-\(UUID().uuidString).pdf")
        try Data(bytes).write(to: url)
        return url
    }

    @Test("PDF: one page per page, vector only, no text", .enabled(if: popplerInstalled))
    func pdf() throws {
        let url = try write(try Renderer().pdf(pages(3)))
        let info = try #require(try run("pdfinfo", [url.path]))
        #expect(info.status == 0)
        #expect(info.output.contains("Pages:           3"))
        #expect(info.output.contains("Page size:       180 x 100 pts"))
        let images = try #require(try run("pdfimages", ["-list", url.path]))
        #expect(images.output.split(separator: "\n").count == 2, "only the header of the list: no raster images\n\(images.output)")
        let text = try #require(try run("pdftotext", [url.path, "-"]))
        #expect(text.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test("PDF pages are sized from the page: reMarkable 1404 × 1872 at 226 dpi is 447 × 596 pt", .enabled(if: popplerInstalled))
    func pdfSize() throws {
        var page = samplePage()
        page.size = .remarkable
        let url = try write(try Renderer().pdf([page]))
        let info = try #require(try run("pdfinfo", [url.path]))
        #expect(info.output.contains("Page size:       447.292 x 596.389 pts"), "\(info.output)")
    }

    @Test("the invisible text layer is found by pdftotext, accents and Greek too, and changes no pixel", .enabled(if: popplerInstalled))
    func textLayer() throws {
        let page = samplePage()
        let lines = [TextLine(text: "meeting notes #q3-plan", bounds: Rect(minX: 10, minY: 20, maxX: 120, maxY: 40)),
                     TextLine(text: "budget review", bounds: Rect(minX: 10, minY: 60, maxX: 90, maxY: 75)),
                     TextLine(text: "Café déjà vu, Ωμέγα λόγος", bounds: Rect(minX: 10, minY: 80, maxX: 170, maxY: 95)),
                     // Noncharacters, which Cairo refuses (they would fail the whole PDF), come out as U+FFFD.
                     TextLine(text: "odd " + String(String.UnicodeScalarView([Unicode.Scalar(0xFFFE)!, Unicode.Scalar(0xFDD0)!])) + " end",
                              bounds: Rect(minX: 10, minY: 5, maxX: 60, maxY: 15))]
        let with = try write(try Renderer(options: RenderOptions(textLayer: [page.id: lines])).pdf([page]))
        let without = try write(try Renderer().pdf([page]))
        let text = try #require(try run("pdftotext", [with.path, "-"])).output
        #expect(text.contains("meeting notes #q3-plan"))
        #expect(text.contains("budget review"))
        #expect(text.contains("Café déjà vu, Ωμέγα λόγος"), "\(text)")
        #expect(text.contains("odd \u{FFFD}\u{FFFD} end"), "\(text)")
        let fonts = try #require(try run("pdffonts", [with.path])).output
        #expect(fonts.split(separator: "\n").count == 3, "one font, with a ToUnicode map, for all the lines\n\(fonts)")
        if let check = try run("qpdf", ["--check", with.path]) {
            #expect(check.status == 0, "\(check.output)")
        }
        guard let _ = try run("pdftoppm", ["-v"]) else { return }
        func raster(_ url: URL) throws -> Image {
            let prefix = url.deletingPathExtension().path
            _ = try run("pdftoppm", ["-r", "144", "-png", "-singlefile", url.path, prefix])
            return try Image(file: URL(fileURLWithPath: prefix + ".png"))
        }
        #expect(try raster(with).difference(try raster(without), threshold: 2).share == 0)
    }

    @Test("a background document is named by the SHA-256 of its bytes, as libraries already store it (FIPS 180-2 vectors)",
          .enabled(if: popplerInstalled))
    func documentIDIsSHA256() throws {
        #expect(try PDFPages.documentID(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try PDFPages.documentID(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("over a PDF page the text layer stays invisible and findable, beside the page's own text", .enabled(if: popplerInstalled))
    func textLayerOverBackground() throws {
        let paper = TestPDF.vector([(612, 792, "Quarterly plan")])
        let id = try PDFPages.documentID(of: paper)
        var page = Page(id: PageID(rawValue: "onpaper01"), size: PageSize(width: 612, height: 792))
        page.template.background = PageBackground(document: id, page: 0)
        page.strokes = samplePage().strokes
        let lines = [TextLine(text: "Ωμέγα budget review", bounds: Rect(minX: 90, minY: 90, maxX: 260, maxY: 160))]
        var options = RenderOptions(textLayer: [page.id: lines])
        options.backgrounds = BackgroundDocuments([id: paper])
        let with = try write(try Renderer(options: options).pdf([page]))
        options.textLayer = [:]
        let without = try write(try Renderer(options: options).pdf([page]))
        let text = try #require(try run("pdftotext", [with.path, "-"])).output
        #expect(text.contains("Quarterly plan") && text.contains("Ωμέγα budget review"), "\(text)")
        guard let _ = try run("pdftoppm", ["-v"]) else { return }
        func raster(_ url: URL) throws -> Image {
            let prefix = url.deletingPathExtension().path
            _ = try run("pdftoppm", ["-r", "72", "-png", "-singlefile", url.path, prefix])
            return try Image(file: URL(fileURLWithPath: prefix + ".png"))
        }
        let drawn = try raster(with)
        #expect(drawn.difference(try raster(without), threshold: 2).share == 0)
        // The PDF's box (100…200 × 100…150 pt) is under the words' box, and drawn.
        #expect(drawn[150, 125].red < 40, "\(drawn[150, 125])")
    }

    @Test("a PDF that importers read and the library stores is one the renderer opens: the size limits agree")
    func backgroundSizeLimits() {
        #expect(PDFPages.maxBytes == PageBackground.maxDocumentBytes)
    }

    @Test("the PDF agrees with the raster within a tolerance", .enabled(if: popplerInstalled))
    func pdfLooksLikePNG() throws {
        let page = samplePage()
        let png = try Image(png: try Renderer().png(page, scale: 2))
        let url = try write(try Renderer().pdf([page]))
        let prefix = url.deletingPathExtension().path
        _ = try run("pdftoppm", ["-r", "144", "-png", "-singlefile", url.path, prefix])
        let pdf = try Image(file: URL(fileURLWithPath: prefix + ".png"))
        #expect(pdf.width == png.width && pdf.height == png.height)
        // Stroked runs with quantised widths, rasterised by another library: close, not equal.
        #expect(pdf.difference(png, threshold: 100).share < 0.02)
    }

    @Test("SVG parses, is sized in points and holds the ink")
    func svg() throws {
        let text = Renderer().svg(samplePage())
        final class Collector: NSObject, XMLParserDelegate {
            var elements: [String: Int] = [:]
            var root: [String: String] = [:]
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) {
                if elements.isEmpty { root = attributes }
                elements[name, default: 0] += 1
            }
        }
        let parser = XMLParser(data: Data(text.utf8))
        let collector = Collector()
        parser.delegate = collector
        let parsed = parser.parse()
        #expect(parsed, "\(String(describing: parser.parserError))")
        #expect(collector.root["width"] == "180pt" && collector.root["viewBox"] == "0 0 180 100")
        #expect(collector.elements["path", default: 0] >= 5)
        #expect(text.contains("mix-blend-mode:multiply"))
        #expect(text.contains("mix-blend-mode:darken"))
    }
}
