import Foundation
import InkCore

/// A `#` found in the ink: the strokes that draw it and where it is.
public struct HashMark: Sendable, Hashable {
    /// Indices into the page's strokes, in drawing order.
    public var strokes: [Int]
    /// The mark's ink, in page pixels.
    public var bounds: Rect
}

/// Finds `#` signs from their strokes rather than from pixels: Tesseract reads a handwritten `#` as
/// `H`, `f`, `if`, `fi`, `jf`, `ff`, `it` or not at all, but its strokes are unmistakable — four
/// near-straight strokes drawn one after another, in two roughly parallel pairs, each stroke of one
/// pair crossing both strokes of the other inside their lengths, at two different places.
///
/// What this rejects: `H` and `E` (bars end on the stems, they don't cross them), `tt` and `++` (each
/// bar crosses only its own stem, and both bars cross a stem at the same height), `==` (all four
/// strokes parallel), `x`, `X`, `*` (fewer straight strokes or no parallel pairs).
public enum HashMarkDetector {
    /// Tolerances, as fractions or radians. Exposed for tests and measurement.
    public struct Tolerances: Sendable, Hashable {
        /// Largest angle between the two strokes of a pair.
        public var parallel = 25.0 * .pi / 180
        /// Smallest angle between the two pairs.
        public var crossing = 35.0 * .pi / 180
        /// A crossing must lie at least this far (as a fraction of each stroke) from either end.
        public var interior = 0.04
        /// The two crossings along one stroke must be at least this far apart (fraction of its length).
        public var crossingSpread = 0.12
        /// Smallest distance between the two strokes of a pair, as a fraction of their mean length.
        public var pairSeparation = 0.1
        /// The mark's largest side, as a multiple of the text height: at least / at most.
        public var minSize = 0.5
        public var maxSize = 4.5
        public init() {}
    }

    /// The `#` marks among `strokes`, looking at `order` (indices into `strokes`, in drawing order;
    /// all strokes when nil). `textHeight` is the typical height of a letter stroke on the page,
    /// estimated from the strokes when nil.
    public static func find(in strokes: [Stroke], order: [Int]? = nil, textHeight: Double? = nil,
                            tolerances: Tolerances = Tolerances()) -> [HashMark] {
        let shapes = strokes.enumerated().map { StrokeShape($0.element, index: $0.offset) }
        let order = order ?? Array(strokes.indices)
        let height = textHeight ?? LineGrouper.typicalHeight(of: order.map { shapes[$0] })
        return find(shapes: shapes, order: order, textHeight: height, tolerances: tolerances)
    }

    static func find(shapes: [StrokeShape], order: [Int], textHeight: Double, tolerances: Tolerances = Tolerances()) -> [HashMark] {
        guard order.count >= 4, textHeight > 0 else { return [] }
        var marks: [HashMark] = []
        var position = 0
        while position + 4 <= order.count {
            let window = Array(order[position..<position + 4])
            if isHashMark(window.map { shapes[$0] }, textHeight: textHeight, tolerances: tolerances) {
                let bounds = window.reduce(Rect.null) { $0.union(shapes[$1].bounds) }
                marks.append(HashMark(strokes: window, bounds: bounds))
                position += 4
            } else {
                position += 1
            }
        }
        return marks
    }

    static func isHashMark(_ four: [StrokeShape], textHeight: Double, tolerances: Tolerances) -> Bool {
        let bounds = four.reduce(Rect.null) { $0.union($1.bounds) }
        let size = max(bounds.width, bounds.height)
        guard size >= tolerances.minSize * textHeight, size <= tolerances.maxSize * textHeight else { return false }
        let longest = four.map { $0.chord.length }.max() ?? 0
        guard four.allSatisfy({ $0.isStraight(minLength: max(0.25 * longest, 0.2 * textHeight)) }) else { return false }
        // The three ways to split four strokes into two pairs.
        for (a, b, c, d) in [(0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2)] {
            if arePairs((four[a], four[b]), (four[c], four[d]), tolerances: tolerances) { return true }
        }
        return false
    }

    private static func arePairs(_ p: (StrokeShape, StrokeShape), _ q: (StrokeShape, StrokeShape), tolerances: Tolerances) -> Bool {
        guard angleBetween(p.0.angle, p.1.angle) <= tolerances.parallel,
              angleBetween(q.0.angle, q.1.angle) <= tolerances.parallel,
              angleBetween(meanAngle(p.0.angle, p.1.angle), meanAngle(q.0.angle, q.1.angle)) >= tolerances.crossing,
              separated(p, tolerances: tolerances), separated(q, tolerances: tolerances)
        else { return false }
        // Every stroke of one pair crosses both of the other, inside both, at two distinct places.
        var along: [[Double]] = [[], [], [], []]  // crossing fractions along p.0, p.1, q.0, q.1
        for (i, s) in [p.0, p.1].enumerated() {
            for (j, r) in [q.0, q.1].enumerated() {
                guard let (t, u) = crossing(s.start, s.end, r.start, r.end) else { return false }
                let lo = tolerances.interior, hi = 1 - tolerances.interior
                guard t >= lo, t <= hi, u >= lo, u <= hi else { return false }
                along[i].append(t)
                along[2 + j].append(u)
            }
        }
        return along.allSatisfy { abs($0[0] - $0[1]) >= tolerances.crossingSpread }
    }

    /// True when the two strokes of a pair are apart (not one stroke traced twice, not collinear).
    private static func separated(_ pair: (StrokeShape, StrokeShape), tolerances: Tolerances) -> Bool {
        let (a, b) = pair
        let chord = a.chord, length = chord.length
        guard length > 0 else { return false }
        let mid = Vector(x: (b.start.x + b.end.x) / 2, y: (b.start.y + b.end.y) / 2) - a.start
        let distance = abs(mid.x * chord.y - mid.y * chord.x) / length
        return distance >= tolerances.pairSeparation * (a.chord.length + b.chord.length) / 2
    }

    private static func meanAngle(_ a: Double, _ b: Double) -> Double {
        // Undirected angles: average on the doubled circle.
        let x = cos(2 * a) + cos(2 * b), y = sin(2 * a) + sin(2 * b)
        var mean = atan2(y, x) / 2
        if mean < 0 { mean += .pi }
        return mean
    }
}
