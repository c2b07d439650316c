import InkCore

/// Dashed strokes (``Stroke/dash``) as the solid pieces they are drawn with: the pattern's on lengths
/// laid along the stroke from its start (as Cairo lays a dash pattern), each piece ending with round
/// caps, so a zero on length is a dot. Renderers draw the pieces; the stroke itself is kept whole.
public enum Dashing {
    /// The pieces `stroke` is drawn as: itself when solid, else one stroke per dash (same id, style
    /// and layer, no fill or dash of their own), points interpolated where a dash starts and ends.
    public static func pieces(of stroke: Stroke) -> [Stroke] {
        guard let dash = stroke.dash, Stroke.isValidDash(dash), stroke.points.count > 1 else { return [stroke] }
        let pattern = (dash.count % 2 == 0 ? dash : dash + dash).map(Double.init)
        let period = pattern.reduce(0, +)
        guard period > 0 else { return [stroke] }
        // Arc length at each point, then the off intervals in point-index space.
        var along = [0.0]
        for i in 1..<stroke.points.count {
            let a = stroke.points[i - 1], b = stroke.points[i]
            along.append(along[i - 1] + Double(((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()))
        }
        let total = along[along.count - 1]
        // At most 20,000 dashes a stroke: a hostile pattern of tiny lengths cannot explode the drawing.
        guard total > 0, total / period * Double(pattern.count) <= 20_000 else { return [stroke] }
        func index(at s: Double) -> Double {
            var lo = 0, hi = along.count - 1
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if along[mid] <= s { lo = mid } else { hi = mid }
            }
            let span = along[hi] - along[lo]
            return Double(lo) + (span > 0 ? (s - along[lo]) / span : 0)
        }
        var off: [ClosedRange<Double>] = []
        var s = 0.0, k = 0
        while s < total {
            let length = pattern[k % pattern.count]
            if k % 2 == 1, length > 0 { off.append(index(at: s)...index(at: min(total, s + length))) }
            s += length
            k += 1
        }
        return Erasing.remainingPieces(of: stroke, removing: off, minimumLength: 0).map { points in
            var piece = stroke
            piece.points = points
            piece.fill = nil
            piece.dash = nil
            return piece
        }
    }
}
