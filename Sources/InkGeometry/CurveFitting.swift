import Foundation

/// Open paths of straight and cubic Bézier segments: what a vector file strokes.
package struct BezierPath: Sendable {
    package enum Segment: UInt8, Sendable {
        /// One point: the start of a subpath.
        case move
        /// One point: a straight segment to it.
        case line
        /// Three points: two control points and the end.
        case cubic
    }

    package init() {}
    package private(set) var segments: [Segment] = []
    package private(set) var points: [V2] = []

    package var isEmpty: Bool { segments.isEmpty }

    package mutating func move(to p: V2) {
        segments.append(.move)
        points.append(p)
    }

    package mutating func line(to p: V2) {
        segments.append(.line)
        points.append(p)
    }

    package mutating func cubic(_ c1: V2, _ c2: V2, to p: V2) {
        segments.append(.cubic)
        points.append(c1)
        points.append(c2)
        points.append(p)
    }

    /// Calls `body` for each segment with its points.
    package func forEach(_ body: (Segment, UnsafeBufferPointer<V2>) -> Void) {
        points.withUnsafeBufferPointer { all in
            var index = 0
            for segment in segments {
                let count = segment == .cubic ? 3 : 1
                body(segment, UnsafeBufferPointer(rebasing: all[index..<(index + count)]))
                index += count
            }
        }
    }
}

/// Fits cubic Bézier curves to a polyline (Schneider's method, *Graphics Gems* 1990): a least-squares
/// cubic with the polyline's end tangents, reparameterised by Newton steps, split at its worst point
/// while it strays more than the tolerance from the polyline (measured at every vertex and half-way
/// between vertices). A smooth pen line of a few dozen vertices becomes two or three curves: fewer
/// numbers in a PDF or SVG than the thinned polyline, and no facets.
package enum CurveFitting {
    /// Appends `p[range]` to `path` as one subpath of curves (and lines where they are straight), each
    /// within `tolerance` of the polyline's vertices and of the middles of its segments.
    package static func append(_ p: [V2], range: ClosedRange<Int>, tolerance: Double, to path: inout BezierPath) {
        var q: [V2] = [p[range.lowerBound]]
        q.reserveCapacity(range.count)
        for i in range.dropFirst() where p[i] != q[q.count - 1] { q.append(p[i]) }
        path.move(to: q[0])
        guard q.count > 2 else {
            path.line(to: q[q.count - 1])
            return
        }
        Fitter(q: q, tolerance: tolerance).fit(into: &path)
    }

    private struct Fitter {
        let q: [V2]
        let tolerance: Double

        /// Fits the whole polyline, piece by piece from the start (a stack rather than recursion, so a
        /// long run cannot exhaust the thread's stack).
        func fit(into path: inout BezierPath) {
            let last = q.count - 1
            var pending = [(first: 0, last: last, t1: (q[1] - q[0]).normalized, t2: (q[last - 1] - q[last]).normalized)]
            while let piece = pending.popLast() {
                if let split = fit(piece.first, piece.last, piece.t1, piece.t2, into: &path) {
                    let center = (q[split - 1] - q[split + 1]).normalized
                    pending.append((split, piece.last, -center, piece.t2))
                    pending.append((piece.first, split, piece.t1, center))
                }
            }
        }

        /// Appends the curve for q[first...last] and returns nil, or returns the vertex to split at.
        func fit(_ first: Int, _ last: Int, _ t1: V2, _ t2: V2, into path: inout BezierPath) -> Int? {
            if last - first == 1 {
                path.line(to: q[last])
                return nil
            }
            var u = chordLengths(first, last)
            var curve = bezier(first, last, u, t1, t2)
            var (error, split) = maxError(first, last, curve, u)
            if error <= tolerance * tolerance {
                emit(curve, first, last, into: &path)
                return nil
            }
            if error <= 16 * tolerance * tolerance {
                for _ in 0..<4 {
                    u = reparameterised(first, last, curve, u)
                    curve = bezier(first, last, u, t1, t2)
                    (error, split) = maxError(first, last, curve, u)
                    if error <= tolerance * tolerance {
                        emit(curve, first, last, into: &path)
                        return nil
                    }
                }
            }
            return split
        }

        /// The curve for q[first...last], or a line where every vertex lies within the tolerance of the chord.
        func emit(_ c: (V2, V2, V2, V2), _ first: Int, _ last: Int, into path: inout BezierPath) {
            let chord = c.3 - c.0
            let length2 = chord.lengthSquared
            let straight = q[first...last].allSatisfy { p in
                let d = p - c.0
                let t = length2 > 0 ? min(1, max(0, d.dot(chord) / length2)) : 0
                return (d - chord * t).lengthSquared <= tolerance * tolerance
            }
            if straight {
                path.line(to: c.3)
            } else {
                path.cubic(c.1, c.2, to: c.3)
            }
        }

        func chordLengths(_ first: Int, _ last: Int) -> [Double] {
            var u = [0.0]
            u.reserveCapacity(last - first + 1)
            for i in (first + 1)...last { u.append(u[u.count - 1] + q[i].distance(to: q[i - 1])) }
            let total = u[u.count - 1]
            return total > 0 ? u.map { $0 / total } : u.indices.map { Double($0) / Double(max(1, u.count - 1)) }
        }

        /// The least-squares cubic from q[first] along t1 to q[last] along t2 at parameters u.
        func bezier(_ first: Int, _ last: Int, _ u: [Double], _ t1: V2, _ t2: V2) -> (V2, V2, V2, V2) {
            let p0 = q[first], p3 = q[last]
            var c00 = 0.0, c01 = 0.0, c11 = 0.0, x0 = 0.0, x1 = 0.0
            for (i, t) in u.enumerated() {
                let s = 1 - t
                let b0 = s * s * s, b1 = 3 * t * s * s, b2 = 3 * t * t * s, b3 = t * t * t
                let a1 = t1 * b1, a2 = t2 * b2
                c00 += a1.dot(a1)
                c01 += a1.dot(a2)
                c11 += a2.dot(a2)
                let rest = q[first + i] - (p0 * (b0 + b1) + p3 * (b2 + b3))
                x0 += a1.dot(rest)
                x1 += a2.dot(rest)
            }
            let det = c00 * c11 - c01 * c01
            var alpha1 = det != 0 ? (x0 * c11 - x1 * c01) / det : 0
            var alpha2 = det != 0 ? (c00 * x1 - c01 * x0) / det : 0
            let length = p3.distance(to: p0)
            // Arms longer than half the polyline's length only come from a near-singular system (a line
            // that doubles back): such a curve passes its vertices but flies off between them.
            var along = 0.0
            for i in (first + 1)...last { along += q[i].distance(to: q[i - 1]) }
            let epsilon = 1e-6 * length
            if !(alpha1 > epsilon && alpha2 > epsilon && alpha1 <= along / 2 && alpha2 <= along / 2) {
                alpha1 = length / 3
                alpha2 = length / 3
            }
            return (p0, p0 + t1 * alpha1, p3 + t2 * alpha2, p3)
        }

        func point(_ c: (V2, V2, V2, V2), _ t: Double) -> V2 {
            let s = 1 - t
            return c.0 * (s * s * s) + c.1 * (3 * s * s * t) + c.2 * (3 * s * t * t) + c.3 * (t * t * t)
        }

        /// The largest squared distance from the polyline to the curve, at each vertex (to its point on
        /// the curve) and half-way between vertices (from the curve's point half-way between theirs, to
        /// the segment), and the inner vertex to split at there.
        func maxError(_ first: Int, _ last: Int, _ c: (V2, V2, V2, V2), _ u: [Double]) -> (Double, Int) {
            var worst = 0.0, split = (first + last) / 2
            for i in (first + 1)...last {
                if i < last {
                    let d = (point(c, u[i - first]) - q[i]).lengthSquared
                    if d >= worst {
                        worst = d
                        split = i
                    }
                }
                let between = point(c, (u[i - first - 1] + u[i - first]) / 2)
                let d = distanceSquared(between, q[i - 1], q[i])
                if d > worst {
                    worst = d
                    split = min(max(i - 1, first + 1), last - 1)
                }
            }
            return (worst, split)
        }

        func distanceSquared(_ p: V2, _ a: V2, _ b: V2) -> Double {
            let ab = b - a
            let length2 = ab.lengthSquared
            let t = length2 > 0 ? min(1, max(0, (p - a).dot(ab) / length2)) : 0
            return (p - (a + ab * t)).lengthSquared
        }

        /// One Newton step per vertex towards the parameter of its nearest curve point.
        func reparameterised(_ first: Int, _ last: Int, _ c: (V2, V2, V2, V2), _ u: [Double]) -> [Double] {
            let d1 = ((c.1 - c.0) * 3, (c.2 - c.1) * 3, (c.3 - c.2) * 3)
            let d2 = ((d1.1 - d1.0) * 2, (d1.2 - d1.1) * 2)
            return u.enumerated().map { i, t in
                let s = 1 - t
                let p = point(c, t) - q[first + i]
                let v = d1.0 * (s * s) + d1.1 * (2 * s * t) + d1.2 * (t * t)
                let a = d2.0 * s + d2.1 * t
                let denominator = v.dot(v) + p.dot(a)
                guard denominator != 0 else { return t }
                let next = t - p.dot(v) / denominator
                return next.isFinite ? min(1, max(0, next)) : t
            }
        }
    }
}
