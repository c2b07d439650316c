import Foundation
import InkCore
@testable import InkGeometry
import Testing
@testable import InkRender

@Suite("Stroke geometry")
struct GeometryTests {
    let fine = OutlineResolution.raster(scale: 3)
    let plain = StrokeStyle(smoothing: 0, taperStart: 0, taperEnd: 0, pressureSimulation: .never)

    /// Closed, finite, non-degenerate, wound the same way as every other outline.
    func expectWellFormed(_ outline: StrokeOutline, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!outline.polygons.isEmpty, sourceLocation: sourceLocation)
        for polygon in outline.polygons {
            #expect(polygon.count >= 3, sourceLocation: sourceLocation)
            #expect(polygon.allSatisfy { $0.x.isFinite && $0.y.isFinite }, sourceLocation: sourceLocation)
            #expect(signedArea(polygon) < 0, "every contour turns the same way", sourceLocation: sourceLocation)
        }
    }

    /// Ink covers every centreline point to half its radius, and nothing strays beyond the radius.
    func expectCovers(_ s: Stroke, style: StrokeStyle, resolution: OutlineResolution? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let resolution = resolution ?? fine
        let outline = StrokeGeometry.outline(of: s, style: style, resolution: resolution)
        let polygons = outline.polygons
        let spines = StrokeGeometry.spines(of: s, style: style, resolution: resolution)
        var centers: [(Vector, Double)] = []
        for spine in spines { for (p, r) in zip(spine.points, spine.radii) { centers.append((p, r)) } }
        for (p, r) in centers {
            #expect(winding(p, polygons) != 0, "centre \(p) is inked", sourceLocation: sourceLocation)
            for (dx, dy) in [(0.5, 0.0), (-0.5, 0.0), (0.0, 0.5), (0.0, -0.5)] {
                let q = Vector(x: p.x + dx * r, y: p.y + dy * r)
                #expect(winding(q, polygons) != 0, "\(q), half a radius from the centreline, is inked", sourceLocation: sourceLocation)
            }
        }
        let rMax = centers.map(\.1).max() ?? 0
        for polygon in polygons {
            for v in polygon {
                let nearest = centers.map { distance($0.0, v) - $0.1 }.min() ?? 0
                #expect(nearest <= 0.02 * rMax + resolution.tolerance * 2, "outline vertex \(v) strays \(nearest) beyond the ink", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("a single point is a round dot of the pressure's width")
    func singlePoint() {
        let s = stroke([(50, 50)], pressure: [1], width: 10)
        let outline = StrokeGeometry.outline(of: s, style: plain, resolution: fine)
        expectWellFormed(outline)
        #expect(outline.polygons.count == 1)
        let polygon = outline.polygons[0]
        #expect(polygon.count >= 16)
        for v in polygon { #expect(abs(distance(v, Vector(x: 50, y: 50)) - 5) < 1e-6) }
        #expect(abs(-signedArea(polygon) - Double.pi * 25) / (Double.pi * 25) < 0.02)
    }

    @Test("a stroke that never moves is a dot too")
    func zeroLength() {
        let s = stroke(Array(repeating: (20, 30), count: 12), width: 6)
        let outline = StrokeGeometry.outline(of: s, style: .pen, resolution: fine)
        expectWellFormed(outline)
        #expect(outline.polygons.count == 1)
        #expect(winding(Vector(x: 20, y: 30), outline.polygons) != 0)
    }

    @Test("two points make a capsule with round caps drawn as arcs of the same outline")
    func twoPoints() {
        let s = stroke([(10, 10), (60, 10)], width: 8)
        let outline = StrokeGeometry.outline(of: s, style: plain, resolution: fine)
        expectWellFormed(outline)
        #expect(outline.polygons.count == 1, "caps are part of the outline, not extra circles")
        let r = plain.radius(nominalWidth: 8, pressure: 0.5)
        // Cap vertices lie on the end circles.
        for v in outline.polygons[0] where v.x > 60 + 1e-9 { #expect(abs(distance(v, Vector(x: 60, y: 10)) - r) < 1e-6) }
        for v in outline.polygons[0] where v.x < 10 - 1e-9 { #expect(abs(distance(v, Vector(x: 10, y: 10)) - r) < 1e-6) }
        #expect(abs(outline.bounds.maxX - (60 + r)) < 0.05)
        #expect(abs(halfWidth(at: 35, outline.polygons) - r) < 1e-6)
        expectCovers(s, style: plain)
    }

    @Test("a hairpin splits at the turn and keeps a clean round end, no elbow")
    func hairpin() {
        let positions = line(from: (10, 50), to: (100, 50), count: 20) + line(from: (100, 51), to: (10, 52), count: 20)
        let s = stroke(positions, width: 6)
        #expect(StrokeGeometry.spines(of: s, style: .pen, resolution: fine).count == 2)
        expectWellFormed(StrokeGeometry.outline(of: s, style: .pen, resolution: fine))
        expectCovers(s, style: .pen)
        expectCovers(s, style: plain)
    }

    @Test("sharp corners split; gentle curves do not")
    func corners() {
        let v = stroke(line(from: (0, 0), to: (50, 60), count: 15) + line(from: (52, 58), to: (100, 0), count: 15), width: 3)
        #expect(StrokeGeometry.spines(of: v, style: .pen, resolution: fine).count == 2)
        let arcPoints: [(Double, Double)] = (0..<40).map { (i: Int) -> (Double, Double) in
            let a = Double(i) / 39 * Double.pi
            return (100 * cos(a), 100 * sin(a))
        }
        let arc = stroke(arcPoints, width: 3)
        #expect(StrokeGeometry.spines(of: arc, style: .pen, resolution: fine).count == 1)
        let zigzagPoints: [(Double, Double)] = (0..<12).map { (i: Int) -> (Double, Double) in (Double(i) * 10, i % 2 == 0 ? 0.0 : 20.0) }
        let zigzag = stroke(zigzagPoints, width: 2)
        #expect(StrokeGeometry.spines(of: zigzag, style: .pen, resolution: fine).count == 11)
        expectCovers(v, style: .pen)
        expectCovers(zigzag, style: .pen)
    }

    @Test("random scribbles: closed, consistently wound, covering the centreline and nothing more, at 1x and 3x",
          arguments: [1.0, 3.0])
    func scribbles(scale: Double) {
        let resolution = OutlineResolution.raster(scale: scale)
        var random = TestRandom(state: 42)
        for _ in 0..<40 {
            var x = 100.0, y = 100.0, dx = 0.0, dy = 0.0
            let count = 2 + Int(random.next() * 60)
            var positions: [(Double, Double)] = []
            var pressures: [Float] = []
            for _ in 0..<count {
                dx = dx * 0.6 + (random.next() - 0.5) * 8
                dy = dy * 0.6 + (random.next() - 0.5) * 8
                x += dx
                y += dy
                positions.append((x, y))
                pressures.append(Float(random.next()))
            }
            let s = stroke(positions, pressure: pressures, width: Float(1 + random.next() * 12))
            expectWellFormed(StrokeGeometry.outline(of: s, style: .pen, resolution: resolution))
            expectCovers(s, style: .pen, resolution: resolution)
        }
    }

    @Test("a very long stroke (20,000 points) stays well formed")
    func veryLong() {
        let positions = (0..<20_000).map { i -> (Double, Double) in
            let t = Double(i) / 100
            return (500 + (50 + t * 3) * cos(t), 500 + (50 + t * 3) * sin(t))
        }
        let s = stroke(positions, pressure: (0..<20_000).map { Float(0.5 + 0.4 * sin(Double($0) / 50)) }, width: 3)
        let outline = StrokeGeometry.outline(of: s, style: .pen, resolution: .raster(scale: 1))
        expectWellFormed(outline)
        #expect(outline.polygons.count == 1)
        let limit: Double = 1160
        #expect(outline.bounds.maxX < limit)
    }

    @Test("width follows pressure")
    func widthFollowsPressure() {
        let count = 101
        let s = stroke(line(from: (0, 50), to: (200, 50), count: count),
                       pressure: (0..<count).map { Float(0.1 + 0.9 * Double($0) / Double(count - 1)) }, width: 10)
        let polygons = StrokeGeometry.outline(of: s, style: plain, resolution: fine).polygons
        var previous = 0.0
        for x in stride(from: 20.0, through: 180, by: 20) {
            let expected = plain.radius(nominalWidth: 10, pressure: 0.1 + 0.9 * x / 200)
            let measured = halfWidth(at: x, polygons)
            #expect(abs(measured - expected) < 0.02 * expected + 0.01, "at x = \(x): \(measured) for \(expected)")
            #expect(measured > previous)
            previous = measured
        }
    }

    @Test("pressure curves: soft gives more width for light pressure, hard less")
    func pressureCurves() {
        #expect(PressureCurve.soft.apply(0.5) > PressureCurve.linear.apply(0.5))
        #expect(PressureCurve.hard.apply(0.5) < PressureCurve.linear.apply(0.5))
        for curve in [PressureCurve.linear, .soft, .hard, .power(2.5)] {
            #expect(curve.apply(0) == 0)
            #expect(curve.apply(1) == 1)
            #expect(curve.apply(-3) == 0 && curve.apply(7) == 1)
        }
        #expect(PressureCurve(name: "soft") == .soft)
        #expect(PressureCurve(name: "1.5") == .power(1.5))
        #expect(PressureCurve(name: "nonsense") == nil)
        let style = StrokeStyle(pressureCurve: .soft, minWidth: 0.2, maxWidth: 1)
        #expect(abs(style.radius(nominalWidth: 10, pressure: 1) - 5) < 1e-12)
        #expect(abs(style.radius(nominalWidth: 10, pressure: 0) - 1) < 1e-12)
    }

    @Test("tapers narrow both ends with an easing; without them the ends are full width")
    func tapers() {
        let s = stroke(line(from: (0, 50), to: (200, 50), count: 81), width: 10)
        var tapered = plain
        tapered.taperStart = 2
        tapered.taperEnd = 3
        tapered.taperTip = 0.3
        let full = plain.radius(nominalWidth: 10, pressure: 0.5)
        let polygons = StrokeGeometry.outline(of: s, style: tapered, resolution: fine).polygons
        #expect(abs(halfWidth(at: 100, polygons) - full) <= fine.tolerance)
        #expect(halfWidth(at: 2, polygons) < 0.55 * full)
        #expect(halfWidth(at: 198, polygons) < 0.5 * full)
        // Eased: the start taper is past its middle width halfway along it (ease-out).
        #expect(halfWidth(at: 10, polygons) > 0.65 * full + 0.35 * 0.3 * full)
        #expect(halfWidth(at: 25, polygons) > 0.99 * full)
        // The tip keeps its share of the radius.
        let spine = StrokeGeometry.spines(of: s, style: tapered, resolution: fine)[0]
        #expect(abs(spine.radii[0] - 0.3 * full) < 1e-9)
        #expect(abs(spine.radii[spine.radii.count - 1] - 0.3 * full) < 1e-9)
        let untapered = StrokeGeometry.outline(of: s, style: plain, resolution: fine).polygons
        #expect(abs(halfWidth(at: 1, untapered) - full) < 1e-6)
    }

    @Test("a taper never eats a short stroke")
    func shortStrokeTaper() {
        let s = stroke(line(from: (0, 0), to: (3, 0), count: 4), width: 6)
        let spine = StrokeGeometry.spines(of: s, style: .pen, resolution: fine)[0]
        #expect(spine.radii.max()! > 0.5 * StrokeStyle.pen.radius(nominalWidth: 6, pressure: 0.5))
    }

    @Test("constant pressure is made up from speed: slow is wide, fast is thin")
    func simulatedPressure() {
        let slow = (0..<30).map { (Double($0) * 0.4, 0.0) }
        let fast = (1...30).map { (slow.last!.0 + Double($0) * 6, 0.0) }
        let s = stroke(slow + fast, width: 6)
        var untapered = StrokeStyle.pen
        untapered.taperStart = 0
        untapered.taperEnd = 0
        let spine = StrokeGeometry.spines(of: s, style: untapered, resolution: fine)[0]
        let slowWidth = zip(spine.points, spine.radii).filter { $0.0.x > 3 && $0.0.x < 10 }.map(\.1)
        let fastWidth = zip(spine.points, spine.radii).filter { $0.0.x > 60 && $0.0.x < 150 }.map(\.1)
        #expect(slowWidth.min()! > fastWidth.max()! * 1.3)
        var never = StrokeStyle.pen
        never.pressureSimulation = .never
        never.taperStart = 0
        never.taperEnd = 0
        let flat = StrokeGeometry.spines(of: s, style: never, resolution: fine)[0].radii
        #expect(flat.max()! - flat.min()! < 1e-9)
        // All-zero pressure counts as none, too.
        let zeros = stroke(slow + fast, pressure: [0], width: 6)
        let zeroSpine = StrokeGeometry.spines(of: zeros, style: .pen, resolution: fine)[0]
        #expect(zeroSpine.radii.max()! > 1)
    }

    @Test("no facets at 3x: chords of a circle stay within the tolerance")
    func noFacets() {
        let center = Vector(x: 200, y: 200)
        let positions = (0...36).map { i -> (Double, Double) in
            let a = Double(i) / 36 * 1.9 * .pi
            return (200 + 100 * cos(a), 200 + 100 * sin(a))
        }
        for scale in [1.0, 3.0] {
            let resolution = OutlineResolution.raster(scale: scale)
            let polygon = StrokeGeometry.outline(of: stroke(positions, width: 20), style: plain, resolution: resolution).polygons[0]
            var worst = 0.0
            for i in 0..<polygon.count {
                let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                let da = distance(a, center), db = distance(b, center)
                // The outer side (radius 106.5), away from the ends, where the spline straightens.
                let angle = atan2(a.y - center.y, a.x - center.x)
                guard da > 106, db > 106, abs(angle) > 0.5 else { continue }
                let mid = Vector(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
                let sag = (da + db) / 2 - distance(mid, center)
                worst = max(worst, sag)
            }
            #expect(worst > 0)
            #expect(worst <= resolution.tolerance * 1.5, "sagitta \(worst) at scale \(scale)")
        }
    }

    @Test("smoothing off passes through every sample; smoothing on keeps both ends")
    func smoothing() {
        var random = TestRandom(state: 7)
        let positions = (0..<30).map { i in (Double(i) * 3 + random.next(), 20 + random.next() * 2) }
        let s = stroke(positions, width: 3)
        let off = StrokeGeometry.spines(of: s, style: plain, resolution: fine)
        let points = off.flatMap(\.points)
        for (x, y) in positions {
            #expect(points.contains { abs($0.x - x) < 1e-4 && abs($0.y - y) < 1e-4 })
        }
        var strong = plain
        strong.smoothing = 1
        let on = StrokeGeometry.spines(of: s, style: strong, resolution: fine)
        let first = on.first!.points.first!, last = on.last!.points.last!
        #expect(abs(first.x - positions[0].0) < 1e-4 && abs(first.y - positions[0].1) < 1e-4)
        #expect(abs(last.x - positions[29].0) < 1e-4 && abs(last.y - positions[29].1) < 1e-4)
        // Smoothing removes wobble: the smoothed centreline is straighter.
        func wiggle(_ spines: [Spine]) -> Double {
            let ps = spines.flatMap(\.points)
            return ps.map { abs($0.y - 21) }.reduce(0, +) / Double(ps.count)
        }
        #expect(wiggle(on) < wiggle(off))
    }

    @Test("outlines are deterministic")
    func deterministic() {
        let s = stroke((0..<50).map { (Double($0) * 2, sin(Double($0) / 4) * 10) }, width: 3)
        #expect(StrokeGeometry.outline(of: s, style: .pen, resolution: fine).polygons
                == StrokeGeometry.outline(of: s, style: .pen, resolution: fine).polygons)
    }

    @Test("degenerate input: no points, NaNs, a zero width")
    func degenerate() {
        #expect(StrokeGeometry.outline(of: stroke([]), style: .pen, resolution: fine).polygons.isEmpty)
        let nan = stroke([(10, 10), (.nan, 3), (20, 10)], width: 2)
        expectWellFormed(StrokeGeometry.outline(of: nan, style: .pen, resolution: fine))
        let zeroWidth = stroke([(10, 10), (20, 10)], width: 0)
        expectWellFormed(StrokeGeometry.outline(of: zeroWidth, style: .pen, resolution: fine))
    }
}
