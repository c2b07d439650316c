import Foundation
import InkCore

/// What an eraser stroke does to the ink it crosses.
public enum EraserMode: String, Sendable, Hashable, CaseIterable {
    /// Removes every earlier stroke it touches, whole.
    case wholeStroke = "whole"
    /// Cuts away only the parts it passes over; what is left of a stroke stays as separate strokes.
    case split
}

/// Applies eraser strokes to a page: a pure function from a page with eraser strokes to the page as
/// it looks, without them.
public enum Erasing {
    /// The page after every eraser stroke has removed what it crosses from the strokes drawn before
    /// it. Eraser strokes themselves are dropped. An eraser touches ink when its path (radius: half
    /// its nominal width) comes within the other stroke's nominal half-width of that stroke's
    /// centreline. In split mode, cut strokes keep their id for the first remaining piece; later
    /// pieces get new ids above the page's highest, in order; pieces shorter than a quarter of their
    /// width are dropped.
    public static func apply(_ page: Page, mode: EraserMode) -> Page {
        guard page.strokes.contains(where: { $0.tool == .eraser }) else { return page }
        var result = page
        var nextID = page.nextStrokeID.rawValue
        var kept: [Stroke] = []
        var keptBounds: [Rect] = []
        for stroke in page.strokes {
            guard stroke.tool == .eraser else {
                kept.append(stroke)
                keptBounds.append(stroke.bounds)
                continue
            }
            let eraser = stroke.points.map { V2(Double($0.x), Double($0.y)) }.filter { $0.x.isFinite && $0.y.isFinite }
            guard !eraser.isEmpty else { continue }
            let eraserRadius = max(0, Double(stroke.width)) / 2
            let eraserBounds = stroke.bounds
            var survivors: [Stroke] = []
            var survivorBounds: [Rect] = []
            for (target, bounds) in zip(kept, keptBounds) {
                let radius = eraserRadius + max(0, Double(target.width)) / 2
                let grown = Rect(minX: bounds.minX - radius, minY: bounds.minY - radius,
                                 maxX: bounds.maxX + radius, maxY: bounds.maxY + radius)
                guard grown.intersects(eraserBounds) else {
                    survivors.append(target)
                    survivorBounds.append(bounds)
                    continue
                }
                let cuts = erasedIntervals(of: target, by: eraser, radius: radius)
                if cuts.isEmpty {
                    survivors.append(target)
                    survivorBounds.append(bounds)
                    continue
                }
                guard mode == .split else { continue }
                for (index, piece) in remainingPieces(of: target, removing: cuts).enumerated() {
                    var cut = target
                    cut.points = piece
                    if index > 0 {
                        cut.id = StrokeID(nextID)
                        nextID += 1
                    }
                    survivors.append(cut)
                    survivorBounds.append(cut.bounds)
                }
            }
            kept = survivors
            keptBounds = survivorBounds
        }
        result.strokes = kept
        return result
    }

    /// Erased parameter intervals along `target` (parameter i + u is u of the way along segment i),
    /// merged and sorted.
    package static func erasedIntervals(of target: Stroke, by eraser: [V2], radius: Double) -> [ClosedRange<Double>] {
        let points = target.points.map { V2(Double($0.x), Double($0.y)) }
        guard !points.isEmpty else { return [] }
        var intervals: [ClosedRange<Double>] = []
        let eraserSegments = eraser.count == 1 ? [(eraser[0], eraser[0])] : (1..<eraser.count).map { (eraser[$0 - 1], eraser[$0]) }
        if points.count == 1 {
            if eraserSegments.contains(where: { distance(points[0], $0.0, $0.1) <= radius }) { intervals.append(0...0) }
            return intervals
        }
        for i in 1..<points.count {
            let a = points[i - 1], b = points[i]
            let lo = V2(min(a.x, b.x) - radius, min(a.y, b.y) - radius)
            let hi = V2(max(a.x, b.x) + radius, max(a.y, b.y) + radius)
            for (e0, e1) in eraserSegments {
                if max(e0.x, e1.x) < lo.x || min(e0.x, e1.x) > hi.x || max(e0.y, e1.y) < lo.y || min(e0.y, e1.y) > hi.y { continue }
                if let hit = segmentInCapsule(a, b, e0, e1, radius) {
                    intervals.append((Double(i - 1) + hit.lowerBound)...(Double(i - 1) + hit.upperBound))
                }
            }
        }
        intervals.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<Double>] = []
        for interval in intervals {
            if let last = merged.last, interval.lowerBound <= last.upperBound + 1e-12 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, interval.upperBound)
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    /// The parts of `target` outside the erased intervals, with points interpolated at the cuts.
    package static func remainingPieces(of target: Stroke, removing cuts: [ClosedRange<Double>]) -> [[InkPoint]] {
        let points = target.points
        guard points.count > 1 else { return [] }
        let end = Double(points.count - 1)
        var keptRanges: [ClosedRange<Double>] = []
        var cursor = 0.0
        for cut in cuts {
            if cut.lowerBound > cursor { keptRanges.append(cursor...cut.lowerBound) }
            cursor = max(cursor, cut.upperBound)
        }
        if cursor < end { keptRanges.append(cursor...end) }

        func point(at t: Double) -> InkPoint { Erasing.point(at: t, in: points) }
        let minimumLength = Double(max(0, target.width)) / 4
        var pieces: [[InkPoint]] = []
        for range in keptRanges {
            var piece = [point(at: range.lowerBound)]
            var index = Int(range.lowerBound.rounded(.down)) + 1
            while Double(index) < range.upperBound {
                piece.append(points[index])
                index += 1
            }
            piece.append(point(at: range.upperBound))
            var length = 0.0
            for k in 1..<piece.count { length += Double(hypotf(piece[k].x - piece[k - 1].x, piece[k].y - piece[k - 1].y)) }
            if length >= minimumLength, length > 0 { pieces.append(piece) }
        }
        return pieces
    }

    /// The point at `t` (an index, fractions between points) of a stroke of at least 2 points: every
    /// value interpolated, the tilt of the nearer point.
    package static func point(at t: Double, in points: [InkPoint]) -> InkPoint {
        let i = min(points.count - 2, max(0, Int(t.rounded(.down))))
        let u = Float(t - Double(i))
        let a = points[i], b = points[i + 1]
        return InkPoint(x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u,
                        pressure: a.pressure + (b.pressure - a.pressure) * u,
                        time: a.time + (b.time - a.time) * u, tilt: u < 0.5 ? a.tilt : b.tilt)
    }

    /// Distance from `p` to the segment `a`–`b`.
    package static func distance(_ p: V2, _ a: V2, _ b: V2) -> Double {
        let d = b - a
        let l2 = d.lengthSquared
        let t = l2 > 0 ? min(1, max(0, (p - a).dot(d) / l2)) : 0
        return (p - (a + d * t)).length
    }

    /// The part of segment a→b (as fractions 0…1) within `radius` of segment e0–e1: the line meets the
    /// convex capsule in one interval, the hull of its meetings with the two end discs and the band.
    package static func segmentInCapsule(_ a: V2, _ b: V2, _ e0: V2, _ e1: V2, _ radius: Double) -> ClosedRange<Double>? {
        let d = b - a
        var lo = Double.infinity, hi = -Double.infinity
        func include(_ range: (Double, Double)?) {
            guard let (x, y) = range, x <= y else { return }
            lo = min(lo, x)
            hi = max(hi, y)
        }
        // Discs at both ends of the eraser segment.
        func disc(_ c: V2) -> (Double, Double)? {
            let f = a - c
            let qa = d.lengthSquared, qb = 2 * f.dot(d), qc = f.lengthSquared - radius * radius
            if qa < 1e-18 { return qc <= 0 ? (0, 1) : nil }
            let disc = qb * qb - 4 * qa * qc
            guard disc >= 0 else { return nil }
            let root = disc.squareRoot()
            return ((-qb - root) / (2 * qa), (-qb + root) / (2 * qa))
        }
        include(disc(e0))
        include(disc(e1))
        // The band: 0 ≤ along ≤ |e|, |across| ≤ radius, in the eraser segment's frame.
        let e = e1 - e0
        let length = e.length
        if length > 1e-12 {
            let axis = e * (1 / length), normal = axis.perpendicular
            let f = a - e0
            var t0 = -Double.infinity, t1 = Double.infinity
            var empty = false
            for (start, slope, low, high) in [(f.dot(axis), d.dot(axis), 0.0, length), (f.dot(normal), d.dot(normal), -radius, radius)] {
                if abs(slope) < 1e-18 {
                    if start < low || start > high { empty = true }
                } else {
                    var u0 = (low - start) / slope, u1 = (high - start) / slope
                    if u0 > u1 { swap(&u0, &u1) }
                    t0 = max(t0, u0)
                    t1 = min(t1, u1)
                }
            }
            if !empty { include((t0, t1)) }
        }
        lo = max(0, lo)
        hi = min(1, hi)
        return lo <= hi ? lo...hi : nil
    }
}

extension Erasing {
    /// The ids of the ink strokes on `page` (not eraser strokes) that an eraser path of this `width`
    /// touches, by the same rule as ``apply(_:mode:)``: what a whole-stroke eraser removes.
    public static func strokesTouched(by path: [InkPoint], width: Float, on page: Page) -> [StrokeID] {
        let eraser = path.map { V2(Double($0.x), Double($0.y)) }.filter { $0.x.isFinite && $0.y.isFinite }
        guard !eraser.isEmpty else { return [] }
        let eraserRadius = max(0, Double(width)) / 2
        return page.strokes.filter { target in
            target.tool != .eraser
                && !erasedIntervals(of: target, by: eraser, radius: eraserRadius + max(0, Double(target.width)) / 2).isEmpty
        }.map(\.id)
    }
}
