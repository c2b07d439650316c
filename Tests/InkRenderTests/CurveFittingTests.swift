import Foundation
@testable import InkGeometry
import Testing

@Suite("Curve fitting")
struct CurveFittingTests {
    /// Points along the fitted path, 64 to a segment.
    func samples(_ path: BezierPath) -> [[V2]] {
        var subpaths: [[V2]] = []
        var current = V2.zero
        path.forEach { segment, p in
            switch segment {
            case .move:
                current = p[0]
                subpaths.append([current])
            case .line:
                for i in 1...64 { subpaths[subpaths.count - 1].append(V2.lerp(current, p[0], Double(i) / 64)) }
                current = p[0]
            case .cubic:
                for i in 1...64 {
                    let t = Double(i) / 64, s = 1 - t
                    let a = current * (s * s * s) + p[0] * (3 * s * s * t)
                    subpaths[subpaths.count - 1].append(a + p[1] * (3 * s * t * t) + p[2] * (t * t * t))
                }
                current = p[2]
            }
        }
        return subpaths
    }

    /// The farthest any input vertex lies from the fitted path (from the pieces between its samples).
    func farthest(_ vertices: [V2], from path: BezierPath) -> Double {
        let pieces = samples(path).flatMap { points in zip(points, points.dropFirst()).map { ($0, $1) } }
        func distance(_ v: V2, _ a: V2, _ b: V2) -> Double {
            let ab = b - a
            let t = ab.lengthSquared > 0 ? min(1, max(0, (v - a).dot(ab) / ab.lengthSquared)) : 0
            return (v - (a + ab * t)).length
        }
        return vertices.map { v in pieces.map { distance(v, $0.0, $0.1) }.min()! }.max()!
    }

    @Test("a handwriting loop becomes a few curves, every vertex within the tolerance, ends kept")
    func loop() {
        // A trochoid: a loop and a cusp-like turn, 200 dense vertices as the spine subdivision gives.
        let vertices = (0..<200).map { i -> V2 in
            let t = Double(i) / 199 * 2 * .pi
            return V2(10 * t - 8 * sin(t), -8 * cos(t))
        }
        var path = BezierPath()
        CurveFitting.append(vertices, range: 0...199, tolerance: 0.1, to: &path)
        #expect(path.segments.first == .move && path.segments.dropFirst().allSatisfy { $0 != .move })
        #expect(path.points.first == vertices.first && path.points.last == vertices.last)
        #expect(farthest(vertices, from: path) <= 0.1 + 1e-9)
        #expect(path.points.count < 40, "\(path.points.count) numbers' worth of points for 200 vertices")
    }

    @Test("a straight run is one line; a dot is a move and a line to the same point")
    func straightAndDot() {
        let straight = (0...50).map { V2(Double($0), 0.5 * Double($0)) }
        var path = BezierPath()
        CurveFitting.append(straight, range: 0...50, tolerance: 0.1, to: &path)
        #expect(path.segments == [.move, .line])
        #expect(path.points == [straight[0], straight[50]])

        var dot = BezierPath()
        CurveFitting.append([V2(3, 4), V2(3, 4), V2(3, 4)], range: 0...2, tolerance: 0.1, to: &dot)
        #expect(dot.segments == [.move, .line] && dot.points == [V2(3, 4), V2(3, 4)])
    }

    /// The farthest the fitted path strays from the polyline (its samples to the nearest segment).
    func strays(_ path: BezierPath, from vertices: [V2]) -> Double {
        let segments = zip(vertices, vertices.dropFirst()).map { ($0, $1) }
        func distance(_ v: V2, _ a: V2, _ b: V2) -> Double {
            let ab = b - a
            let t = ab.lengthSquared > 0 ? min(1, max(0, (v - a).dot(ab) / ab.lengthSquared)) : 0
            return (v - (a + ab * t)).length
        }
        return samples(path).joined().map { p in segments.map { distance(p, $0.0, $0.1) }.min()! }.max()!
    }

    @Test("a line that doubles back is not drawn flying off between its vertices")
    func doublingBack() {
        for vertices in [[V2(0, 0), V2(9, 0.05), V2(18, 0.05), V2(17, 0.1), V2(26, 0.15)],
                         [V2(0, 0), V2(-5, -0.2), V2(-4.5, 0.1), V2(-5, -0.2)]] {
            var path = BezierPath()
            CurveFitting.append(vertices, range: 0...(vertices.count - 1), tolerance: 0.1, to: &path)
            #expect(farthest(vertices, from: path) <= 0.1 + 1e-9)
            #expect(strays(path, from: vertices) <= 0.15, "\(path.points)")
        }
    }

    @Test("on random strokes with sharp turns the path stays near the polyline both ways")
    func randomTurns() {
        var seed: UInt64 = 42
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var worstOut = 0.0, worstIn = 0.0
        for _ in 0..<300 {
            var point = V2(0, 0), heading = 0.0
            var vertices = [point]
            for _ in 0..<40 {
                heading += random() < 0.2 ? (random() - 0.5) * 5 : (random() - 0.5) * 0.6
                point = point + V2(cos(heading), sin(heading)) * (0.2 + random() * 2)
                vertices.append(point)
            }
            var path = BezierPath()
            CurveFitting.append(vertices, range: 0...40, tolerance: 0.1, to: &path)
            worstIn = max(worstIn, farthest(vertices, from: path))
            worstOut = max(worstOut, strays(path, from: vertices))
        }
        #expect(worstIn <= 0.1 + 1e-9)
        #expect(worstOut <= 0.15, "the path strays \(worstOut) from the polyline")
    }

    @Test("a sharp zig-zag still passes within the tolerance of every vertex")
    func zigzag() {
        let vertices = (0..<41).map { V2(Double($0), $0 % 2 == 0 ? 0 : 3) }
        var path = BezierPath()
        CurveFitting.append(vertices, range: 5...35, tolerance: 0.05, to: &path)
        #expect(path.points.first == vertices[5] && path.points.last == vertices[35])
        #expect(farthest(Array(vertices[5...35]), from: path) <= 0.05 + 1e-9)
    }
}
