import Foundation
import InkCore
import InkGeometry

/// What a backend paints, in order, in page units: the pure half of rendering. Building it does all
/// the geometry; the backends (Cairo raster, Cairo PDF, SVG) only turn it into drawing calls.
struct Scene: Sendable {
    var width: Double
    var height: Double
    var paper: RGBA
    /// The PDF page drawn on the paper, under the template and the ink.
    var background: PageBackground?
    var template: TemplateLayout
    var items: [SceneItem]

    /// True when every colour painted is a grey (red = green = blue): then so is every pixel, since
    /// Cairo blends the channels alike, and a PNG can be 8-bit grey.
    var isGray: Bool {
        func gray(_ c: RGBA) -> Bool { c.red == c.green && c.green == c.blue }
        guard gray(paper), background == nil else { return false }
        if !template.lines.isEmpty, !gray(template.ruleColor) || !gray(template.structureColor) { return false }
        if !template.dots.isEmpty, !gray(template.structureColor) { return false }
        return items.allSatisfy { item in
            switch item {
            case .fill(_, let color, _, _), .stroke(_, _, let color), .curves(_, _, let color): gray(color)
            }
        }
    }

    /// Points over all items (a measure of the work a backend will do).
    var pointCount: Int {
        items.reduce(0) { total, item in
            switch item {
            case .fill(let c, _, _, _), .stroke(let c, _, _): total + c.points.count
            case .curves(let path, _, _): total + path.points.count
            }
        }
    }
}

enum SceneItem: Sendable {
    /// Closed contours filled together with the nonzero rule.
    case fill(Contours, color: RGBA, opacity: Double, blend: BlendMode)
    /// Open polylines stroked with one width (page units), round caps and joins, opaque paint.
    case stroke(Contours, width: Double, color: RGBA)
    /// Open curves stroked the same way: vector ink, fitted to its centreline.
    case curves(BezierPath, width: Double, color: RGBA)
}

/// What the geometry is for: a raster (`scale` device pixels per page unit) or a vector file (polygons
/// within `tolerance` page units of the curve, opaque ink as stroked centrelines).
enum SceneTarget: Hashable, Sendable {
    case raster(scale: Double)
    case vector(tolerance: Double)
}

extension Scene {
    /// Widths of stroked runs are multiples of the tolerance, so strokes share groups; a run's width is
    /// within twice the tolerance of the stroke's (the ink's edge within the tolerance), and each run is
    /// as long as that allows, so a stroke whose width wanders is not cut into slivers.
    static func widthStep(tolerance: Double) -> Double { tolerance }
    static let pencilLevels = 8

    /// The text printed on a page's paper, in the Hershey roman font, stroked in page units.
    static func printed(_ lines: [PrintedLine]) -> [SceneItem] {
        guard !lines.isEmpty else { return [] }
        let font = HersheyText(font: .romanSimplex)
        return lines.compactMap { line in
            var contours = Contours()
            let size = Double(line.size)
            _ = font.draw(line.text, x: Double(line.x), baseline: Double(line.baseline), size: size) { points, _ in
                contours.begin()
                for point in points { contours.add(point) }
            }
            guard !contours.isEmpty else { return nil }
            return .stroke(contours, width: HersheyText.strokeWidth(size: size, weight: line.bold ? 1.6 : 1), color: line.color)
        }
    }

    init(page original: Page, style: InkStyle, eraserMode: EraserMode, target: SceneTarget) {
        // Hidden layers are kept on the page and in exports to InkML, never drawn (their erasers neither).
        let page = Erasing.apply(original.visible, mode: eraserMode)
        width = Double(page.size.width)
        height = Double(page.size.height)
        paper = page.template.paper
        background = page.template.background
        template = TemplateLayout(page.template, size: page.size)
        // Text printed on the paper first: highlighters and ink go over it.
        items = Scene.printed(page.template.printed)

        let resolution: OutlineResolution
        let vector: Bool
        switch target {
        case .raster(let scale):
            resolution = .raster(scale: scale)
            vector = false
        case .vector(let tolerance):
            resolution = OutlineResolution(tolerance: tolerance)
            vector = true
        }

        // Highlighters and markers first, under all the ink; each stroke is one fill so its own
        // overlaps never darken.
        for original in page.strokes where original.tool != .eraser && style[original.tool].underInk && !original.points.isEmpty {
            let look = style[original.tool]
            var contours = Contours()
            for stroke in Dashing.pieces(of: original) {
                StrokeGeometry.appendOutline(points: stroke.points, width: Double(stroke.width), style: look.stroke,
                                             resolution: resolution, to: &contours)
            }
            // A filled highlighter: its area and its line in one fill, at the fill's opacity (as Xournal++
            // masks both and blends them once).
            var opacity = Scene.opacity(original.color, look)
            if let area = Scene.fillArea(original) {
                Scene.appendWindingAlike(area, to: &contours)
                opacity = Double(original.fill ?? 255) / 255
            }
            if contours.isEmpty { continue }
            items.append(.fill(contours, color: Scene.opaque(original.color), opacity: opacity, blend: look.blend))
        }

        // Then the ink in drawing order. Consecutive opaque strokes of one colour are order-free
        // (painting them in any order gives the same pixels), so they are batched: one fill for a
        // raster, stroked runs grouped by quantised width for vectors. Pencil strokes batch too
        // (darken is order-free), one fill per darkness step.
        enum Batch: Equatable { case none, ink(RGBA), pencil(RGBA) }
        var batch = Batch.none
        var inkFill = Contours()
        var inkRuns: [Int: BezierPath] = [:]
        var pencil: [Int: Contours] = [:]

        func flush() {
            switch batch {
            case .none:
                break
            case .ink(let color):
                if !inkFill.isEmpty { items.append(.fill(inkFill, color: color, opacity: 1, blend: .normal)) }
                for key in inkRuns.keys.sorted() {
                    items.append(.curves(inkRuns[key]!, width: Double(key) * Scene.widthStep(tolerance: resolution.tolerance), color: color))
                }
            case .pencil(let color):
                for level in pencil.keys.sorted() {
                    let shade = Scene.mixWithWhite(color, amount: Scene.pencilOpacity(level, style.pencil))
                    items.append(.fill(pencil[level]!, color: shade, opacity: 1, blend: style.pencil.blend))
                }
            }
            inkFill = Contours()
            inkRuns = [:]
            pencil = [:]
            batch = .none
        }

        for original in page.strokes where original.tool != .eraser && !style[original.tool].underInk && !original.points.isEmpty {
            let look = style[original.tool]
            if let area = Scene.fillArea(original) {
                flush()
                items.append(.fill(area, color: Scene.opaque(original.color), opacity: Double(original.fill ?? 255) / 255, blend: .normal))
            }
            // A dashed stroke is drawn as its dashes; everything else about it is the stroke's.
            let pieces = Dashing.pieces(of: original)
            if let range = look.pressureOpacity {
                let opaqueColor = Scene.opaque(original.color)
                if batch != .pencil(opaqueColor) { flush(); batch = .pencil(opaqueColor) }
                for stroke in pieces {
                    let spines = StrokeGeometry.spines(points: stroke.points, width: Double(stroke.width), style: look.stroke, resolution: resolution)
                    for spine in spines {
                        Scene.appendPencilRuns(spine, range: range, curve: look.stroke.pressureCurve,
                                               tolerance: resolution.tolerance, into: &pencil)
                    }
                }
            } else if original.color.alpha == 255 && look.opacity >= 1 && look.blend == .normal {
                if batch != .ink(original.color) { flush(); batch = .ink(original.color) }
                for stroke in pieces {
                    if vector {
                        let spines = StrokeGeometry.spines(points: stroke.points, width: Double(stroke.width), style: look.stroke, resolution: resolution)
                        for spine in spines { Scene.appendRuns(spine, tolerance: resolution.tolerance, into: &inkRuns) }
                    } else {
                        StrokeGeometry.appendOutline(points: stroke.points, width: Double(stroke.width), style: look.stroke,
                                                     resolution: resolution, to: &inkFill)
                    }
                }
            } else {
                // Translucent: one fill for all of the stroke (its dashes too), so overlaps never darken.
                flush()
                var contours = Contours()
                for stroke in pieces {
                    StrokeGeometry.appendOutline(points: stroke.points, width: Double(stroke.width), style: look.stroke,
                                                 resolution: resolution, to: &contours)
                }
                if !contours.isEmpty {
                    items.append(.fill(contours, color: original.color, opacity: Scene.opacity(original.color, look), blend: look.blend))
                }
            }
        }
        flush()
    }

    /// The area a filled stroke outlines (its points, closed); nil for a stroke without fill or area.
    /// A pen's is painted in its colour at the fill's opacity under its line (as Xournal++ does).
    static func fillArea(_ stroke: Stroke) -> Contours? {
        guard stroke.fill != nil, stroke.points.count >= 3 else { return nil }
        var polygon = Contours()
        polygon.begin()
        for point in stroke.points { polygon.add(V2(Double(point.x), Double(point.y))) }
        return polygon
    }

    /// `color` without its alpha.
    static func opaque(_ color: RGBA) -> RGBA { RGBA(red: color.red, green: color.green, blue: color.blue) }

    /// Adds `area` to `contours`, reversed if need be so that it winds as the outlines do: filled
    /// together with the nonzero rule, the area and the line then make one shape (no hole where they meet).
    static func appendWindingAlike(_ area: Contours, to contours: inout Contours) {
        func signedArea(_ c: Contours, _ index: Int) -> Double {
            let range = c.range(index)
            guard !range.isEmpty else { return 0 }
            var sum = 0.0
            var previous = c.points[range.upperBound - 1]
            for i in range {
                let p = c.points[i]
                sum += previous.x * p.y - p.x * previous.y
                previous = p
            }
            return sum / 2
        }
        let outline = (0..<contours.count).map { signedArea(contours, $0) }.max { abs($0) < abs($1) } ?? 1
        var added = area
        if (signedArea(area, 0) < 0) != (outline < 0) { added.points.reverse() }
        contours.append(added)
    }

    static func opacity(_ color: RGBA, _ look: ToolLook) -> Double {
        color.alpha < 255 ? Double(color.alpha) / 255 : min(1, max(0, look.opacity))
    }

    static func pencilOpacity(_ level: Int, _ look: ToolLook) -> Double {
        let range = look.pressureOpacity ?? 1...1
        return range.lowerBound + (range.upperBound - range.lowerBound) * Double(level) / Double(pencilLevels - 1)
    }

    /// `color` at `amount` opacity over white, as an opaque colour.
    static func mixWithWhite(_ color: RGBA, amount: Double) -> RGBA {
        func mix(_ c: UInt8) -> UInt8 { UInt8((255 - (255 - Double(c)) * amount).rounded()) }
        return RGBA(red: mix(color.red), green: mix(color.green), blue: mix(color.blue))
    }

    /// Splits a spine into runs of one quantised width and adds each as curves fitted to it. A run goes
    /// on while its segments' widths stay within three steps of each other; its width, the middle of
    /// them on the grid, is then at most two steps (twice the tolerance) from each: the edge moves by at
    /// most the tolerance.
    static func appendRuns(_ spine: Spine, tolerance: Double, into runs: inout [Int: BezierPath]) {
        let p = spine.positions, r = spine.radii
        let step = widthStep(tolerance: tolerance)
        func key(_ low: Double, _ high: Double) -> Int { max(1, Int(((low + high) / 2 / step).rounded())) }
        if p.count == 1 {
            CurveFitting.append(p, range: 0...0, tolerance: tolerance, to: &runs[key(2 * r[0], 2 * r[0]), default: BezierPath()])
            return
        }
        var start = 0
        var low = r[0] + r[1], high = low
        for i in 1..<p.count {
            if i + 1 < p.count {
                let diameter = r[i] + r[i + 1]
                if max(high, diameter) - min(low, diameter) <= 3 * step {
                    low = min(low, diameter)
                    high = max(high, diameter)
                    continue
                }
            }
            CurveFitting.append(p, range: start...i, tolerance: tolerance, to: &runs[key(low, high), default: BezierPath()])
            guard i + 1 < p.count else { break }
            start = i
            low = r[i] + r[i + 1]
            high = low
        }
    }

    /// Splits a pencil spine where its (quantised) darkness changes and adds each run's outline to
    /// the fill of its darkness step.
    static func appendPencilRuns(_ spine: Spine, range: ClosedRange<Double>, curve: PressureCurve, tolerance: Double,
                                 into levels: inout [Int: Contours]) {
        let pr = spine.pressures
        func level(_ p: Double) -> Int { Int((curve.apply(p) * Double(pencilLevels - 1)).rounded()) }
        if pr.count == 1 {
            StrokeGeometry.appendOutline(spine: spine, range: 0..<1, tolerance: tolerance, to: &levels[level(pr[0]), default: Contours()])
            return
        }
        var start = 0
        var current = level(0.5 * (pr[0] + pr[1]))
        for i in 1..<pr.count {
            let next = i + 1 < pr.count ? level(0.5 * (pr[i] + pr[i + 1])) : Int.min
            if next != current {
                StrokeGeometry.appendOutline(spine: spine, range: start..<(i + 1), tolerance: tolerance,
                                             to: &levels[current, default: Contours()])
                start = i
                current = next
            }
        }
    }
}
