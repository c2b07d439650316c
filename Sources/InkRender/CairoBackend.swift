import CCairo
import CPNGWriter
import Foundation
import InkCore
import InkGeometry
import InkPDF

/// Drawing a scene with Cairo. Coordinates are transformed to device units here (the context keeps
/// an identity matrix), so Cairo never multiplies them and a PDF carries short numbers.
struct CairoPainter {
    let cr: OpaquePointer
    /// Device units per page unit.
    let scale: Double
    /// Snap template rules to whole device pixels (rasters).
    let snapRules: Bool
    /// Ink coordinates are rounded to multiples of this many device units (0: not rounded). A PDF's
    /// are on an eighth of a point: Cairo prints at most three decimals, and a coarse grid prints fewer
    /// and compresses far better than arbitrary thousandths.
    var grid: Double = 0

    func setColor(_ color: RGBA, opacity: Double = 1) {
        let a = min(1, max(0, opacity))
        if a >= 1 {
            cairo_set_source_rgb(cr, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
        } else {
            cairo_set_source_rgba(cr, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255, a)
        }
    }

    func setBlend(_ blend: BlendMode) {
        switch blend {
        case .normal: cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        case .multiply: cairo_set_operator(cr, CAIRO_OPERATOR_MULTIPLY)
        case .darken: cairo_set_operator(cr, CAIRO_OPERATOR_DARKEN)
        }
    }

    /// The paper.
    func paper(_ scene: Scene) {
        setColor(scene.paper, opacity: Double(scene.paper.alpha) / 255)
        cairo_set_operator(cr, scene.paper.alpha == 255 ? CAIRO_OPERATOR_OVER : CAIRO_OPERATOR_SOURCE)
        cairo_new_path(cr)
        cairo_rectangle(cr, 0, 0, scene.width * scale, scene.height * scale)
        cairo_fill(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    }

    func template(_ layout: TemplateLayout) {
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        for weight in [TemplateLayout.Weight.rule, .structure] {
            let lines = layout.lines.filter { $0.weight == weight }
            guard !lines.isEmpty else { continue }
            var width = layout.ruleWidth * (weight == .structure ? 2 : 1) * scale
            if snapRules { width = max(1, width.rounded()) }
            func snap(_ v: Double) -> Double {
                guard snapRules else { return v * scale }
                let odd = Int(width) % 2 == 1
                return (v * scale).rounded(.down) + (odd ? 0.5 : 0)
            }
            cairo_new_path(cr)
            for line in lines {
                if line.from.y == line.to.y {
                    let y = snap(line.from.y)
                    cairo_move_to(cr, line.from.x * scale, y)
                    cairo_line_to(cr, line.to.x * scale, y)
                } else if line.from.x == line.to.x {
                    let x = snap(line.from.x)
                    cairo_move_to(cr, x, line.from.y * scale)
                    cairo_line_to(cr, x, line.to.y * scale)
                } else {
                    cairo_move_to(cr, line.from.x * scale, line.from.y * scale)
                    cairo_line_to(cr, line.to.x * scale, line.to.y * scale)
                }
            }
            cairo_set_line_width(cr, width)
            setColor(weight == .structure ? layout.structureColor : layout.ruleColor)
            cairo_stroke(cr)
        }
        if !layout.dots.isEmpty {
            // Zero-length segments with round caps: one path, one stroke, a dot each.
            cairo_new_path(cr)
            for dot in layout.dots {
                cairo_move_to(cr, dot.x * scale, dot.y * scale)
                cairo_line_to(cr, dot.x * scale, dot.y * scale)
            }
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_line_width(cr, 2 * layout.dotRadius * scale)
            setColor(layout.structureColor)
            cairo_stroke(cr)
        }
    }

    func items(_ items: [SceneItem]) {
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        for item in items {
            switch item {
            case let .fill(contours, color, opacity, blend):
                cairo_new_path(cr)
                addPath(contours, close: true)
                setBlend(blend)
                setColor(color, opacity: opacity)
                cairo_fill(cr)
            case let .stroke(contours, width, color):
                cairo_new_path(cr)
                addPath(contours, close: false)
                setBlend(.normal)
                setColor(color)
                cairo_set_line_width(cr, width * scale)
                cairo_stroke(cr)
            case let .curves(path, width, color):
                cairo_new_path(cr)
                addPath(path)
                setBlend(.normal)
                setColor(color)
                cairo_set_line_width(cr, width * scale)
                cairo_stroke(cr)
            }
        }
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    }

    /// A position in device units, on the grid when there is one.
    @inline(__always) func device(_ v: Double) -> Double {
        grid > 0 ? (v * scale / grid).rounded() * grid : v * scale
    }

    func addPath(_ contours: Contours, close: Bool) {
        contours.points.withUnsafeBufferPointer { points in
            for c in 0..<contours.count {
                let range = contours.range(c)
                guard let first = range.first else { continue }
                cairo_move_to(cr, device(points[first].x), device(points[first].y))
                for i in range.dropFirst() { cairo_line_to(cr, device(points[i].x), device(points[i].y)) }
                if close { cairo_close_path(cr) }
            }
        }
    }

    func addPath(_ path: BezierPath) {
        path.forEach { segment, p in
            switch segment {
            case .move: cairo_move_to(cr, device(p[0].x), device(p[0].y))
            case .line: cairo_line_to(cr, device(p[0].x), device(p[0].y))
            case .cubic:
                cairo_curve_to(cr, device(p[0].x), device(p[0].y), device(p[1].x), device(p[1].y), device(p[2].x), device(p[2].y))
            }
        }
    }

    /// Draws page `index` of `document` over the whole page, stretched to the page's size as Xournal++
    /// does (a PDF page and its page have the same size unless the source says otherwise). The page is
    /// recorded first (vectors, replayed as vectors into a PDF), so that a page poppler cannot draw
    /// leaves this context unharmed: it is then left out, the paper plain.
    func background(_ document: PDFPages, page index: Int, scene: Scene, printing: Bool) {
        guard document.sizes.indices.contains(index), let recording = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nil) else { return }
        defer { cairo_surface_destroy(recording) }
        let inner = cairo_create(recording)
        document.draw(page: index, into: inner!, printing: printing)
        let status = cairo_status(inner)
        cairo_destroy(inner)
        guard status == CAIRO_STATUS_SUCCESS, cairo_surface_status(recording) == CAIRO_STATUS_SUCCESS else { return }
        let size = document.sizes[index]
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_rectangle(cr, 0, 0, scene.width * scale, scene.height * scale)
        cairo_clip(cr)
        cairo_scale(cr, scene.width * scale / size.width, scene.height * scale / size.height)
        cairo_set_source_surface(cr, recording, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Paper, the PDF page under the ink (when `backgrounds` has its document), template, ink.
    func paint(_ scene: Scene, backgrounds: BackgroundDocuments = .none, printing: Bool = false) {
        paper(scene)
        if let background = scene.background, let document = backgrounds.document(background.document) {
            self.background(document, page: background.page, scene: scene, printing: printing)
        }
        template(scene.template)
        items(scene.items)
    }
}

/// Pixel memory kept between the rasters of one batch of pages. A fresh surface is memory the kernel
/// maps and zeroes a page at a time as it is first written (an A4 page at 2x is 42 MB, 10,000 faults:
/// a fifth of a PNG page's CPU in `perf`); memory used again is not faulted in again, and is zeroed
/// only when the page's paper will not cover every pixel.
final class RasterMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var spare: [UnsafeMutableRawBufferPointer] = []

    /// Memory of at least `count` bytes, zeroed when `zeroed` (new memory always is): a spare block
    /// when one is large enough, else new.
    func take(_ count: Int, zeroed: Bool) -> UnsafeMutableRawBufferPointer? {
        lock.lock()
        let index = spare.firstIndex { $0.count >= count }
        let reused = index.map { spare.remove(at: $0) }
        lock.unlock()
        if let reused {
            if zeroed { memset(reused.baseAddress!, 0, count) }
            return reused
        }
        guard let fresh = calloc(count, 1) else { return nil }
        return UnsafeMutableRawBufferPointer(start: fresh, count: count)
    }

    /// Gives back memory from ``take(_:)`` for the next raster.
    func give(_ memory: UnsafeMutableRawBufferPointer) {
        lock.lock()
        spare.append(memory)
        lock.unlock()
    }

    deinit { for memory in spare { free(memory.baseAddress) } }
}

/// A raster of a scene.
struct Raster {
    let surface: OpaquePointer
    let width: Int
    let height: Int
    let opaque: Bool
    /// Where the pixels live when they came from a ``RasterMemory`` (given back by ``destroy()``).
    private let pixels: (memory: RasterMemory, block: UnsafeMutableRawBufferPointer)?

    /// Paints `scene` at `scale` device pixels per page unit. Below 2x edges get Cairo's exact area
    /// coverage; at 2x and above its 4×4 supersampling, which looks the same there at half the cost.
    /// With `memory`, the pixels are kept in (and given back to) it; else Cairo allocates them.
    init(_ scene: Scene, scale: Double, backgrounds: BackgroundDocuments = .none, memory: RasterMemory? = nil) throws(RenderError) {
        width = max(1, Int((scene.width * scale).rounded()))
        height = max(1, Int((scene.height * scale).rounded()))
        opaque = scene.paper.alpha == 255
        guard width <= 32767, height <= 32767 else { throw RenderError.tooLarge(width: width, height: height) }
        let format = opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32
        let stride = Int(cairo_format_stride_for_width(format, Int32(width)))
        // Opaque paper over whole pixels paints every one of them over what the memory held before.
        let paperCoversAll = opaque && scene.width * scale == Double(width) && scene.height * scale == Double(height)
        if let memory, stride > 0, let block = memory.take(stride * height, zeroed: !paperCoversAll) {
            pixels = (memory, block)
            surface = cairo_image_surface_create_for_data(block.baseAddress!.assumingMemoryBound(to: UInt8.self), format,
                                                          Int32(width), Int32(height), Int32(stride))
        } else {
            pixels = nil
            surface = cairo_image_surface_create(format, Int32(width), Int32(height))
        }
        if let error = RenderError.cairo(cairo_surface_status(surface), "creating a \(width)×\(height) image") {
            destroy()
            throw error
        }
        let cr = cairo_create(surface)!
        cairo_set_antialias(cr, scale >= 2 ? CAIRO_ANTIALIAS_FAST : CAIRO_ANTIALIAS_DEFAULT)
        CairoPainter(cr: cr, scale: scale, snapRules: true).paint(scene, backgrounds: backgrounds)
        let status = cairo_status(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        if let error = RenderError.cairo(status, "drawing") {
            destroy()
            throw error
        }
    }

    func destroy() {
        cairo_surface_destroy(surface)
        if let pixels { pixels.memory.give(pixels.block) }
    }

    /// Encodes the raster as PNG with libpng's fast settings: zlib level 1, no row filter; 8-bit grey
    /// (run-length deflate, a third of the data) when `gray`, else RGB (RGBA when not opaque).
    func png(dpi: Double = 0, gray: Bool = false) throws(RenderError) -> [UInt8] {
        let strategy: Int32 = gray && opaque ? 1 : 0
        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let format = !opaque ? Int32(INKPNG_RGBA) : gray ? Int32(INKPNG_GRAY) : Int32(INKPNG_RGB)
        let status = inkpng_encode(data, Int32(width), Int32(height), stride, format, 1, 0, strategy, dpi,
                                   &out, &length, &message, message.count)
        guard status == 0, let out else {
            throw RenderError.png(String(nulTerminated: message))
        }
        defer { inkpng_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }

    /// The pixel at (x, y) as RGBA (un-premultiplied), for tests.
    func pixel(x: Int, y: Int) -> RGBA {
        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        let value = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        let a = opaque ? 255 : UInt32(value >> 24)
        func channel(_ shift: UInt32) -> UInt8 {
            let c = (value >> shift) & 0xFF
            return UInt8(a == 0 ? 0 : min(255, (c * 255 + a / 2) / a))
        }
        return RGBA(red: channel(16), green: channel(8), blue: channel(0), alpha: UInt8(a))
    }
}

/// A PDF document being written page by page.
final class PDFDocument {
    private let surface: OpaquePointer
    private let cr: OpaquePointer
    private var finished = false

    private let sink: ByteSink

    init(sink: ByteSink, info: PDFInfo) throws(RenderError) {
        self.sink = sink
        surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque(), 595.28, 841.89)
        if let error = RenderError.cairo(cairo_surface_status(surface), "creating a PDF") {
            cairo_surface_destroy(surface)
            throw error
        }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Inkwell")
        if let title = info.title { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title) }
        if let author = info.author { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, author) }
        if !info.keywords.isEmpty {
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_KEYWORDS, info.keywords.joined(separator: ", "))
        }
        if let created = info.created {
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, PDFInfo.isoDate(created))
        }
        cr = cairo_create(surface)
    }

    /// Adds a page: paper, the PDF page under it, template, ink, and the invisible text over them.
    func addPage(_ scene: Scene, pointsPerUnit k: Double, text: [TextLine], backgrounds: BackgroundDocuments) throws(RenderError) {
        cairo_pdf_surface_set_size(surface, scene.width * k, scene.height * k)
        CairoPainter(cr: cr, scale: k, snapRules: false, grid: 0.125).paint(scene, backgrounds: backgrounds, printing: true)
        if !text.isEmpty { InvisibleText.draw(text, scale: k, into: cr) }
        cairo_show_page(cr)
        if let error = RenderError.cairo(cairo_status(cr), "writing a PDF page") { throw error }
    }

    func finish() throws(RenderError) {
        guard !finished else { return }
        finished = true
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        if let error = RenderError.cairo(status, "finishing the PDF") { throw error }
    }

    deinit {
        if !finished {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
    }
}
