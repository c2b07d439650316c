import CCairo
import Foundation
import InkCore
import InkGeometry
import InkPDF
import InkText

/// Choices that apply to every output.
public struct RenderOptions: Sendable, Hashable {
    public var style: InkStyle
    public var eraserMode: EraserMode
    /// Page units per inch; nil infers it from the page size (see ``PageMetrics``).
    public var unitsPerInch: Double?
    /// Largest error of vector geometry (PDF, SVG) in PDF points: of a centreline fitted with curves
    /// from its samples, and of the ink's edge where runs of one width stand for a varying width. PDF
    /// coordinates are then rounded to an eighth of a point (at most 1/16 pt off each way). 0.1 pt
    /// (0.035 mm) is invisible in print and at 800 % zoom.
    public var vectorTolerance: Double
    /// Invisible, searchable text for PDF pages, by page (off unless given).
    public var textLayer: [PageID: [TextLine]]
    /// Pages rendered at once (PNG) or prepared ahead (PDF); 0 uses every core.
    public var parallelism: Int
    /// The PDF's title.
    public var title: String?
    /// The PDF's author, keywords (tags) and creation date.
    public var author: String?
    public var keywords: [String] = []
    public var created: Date?
    /// Write 8-bit grey PNGs when every colour on the page is grey (same pixels, a third of the data).
    public var grayPNG: Bool
    /// The PDFs pages are drawn on (``PageTemplate/background``); a page whose document is not there is
    /// drawn on plain paper.
    public var backgrounds: BackgroundDocuments = .none

    public init(style: InkStyle = .standard, eraserMode: EraserMode = .split, unitsPerInch: Double? = nil,
                vectorTolerance: Double = 0.1, textLayer: [PageID: [TextLine]] = [:], parallelism: Int = 0,
                title: String? = nil, grayPNG: Bool = true) {
        self.style = style
        self.eraserMode = eraserMode
        self.unitsPerInch = unitsPerInch
        self.vectorTolerance = vectorTolerance
        self.textLayer = textLayer
        self.parallelism = parallelism
        self.title = title
        self.grayPNG = grayPNG
    }
}

public enum RenderError: Error, CustomStringConvertible, Equatable {
    case cairo(String)
    case png(String)
    case io(String, String)
    case tooLarge(width: Int, height: Int)
    case badScale(Double)

    public var description: String {
        switch self {
        case .cairo(let message): "cairo: \(message)"
        case .png(let message): message
        case .io(let path, let reason): "\(path): \(reason)"
        case .tooLarge(let w, let h): "the image would be \(w)×\(h) pixels (Cairo's limit is 32767 a side); use a smaller scale"
        case .badScale(let scale): "scale \(scale) is not a positive number"
        }
    }

    static func cairo(_ status: cairo_status_t, _ doing: String) -> RenderError? {
        guard status != CAIRO_STATUS_SUCCESS else { return nil }
        return .cairo("\(doing): \(String(cString: cairo_status_to_string(status)))")
    }
}

/// Renders pages to PNG (any scale; 1x is one pixel per page unit), PDF (vector, one PDF page per
/// page) and SVG.
public struct Renderer: Sendable {
    public var options: RenderOptions

    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    var workers: Int {
        options.parallelism > 0 ? options.parallelism : max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    func pointsPerUnit(_ page: Page) -> Double {
        PageMetrics.pointsPerUnit(for: page, unitsPerInch: options.unitsPerInch)
    }

    func vectorScene(_ page: Page) -> Scene {
        Scene(page: page, style: options.style, eraserMode: options.eraserMode,
              target: .vector(tolerance: options.vectorTolerance / pointsPerUnit(page)))
    }

    func rasterScene(_ page: Page, scale: Double) -> Scene {
        Scene(page: page, style: options.style, eraserMode: options.eraserMode, target: .raster(scale: scale))
    }

    // MARK: PNG

    /// A PNG of `page` at `scale` pixels per page unit (opaque pages are RGB, others RGBA).
    public func png(_ page: Page, scale: Double = 1) throws(RenderError) -> [UInt8] {
        try png(page, scale: scale, memory: nil)
    }

    private func png(_ page: Page, scale: Double, memory: RasterMemory?) throws(RenderError) -> [UInt8] {
        guard scale > 0, scale.isFinite else { throw RenderError.badScale(scale) }
        let scene = rasterScene(page, scale: scale)
        let raster = try Raster(scene, scale: scale, backgrounds: options.backgrounds, memory: memory)
        defer { raster.destroy() }
        return try raster.png(dpi: PageMetrics.unitsPerInch(for: page) * scale, gray: options.grayPNG && scene.isGray)
    }

    /// PNGs of `pages`, several at once, each worker drawing its pages in the same pixel memory.
    public func pngs(_ pages: [Page], scale: Double = 1) throws(RenderError) -> [[UInt8]] {
        guard scale > 0, scale.isFinite else { throw RenderError.badScale(scale) }
        let results = Slots<Result<[UInt8], RenderError>>(count: pages.count)
        let renderer = self
        let memory = RasterMemory()
        Parallel.forEach(pages.count, workers: workers) { i in
            results[i] = Result { () throws(RenderError) -> [UInt8] in try renderer.png(pages[i], scale: scale, memory: memory) }
        }
        var out: [[UInt8]] = []
        for i in 0..<pages.count { out.append(try results[i]!.get()) }
        return out
    }

    /// A small PNG of `page`, `width` pixels wide.
    public func thumbnail(_ page: Page, width: Int = 256) throws(RenderError) -> [UInt8] {
        let scale = Double(max(8, width)) / Double(max(1, page.size.width))
        return try png(page, scale: scale)
    }

    // MARK: PDF

    /// A vector PDF with one page per page, each sized from its page (see ``PageMetrics``), then the
    /// note's typed text, when given, on pages of its own the size of the last page (see
    /// ``TypedTextLayout``), written with Cairo's PDF surface. Opaque ink is drawn as stroked
    /// centrelines grouped by colour and quantised width, everything else as filled outlines, on a grid
    /// of an eighth of a point; a page on a PDF has that PDF page under it as vectors (through
    /// poppler); the recognised text is an invisible layer (``InvisibleText``). The geometry of the
    /// next pages is made on other cores while Cairo writes one.
    public func pdf(_ pages: [Page], typedText: TypedText? = nil) throws(RenderError) -> [UInt8] {
        let info = PDFInfo(title: options.title, author: options.author, keywords: options.keywords, created: options.created)
        let sink = ByteSink()
        let document = try PDFDocument(sink: sink, info: info)
        let textSize = pages.last?.size ?? .remarkable
        let textK = pages.last.map(pointsPerUnit) ?? PageMetrics.pointsPerUnit(for: textSize, unitsPerInch: options.unitsPerInch)
        let typeset = typedText.map { TypedTextLayout.pages($0, size: textSize, pointsPerUnit: textK) } ?? []
        let total = pages.count + typeset.count
        // Each page's scale and invisible text: an ink page's recognised lines, or a text page's own.
        let layers = pages.map { (k: pointsPerUnit($0), text: options.textLayer[$0.id] ?? []) }
            + typeset.map { (k: textK, text: $0.text) }
        let renderer = self
        let scene: @Sendable (Int) -> Scene = { i in
            i < pages.count ? renderer.vectorScene(pages[i]) : typeset[i - pages.count].scene
        }
        let made = Slots<Scene>(count: total)
        let ready = (0..<total).map { _ in DispatchSemaphore(value: 0) }
        // This thread writes; the other cores make geometry, at most two pages a builder ahead of it, so
        // a long document's geometry is not all held at once. A builder takes its place in that window
        // before it takes a page, so the page the writer waits for always has one. When writing fails,
        // the builders stop rather than make the rest.
        let builders = max(1, min(workers - 1, total))
        let ahead = workers > 1 && total > 1
        let window = DispatchSemaphore(value: 2 * builders)
        let next = Parallel.Counter(), stopped = Parallel.Counter()
        let group = DispatchGroup()
        if ahead {
            DispatchQueue.global().async(group: group) {
                DispatchQueue.concurrentPerform(iterations: builders) { _ in
                    while true {
                        window.wait()
                        let i = next.take()
                        guard i < total, stopped.taken == 0 else {
                            window.signal()
                            return
                        }
                        made[i] = scene(i)
                        ready[i].signal()
                    }
                }
            }
        }
        defer {
            _ = stopped.take()
            window.signal()
            group.wait()
        }
        for i in 0..<total {
            let page: Scene
            if ahead {
                ready[i].wait()
                page = made.take(i)!
                window.signal()
            } else {
                page = scene(i)
            }
            try document.addPage(page, pointsPerUnit: layers[i].k, text: layers[i].text, backgrounds: options.backgrounds)
        }
        try document.finish()
        return sink.bytes
    }

    // MARK: SVG

    /// An SVG of `page`: the same vector geometry as the PDF, sized in points, in page units inside. A
    /// PDF page under the ink goes in as an image: embedded (``backgroundImage(_:)``, a PNG), or, with
    /// `backgroundHref`, linked from that address, which serves the same PNG (so a browser fetches and
    /// caches it once, rather than with every update of the page).
    public func svg(_ page: Page, backgroundHref: String? = nil) -> String {
        let k = pointsPerUnit(page)
        let image: SVGBackground?
        if let backgroundHref, hasBackground(page) {
            image = .href(backgroundHref)
        } else {
            image = backgroundImage(page).map(SVGBackground.png)
        }
        return SVGWriter(tolerance: options.vectorTolerance / k, pointsPerUnit: k)
            .write(vectorScene(page), background: image)
    }

    /// The SVG of `page` without its ink: the paper, the PDF page under it and the template (printed
    /// text included), as ``svg(_:backgroundHref:)`` draws them; ``svgInk(of:on:)`` draws each stroke.
    public func svgPaper(_ page: Page, backgroundHref: String? = nil) -> String {
        var paper = page
        paper.strokes = []
        return svg(paper, backgroundHref: backgroundHref)
    }

    /// One stroke of `page` as the page's SVG draws it, alone: its `<path>` elements (a stroke drawn
    /// in several pieces, dashes or runs of one width, has several), with the same geometry, colour,
    /// opacity and blend. Painted in page order over ``svgPaper(_:backgroundHref:)`` (strokes with
    /// ``isUnderInk(_:)`` first), they give the page's SVG, unless the page has eraser strokes, which
    /// change other strokes (``Erasing/apply(_:mode:)``): such a page is drawn whole. Empty for an
    /// eraser stroke or one on a hidden layer.
    public func svgInk(of stroke: Stroke, on page: Page) -> String {
        var alone = page
        alone.strokes = [stroke]
        alone.template.printed = []
        let k = pointsPerUnit(page)
        return SVGWriter(tolerance: options.vectorTolerance / k, pointsPerUnit: k).ink(vectorScene(alone))
    }

    /// All the ink of `page` (eraser strokes applied) as its SVG draws it: the `<path>` elements
    /// that go over ``svgPaper(_:backgroundHref:)``.
    public func svgInk(_ page: Page) -> String {
        var inkOnly = page
        inkOnly.template.printed = []
        let k = pointsPerUnit(page)
        return SVGWriter(tolerance: options.vectorTolerance / k, pointsPerUnit: k).ink(vectorScene(inkOnly))
    }

    /// How far the SVG of `page` may stray from the ideal curve, in page units (the geometry's tolerance).
    public func vectorTolerance(for page: Page) -> Double {
        options.vectorTolerance / pointsPerUnit(page)
    }

    /// Whether strokes of this tool are painted under all the ink (highlighters, markers).
    public func isUnderInk(_ stroke: Stroke) -> Bool {
        stroke.tool != .eraser && options.style[stroke.tool].underInk
    }

    /// Whether `page` is drawn on a PDF page these options can open.
    public func hasBackground(_ page: Page) -> Bool {
        page.template.background.map { options.backgrounds.document($0.document) != nil } ?? false
    }

    /// The PDF page under `page`'s ink alone, as a PNG of 2 pixels a point (at most 4,096 pixels a
    /// side); nil when there is none. Made once per page, paper and size, and kept with the documents.
    public func backgroundImage(_ page: Page) -> [UInt8]? {
        guard hasBackground(page), let background = page.template.background else { return nil }
        var paperOnly = Page(id: page.id, size: page.size)
        paperOnly.template.paper = page.template.paper
        paperOnly.template.background = background
        let longest = Double(max(page.size.width, page.size.height))
        let scale = min(2 * pointsPerUnit(page), 4096 / longest)
        let key = "\(background.document)/\(background.page)/\(page.size.width)x\(page.size.height)/\(page.template.paper)"
        return options.backgrounds.image(key) { try? png(paperOnly, scale: scale) }
    }

    /// An SVG of `page` that plays its writing back (SMIL, in any browser): stroke by stroke at the
    /// recorded speed, pauses longer than `maxPause` seconds shortened, ending as ``svg(_:)`` draws it.
    public func animatedSVG(_ page: Page, maxPause: Double = 1.5) -> String {
        let k = pointsPerUnit(page)
        return SVGWriter(tolerance: options.vectorTolerance / k, pointsPerUnit: k)
            .write(vectorScene(page), animation: SVGAnimation(page: page, maxPause: maxPause), background: backgroundImage(page).map(SVGBackground.png))
    }
}

// MARK: Concurrency helpers

/// Collects the bytes Cairo writes.
final class ByteSink {
    var bytes: [UInt8] = []
}
