import Foundation
import InkCore
import InkGeometry

/// The PDF page under an SVG page's ink: a PNG embedded, or the address of one.
enum SVGBackground {
    case png([UInt8])
    case href(String)
}

/// A page's writing as it happened: each stroke's centreline with when it starts and how long it took,
/// in seconds from the first pen down (pauses between strokes shortened), and when all is written.
struct SVGAnimation {
    struct Line {
        var points: [V2]
        var width: Double
        var color: RGBA
        var opacity: Double
        var begin: Double
        var duration: Double
    }
    var lines: [Line]
    var end: Double

    /// The timeline of `page`'s ink strokes (erasers act when the finished ink appears), pauses longer
    /// than `maxPause` seconds shortened to it.
    init(page: Page, maxPause: Double) {
        var cursor = 0.0
        var previousEnd: Double?
        lines = []
        for stroke in page.strokes.sorted(by: { $0.startTime < $1.startTime }) where stroke.tool != .eraser {
            let start = stroke.startTime / 1000
            let duration = max(0.05, Double(stroke.points.last?.time ?? 0) / 1000)
            let pause = previousEnd.map { min(maxPause, max(0, start - $0)) } ?? 0
            let begin = cursor + pause
            let points = stroke.points.map { V2(Double($0.x), Double($0.y)) }.filter { $0.x.isFinite && $0.y.isFinite }
            guard !points.isEmpty else { continue }
            lines.append(Line(points: points.count == 1 ? [points[0], points[0]] : points, width: Double(max(0.5, stroke.width)),
                              color: stroke.color, opacity: stroke.tool == .highlighter ? 0.35 : 1, begin: begin, duration: duration))
            cursor = begin + duration
            previousEnd = start + duration
        }
        end = cursor
    }
}

/// Writes a vector scene as SVG 1.1 (with CSS blend modes for highlighters and pencil).
struct SVGWriter {
    /// Digits after the decimal point in coordinates.
    let decimals: Int
    let pointsPerUnit: Double

    init(tolerance: Double, pointsPerUnit: Double) {
        // Coordinates are rounded to a step no coarser than half the tolerance.
        var d = 0
        var step = 1.0
        while step > tolerance / 2, d < 3 {
            d += 1
            step /= 10
        }
        decimals = d
        self.pointsPerUnit = pointsPerUnit
    }

    func write(_ scene: Scene, animation: SVGAnimation? = nil, background: SVGBackground? = nil) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(scene.pointCount * 7 + 4096)
        func text(_ s: String) { out.append(contentsOf: s.utf8) }
        func number(_ v: Double) { appendNumber(v, to: &out) }

        text("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        text("<svg xmlns=\"http://www.w3.org/2000/svg\"")
        if background != nil { text(" xmlns:xlink=\"http://www.w3.org/1999/xlink\"") }
        text(" version=\"1.1\" width=\"")
        appendNumber(scene.width * pointsPerUnit, to: &out, decimals: 2)
        text("pt\" height=\"")
        appendNumber(scene.height * pointsPerUnit, to: &out, decimals: 2)
        text("pt\" viewBox=\"0 0 ")
        number(scene.width)
        text(" ")
        number(scene.height)
        text("\">\n<g style=\"isolation:isolate\">\n")

        // Paper.
        text("<rect width=\"")
        number(scene.width)
        text("\" height=\"")
        number(scene.height)
        text("\" fill=\"\(hex(scene.paper))\"")
        if scene.paper.alpha < 255 { text(" fill-opacity=\"\(opacity(Double(scene.paper.alpha) / 255))\"") }
        text("/>\n")
        if let background {
            text("<image x=\"0\" y=\"0\" width=\"")
            number(scene.width)
            text("\" height=\"")
            number(scene.height)
            text("\" preserveAspectRatio=\"none\" xlink:href=\"")
            switch background {
            case .png(let bytes): text("data:image/png;base64," + Data(bytes).base64EncodedString())
            case .href(let address): text(address.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;"))
            }
            text("\"/>\n")
        }

        // Template.
        let layout = scene.template
        for weight in [TemplateLayout.Weight.rule, .structure] {
            let lines = layout.lines.filter { $0.weight == weight }
            guard !lines.isEmpty else { continue }
            text("<path fill=\"none\" stroke=\"\(hex(weight == .structure ? layout.structureColor : layout.ruleColor))\" stroke-width=\"")
            number(layout.ruleWidth * (weight == .structure ? 2 : 1))
            text("\" d=\"")
            for line in lines {
                text("M")
                number(line.from.x)
                text(" ")
                number(line.from.y)
                text("L")
                number(line.to.x)
                text(" ")
                number(line.to.y)
            }
            text("\"/>\n")
        }
        if !layout.dots.isEmpty {
            text("<path fill=\"none\" stroke=\"\(hex(layout.structureColor))\" stroke-linecap=\"round\" stroke-width=\"")
            number(2 * layout.dotRadius)
            text("\" d=\"")
            for dot in layout.dots {
                text("M")
                number(dot.x)
                text(" ")
                number(dot.y)
                text("h0")
            }
            text("\"/>\n")
        }

        // The writing played back: each stroke's centreline drawn over its own duration, then the ink as
        // it exports replaces them all.
        if let animation {
            text("<g>\n<set attributeName=\"visibility\" to=\"hidden\" begin=\"")
            number(animation.end)
            text("s\" fill=\"freeze\"/>\n")
            for line in animation.lines {
                text("<path fill=\"none\" stroke=\"\(hex(line.color))\"")
                if line.opacity < 1 { text(" stroke-opacity=\"\(opacity(line.opacity))\"") }
                text(" stroke-linecap=\"round\" stroke-linejoin=\"round\" stroke-width=\"")
                number(line.width)
                text("\" pathLength=\"1\" stroke-dasharray=\"1 1\" stroke-dashoffset=\"1\" d=\"")
                var contours = Contours()
                contours.begin()
                for point in line.points { contours.add(point) }
                contours.finish(minimum: 1)
                path(contours, close: false, into: &out)
                text("\"><animate attributeName=\"stroke-dashoffset\" from=\"1\" to=\"0\" begin=\"")
                appendNumber(line.begin, to: &out, decimals: 3)
                text("s\" dur=\"")
                appendNumber(line.duration, to: &out, decimals: 3)
                text("s\" fill=\"freeze\"/></path>\n")
            }
            text("</g>\n<g visibility=\"hidden\">\n<set attributeName=\"visibility\" to=\"visible\" begin=\"")
            number(animation.end)
            text("s\" fill=\"freeze\"/>\n")
        }

        writeInk(scene.items, into: &out)
        if animation != nil { text("</g>\n") }
        text("</g>\n</svg>\n")
        return String(decoding: out, as: UTF8.self)
    }

    /// Just the ink of `scene`: its `<path>` elements, one a line, as ``write(_:animation:background:)``
    /// puts them in a page (a browser adds one stroke's to a page it shows).
    func ink(_ scene: Scene) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(scene.pointCount * 7 + 256)
        writeInk(scene.items, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func writeInk(_ items: [SceneItem], into out: inout [UInt8]) {
        func text(_ s: String) { out.append(contentsOf: s.utf8) }
        for item in items {
            switch item {
            case let .fill(contours, color, alpha, blend):
                text("<path fill=\"\(hex(color))\"")
                if alpha < 1 { text(" fill-opacity=\"\(opacity(alpha))\"") }
                if let name = blend.cssName { text(" style=\"mix-blend-mode:\(name)\"") }
                text(" d=\"")
                path(contours, close: true, into: &out)
                text("\"/>\n")
            case let .stroke(contours, width, color):
                text("<path fill=\"none\" stroke=\"\(hex(color))\" stroke-linecap=\"round\" stroke-linejoin=\"round\" stroke-width=\"")
                appendNumber(width, to: &out, decimals: decimals + 1)
                text("\" d=\"")
                path(contours, close: false, into: &out)
                text("\"/>\n")
            case let .curves(curves, width, color):
                text("<path fill=\"none\" stroke=\"\(hex(color))\" stroke-linecap=\"round\" stroke-linejoin=\"round\" stroke-width=\"")
                appendNumber(width, to: &out, decimals: decimals + 1)
                text("\" d=\"")
                path(curves, into: &out)
                text("\"/>\n")
            }
        }
    }

    /// `M x y l dx dy dx dy …` with deltas between rounded positions, so rounding never drifts.
    private func path(_ contours: Contours, close: Bool, into out: inout [UInt8]) {
        let factor = pow10(decimals)
        for c in 0..<contours.count {
            let range = contours.range(c)
            guard let first = range.first else { continue }
            var px = (contours.points[first].x * factor).rounded()
            var py = (contours.points[first].y * factor).rounded()
            out.append(UInt8(ascii: "M"))
            appendScaled(Int(px), to: &out)
            out.append(UInt8(ascii: " "))
            appendScaled(Int(py), to: &out)
            var wroteL = false
            for i in range.dropFirst() {
                let x = (contours.points[i].x * factor).rounded(), y = (contours.points[i].y * factor).rounded()
                let dx = Int(x - px), dy = Int(y - py)
                if dx == 0 && dy == 0 && !(range.count == 2 && !close) { continue }
                if !wroteL { out.append(UInt8(ascii: "l")); wroteL = true } else if dx >= 0 { out.append(UInt8(ascii: " ")) }
                appendScaled(dx, to: &out)
                if dy >= 0 { out.append(UInt8(ascii: " ")) }
                appendScaled(dy, to: &out)
                px = x
                py = y
            }
            if close { out.append(UInt8(ascii: "z")) }
        }
    }

    /// `M x y l dx dy c dx1 dy1 dx2 dy2 dx dy …`: deltas from the rounded current point, so rounding
    /// never drifts.
    private func path(_ curves: BezierPath, into out: inout [UInt8]) {
        let factor = pow10(decimals)
        var px = 0.0, py = 0.0
        var last: UInt8 = 0
        func delta(_ p: V2) {
            let x = (p.x * factor).rounded(), y = (p.y * factor).rounded()
            let dx = Int(x - px), dy = Int(y - py)
            if dx >= 0, out.last.map({ $0 != UInt8(ascii: "l") && $0 != UInt8(ascii: "c") }) ?? false { out.append(UInt8(ascii: " ")) }
            appendScaled(dx, to: &out)
            if dy >= 0 { out.append(UInt8(ascii: " ")) }
            appendScaled(dy, to: &out)
        }
        curves.forEach { segment, p in
            switch segment {
            case .move:
                px = (p[0].x * factor).rounded()
                py = (p[0].y * factor).rounded()
                out.append(UInt8(ascii: "M"))
                appendScaled(Int(px), to: &out)
                out.append(UInt8(ascii: " "))
                appendScaled(Int(py), to: &out)
                last = UInt8(ascii: "M")
            case .line, .cubic:
                let command = segment == .line ? UInt8(ascii: "l") : UInt8(ascii: "c")
                if command != last {
                    out.append(command)
                    last = command
                }
                for point in p { delta(point) }
                px = (p[p.count - 1].x * factor).rounded()
                py = (p[p.count - 1].y * factor).rounded()
            }
        }
    }

    private func pow10(_ n: Int) -> Double { [1.0, 10, 100, 1000, 10000][min(4, max(0, n))] }

    /// Writes `value / 10^decimals` with trailing zeros dropped ("-1.5", "12", "0.25").
    private func appendScaled(_ value: Int, to out: inout [UInt8], decimals: Int? = nil) {
        let d = decimals ?? self.decimals
        var v = value
        if v < 0 { out.append(UInt8(ascii: "-")); v = -v }
        var divisor = 1
        for _ in 0..<d { divisor *= 10 }
        let whole = v / divisor
        var fraction = v % divisor
        out.append(contentsOf: String(whole).utf8)
        guard fraction > 0 else { return }
        var digits = d
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        out.append(UInt8(ascii: "."))
        let text = String(fraction)
        for _ in 0..<(digits - text.count) { out.append(UInt8(ascii: "0")) }
        out.append(contentsOf: text.utf8)
    }

    private func appendNumber(_ value: Double, to out: inout [UInt8], decimals: Int? = nil) {
        let d = decimals ?? self.decimals
        appendScaled(Int((value * pow10(d)).rounded()), to: &out, decimals: d)
    }

    private func hex(_ color: RGBA) -> String {
        String(color.description.prefix(7))
    }

    private func opacity(_ value: Double) -> String {
        var out: [UInt8] = []
        appendNumber(value, to: &out, decimals: 3)
        return String(decoding: out, as: UTF8.self)
    }
}
