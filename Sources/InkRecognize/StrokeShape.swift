import Foundation
import InkCore

/// What the recogniser needs to know about one stroke's shape: where it lies, how long and how
/// straight it is. Pure values computed once per stroke.
struct StrokeShape: Sendable {
    /// Position of the stroke in the page's drawing order.
    var index: Int
    var bounds: Rect
    /// Length of the pen path.
    var length: Double
    var start: Vector
    var end: Vector
    /// Largest distance of any point from the chord start–end.
    var deviation: Double

    init(_ stroke: Stroke, index: Int) {
        self.index = index
        let points = stroke.points.compactMap { point -> Vector? in
            guard point.x.isFinite, point.y.isFinite else { return nil }
            return Vector(x: Double(point.x), y: Double(point.y))
        }
        bounds = Rect(enclosing: points)
        start = points.first ?? .zero
        end = points.last ?? .zero
        var length = 0.0
        for (a, b) in zip(points, points.dropFirst()) { length += (b - a).length }
        self.length = length
        let chord = end - start, chordLength = chord.length
        var deviation = 0.0
        if chordLength > 1e-9 {
            for p in points {
                let d = p - start
                deviation = max(deviation, abs(d.x * chord.y - d.y * chord.x) / chordLength)
            }
        } else {
            for p in points { deviation = max(deviation, (p - start).length) }
        }
        self.deviation = deviation
    }

    var chord: Vector { end - start }
    var center: Vector { Vector(x: (bounds.minX + bounds.maxX) / 2, y: (bounds.minY + bounds.maxY) / 2) }
    var isEmpty: Bool { bounds.isNull }

    /// Direction of the chord as an undirected angle in [0, π).
    var angle: Double {
        var a = atan2(chord.y, chord.x)
        if a < 0 { a += .pi }
        if a >= .pi { a -= .pi }
        return a
    }

    /// True when the stroke is close to a straight segment: at least `minLength` long, its path
    /// hardly longer than its chord, and no point far from the chord.
    func isStraight(minLength: Double) -> Bool {
        let chordLength = chord.length
        guard chordLength >= minLength, chordLength > 0 else { return false }
        return length <= chordLength * 1.2 && deviation <= max(0.12 * chordLength, 1.5)
    }
}

/// Undirected angle between two directions in [0, π/2].
func angleBetween(_ a: Double, _ b: Double) -> Double {
    let d = abs(a - b).truncatingRemainder(dividingBy: .pi)
    return min(d, .pi - d)
}

/// Where segments p1→p2 and q1→q2 cross, as fractions along each; nil when parallel.
func crossing(_ p1: Vector, _ p2: Vector, _ q1: Vector, _ q2: Vector) -> (t: Double, u: Double)? {
    let r = p2 - p1, s = q2 - q1
    let denominator = r.x * s.y - r.y * s.x
    guard abs(denominator) > 1e-9 else { return nil }
    let qp = q1 - p1
    let t = (qp.x * s.y - qp.y * s.x) / denominator
    let u = (qp.x * r.y - qp.y * r.x) / denominator
    return (t, u)
}

/// The median of `values` (0 when empty).
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// The slant of handwriting as a shear: the length-weighted median of dx/dy over the near-vertical
/// pieces of its strokes (down- and upstrokes of letters). Negative when the writing leans right
/// (y grows downwards). 0 when there is too little to tell.
func slant(of strokes: [Stroke], indices: [Int], textHeight: Double) -> Double {
    var samples: [(ratio: Double, weight: Double)] = []
    let step = max(2, 0.15 * textHeight)
    for index in indices {
        var anchor: Vector?
        for point in strokes[index].points where point.x.isFinite && point.y.isFinite {
            let p = Vector(x: Double(point.x), y: Double(point.y))
            guard let a = anchor else { anchor = p; continue }
            let d = p - a
            guard d.length >= step else { continue }
            if abs(d.y) > abs(d.x) { samples.append((d.x / d.y, d.length)) }
            anchor = p
        }
    }
    guard samples.reduce(0, { $0 + $1.weight }) >= 4 * textHeight, let ratio = weightedMedian(samples) else { return 0 }
    return min(0.7, max(-0.7, ratio))
}

/// The ratio below which half the weight lies (the weighted median); nil when there is no weight.
func weightedMedian(_ samples: [(ratio: Double, weight: Double)]) -> Double? {
    let total = samples.reduce(0) { $0 + $1.weight }
    var accumulated = 0.0
    for sample in samples.sorted(by: { $0.ratio < $1.ratio }) {
        accumulated += sample.weight
        if accumulated >= total / 2 { return sample.ratio }
    }
    return nil
}

/// How tall the writing of some strokes is, from where its ink lies: the distance between the
/// heights below which a quarter and three quarters of the ink (by length) lie. Unlike stroke
/// heights, it does not depend on how many letters a stroke joins: about 0.7 of the x-height for
/// print and script alike. 0 when there is no ink.
func inkSpread(of strokes: [Stroke], indices: [Int]) -> Double {
    var samples: [(y: Double, weight: Double)] = []
    for index in indices {
        let points = strokes[index].points
        if points.count == 1, let p = points.first, p.y.isFinite { samples.append((Double(p.y), 1)) }
        for (a, b) in zip(points, points.dropFirst()) where a.x.isFinite && a.y.isFinite && b.x.isFinite && b.y.isFinite {
            let length = Double(hypotf(b.x - a.x, b.y - a.y))
            if length > 0 { samples.append((Double(a.y + b.y) / 2, length)) }
        }
    }
    let total = samples.reduce(0) { $0 + $1.weight }
    guard total > 0 else { return 0 }
    samples.sort { $0.y < $1.y }
    var accumulated = 0.0
    var lower: Double?
    for sample in samples {
        accumulated += sample.weight
        if lower == nil, accumulated >= total / 4 { lower = sample.y }
        if accumulated >= 3 * total / 4 { return sample.y - (lower ?? sample.y) }
    }
    return 0
}
