import CCairo
import Foundation
import InkCore
import InkGeometry

/// How ink is drawn for OCR.
public enum OCRPen: Sendable, Hashable {
    /// Each stroke's centreline stroked with round caps and joins at one uniform width (raster
    /// pixels), whatever the pressure and tool: clean, even letters.
    case centerline(width: Double)
    /// Each stroke's centreline with round caps and joins, `width` raster pixels at the line's median
    /// pressure and `width × clamp(0.5 + 0.5·p/median, 0.5, 1.5)` elsewhere: the pen's own rhythm,
    /// kept within bounds so that a light touch still reads.
    case pressure(width: Double)
    /// InkRender's pressure outline of each stroke with the ``StrokeStyle``, its nominal width set so
    /// that full pressure is `width` raster pixels; filled.
    case outline(width: Double, style: StrokeStyle)

    var width: Double {
        switch self {
        case let .centerline(width), let .pressure(width), let .outline(width, _): width
        }
    }
}

/// An 8-bit grey image of some strokes for Tesseract: dark ink on white paper.
struct OCRRaster {
    var width: Int
    var height: Int
    var bytesPerLine: Int
    var pixels: [UInt8]
    /// Page position of the raster's top-left corner.
    var origin: Vector
    /// Raster pixels per page pixel, upright.
    var scale: Double
    /// Across, the raster has `scale × stretch` pixels per page pixel: ink widened (or narrowed) for a reader.
    var stretch = 1.0
    /// The ink was drawn upright: page x became `x - shear * (y - shearOrigin)`.
    var shear = 0.0
    var shearOrigin = 0.0

    /// The page rectangle of raster pixels `left…right`, `top…bottom` (shifted back by the shear
    /// at its middle height).
    func pageRect(left: Int, top: Int, right: Int, bottom: Int) -> Rect {
        let minY = origin.y + Double(top) / scale, maxY = origin.y + Double(bottom) / scale
        let shift = shear * ((minY + maxY) / 2 - shearOrigin)
        return Rect(minX: origin.x + Double(left) / (scale * stretch) + shift, minY: minY,
                    maxX: origin.x + Double(right) / (scale * stretch) + shift, maxY: maxY)
    }

    /// The bounds of `strokes` after the shear `x - shear * (y - origin)`.
    static func shearedBounds(_ page: [Stroke], strokes: [Int], shear: Double, origin: Double) -> Rect {
        var rect = Rect.null
        for index in strokes {
            for point in page[index].points where point.x.isFinite && point.y.isFinite {
                let y = Double(point.y), x = Double(point.x) - shear * (y - origin)
                rect = rect.union(Rect(minX: x, minY: y, maxX: x, maxY: y))
            }
        }
        return rect
    }

    /// Largest raster side we draw; larger requests are scaled down to fit.
    static let maxSide = 16_000

    /// Draws `strokes` (indices into `page`) into a raster covering `region` (page pixels) plus
    /// `padding` raster pixels on every side, at `scale` raster pixels per page pixel (`scale × stretch` across;
    /// the pen keeps its width in raster pixels).
    static func draw(_ page: [Stroke], strokes: [Int], region: Rect, scale requested: Double, padding: Int,
                     pen: OCRPen, antialias: Bool = true, shear: Double = 0, shearOrigin: Double = 0,
                     stretch: Double = 1) throws(RecognitionError) -> OCRRaster {
        guard !region.isNull, region.width.isFinite, region.height.isFinite, requested.isFinite, requested > 0,
              stretch.isFinite, stretch > 0 else {
            throw .rasterFailed("no drawable region")
        }
        var scale = requested
        let longest = max(region.width * stretch, region.height) * scale + Double(2 * padding)
        if longest > Double(maxSide) { scale *= Double(maxSide - 2 * padding) / (longest - Double(2 * padding)) }
        guard scale.isFinite, scale > 0 else { throw .rasterFailed("no drawable region") }
        let across = scale * stretch
        let width = Int((region.width * across).rounded(.up)) + 2 * padding + 1
        let height = Int((region.height * scale).rounded(.up)) + 2 * padding + 1
        guard width > 0, height > 0, width <= maxSide + 1, height <= maxSide + 1 else {
            throw .rasterFailed("raster of \(width)×\(height) pixels")
        }
        let origin = Vector(x: region.minX - Double(padding) / across, y: region.minY - Double(padding) / scale)

        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw .rasterFailed("Cairo cannot make a \(width)×\(height) surface")
        }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { throw .rasterFailed("Cairo cannot draw on its surface") }
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        cairo_set_antialias(cr, antialias ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
        func x(_ v: Float, _ w: Float) -> Double { (Double(v) - shear * (Double(w) - shearOrigin) - origin.x) * across }
        func y(_ v: Float) -> Double { (Double(v) - origin.y) * scale }

        switch pen {
        case let .centerline(penWidth):
            cairo_set_line_width(cr, penWidth)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_new_path(cr)
            for index in strokes {
                var first = true
                var last: (Double, Double) = (0, 0)
                for point in page[index].points where point.x.isFinite && point.y.isFinite {
                    let p = (x(point.x, point.y), y(point.y))
                    if first {
                        cairo_move_to(cr, p.0, p.1)
                        first = false
                    } else if abs(p.0 - last.0) + abs(p.1 - last.1) >= 0.25 {
                        cairo_line_to(cr, p.0, p.1)
                    } else {
                        continue
                    }
                    last = p
                }
                // A dot (or a stroke that never moved) still gets a round cap: a zero-length segment.
                if !first { cairo_line_to(cr, last.0, last.1) }
            }
            cairo_stroke(cr)
        case let .pressure(penWidth):
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            let pressures = strokes.flatMap { page[$0].points.map { Double($0.pressure) } }.filter { $0.isFinite && $0 > 0 }
            let typical = median(pressures)
            // Pieces of one width go into one path; widths are rounded to a quarter pixel.
            func width(_ pressure: Float) -> Double {
                guard typical > 0, pressure.isFinite else { return penWidth }
                let factor = min(1.5, max(0.5, 0.5 + 0.5 * Double(pressure) / typical))
                return (penWidth * factor * 4).rounded() / 4
            }
            for index in strokes {
                let points = page[index].points.filter { $0.x.isFinite && $0.y.isFinite }
                guard let first = points.first else { continue }
                var last = (x(first.x, first.y), y(first.y))
                var current = width(first.pressure)
                cairo_set_line_width(cr, current)
                cairo_new_path(cr)
                cairo_move_to(cr, last.0, last.1)
                cairo_line_to(cr, last.0, last.1)
                for point in points.dropFirst() {
                    let p = (x(point.x, point.y), y(point.y))
                    guard abs(p.0 - last.0) + abs(p.1 - last.1) >= 0.25 else { continue }
                    let w = width(point.pressure)
                    if w != current {
                        cairo_stroke(cr)
                        current = w
                        cairo_set_line_width(cr, w)
                        cairo_move_to(cr, last.0, last.1)
                    }
                    cairo_line_to(cr, p.0, p.1)
                    last = p
                }
                cairo_stroke(cr)
            }
        case let .outline(penWidth, style):
            let resolution = OutlineResolution.raster(scale: scale)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
            cairo_new_path(cr)
            for index in strokes {
                var stroke = page[index]
                stroke.width = Float(penWidth / scale)
                for polygon in StrokeGeometry.outline(of: stroke, style: style, resolution: resolution).polygons {
                    guard let first = polygon.first else { continue }
                    cairo_move_to(cr, (first.x - shear * (first.y - shearOrigin) - origin.x) * across, (first.y - origin.y) * scale)
                    for p in polygon.dropFirst() {
                        cairo_line_to(cr, (p.x - shear * (p.y - shearOrigin) - origin.x) * across, (p.y - origin.y) * scale)
                    }
                    cairo_close_path(cr)
                }
            }
            cairo_fill(cr)
        }
        let status = cairo_status(cr)
        cairo_destroy(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw .rasterFailed("Cairo error \(status.rawValue)") }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { throw .rasterFailed("Cairo surface has no pixels") }
        // Coverage (alpha) to grey: paper 255, full ink 0.
        let pixels = [UInt8](unsafeUninitializedCapacity: stride * height) { buffer, count in
            for i in 0..<(stride * height) { buffer[i] = 255 &- data[i] }
            count = stride * height
        }
        return OCRRaster(width: width, height: height, bytesPerLine: stride, pixels: pixels, origin: origin, scale: scale,
                         stretch: stretch, shear: shear, shearOrigin: shearOrigin)
    }

    /// The raster as a PNG file (for the CLI baseline and for looking at what Tesseract sees).
    func writePNG(to path: String) throws(RecognitionError) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else { throw .rasterFailed("Cairo cannot make a \(width)×\(height) surface") }
        defer { cairo_surface_destroy(surface) }
        let stride = Int(cairo_image_surface_get_stride(surface))
        data.withMemoryRebound(to: UInt32.self, capacity: stride / 4 * height) { rgb in
            for row in 0..<height {
                for column in 0..<width {
                    let g = UInt32(pixels[row * bytesPerLine + column])
                    rgb[row * stride / 4 + column] = 0xFF00_0000 | g << 16 | g << 8 | g
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else { throw .rasterFailed("cannot write \(path) (Cairo error \(status.rawValue))") }
    }
}
