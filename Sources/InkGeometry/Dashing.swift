import InkCore

/// Dashed strokes (``Stroke/dash``) as the solid pieces they are drawn with: the pattern's on lengths
/// laid along the stroke from its start (as Cairo lays a dash pattern), each piece ending with round
/// caps, so a zero on length is a dot. Renderers draw the pieces; the stroke itself is kept whole.
public enum Dashing {
    /// Most dashes one stroke is drawn with: a hostile pattern of tiny lengths cannot explode the drawing
    /// (beyond it the stroke is drawn solid).
    public static let maxPieces = 20_000

    /// The pieces `stroke` is drawn as: itself when solid, else one stroke per dash (same id, style
    /// and layer, no fill or dash of their own), points interpolated where a dash starts and ends.
    public static func pieces(of stroke: Stroke) -> [Stroke] {
        guard let dash = stroke.dash, Stroke.isValidDash(dash), stroke.points.count > 1 else { return [stroke] }
        let pattern = (dash.count % 2 == 0 ? dash : dash + dash).map(Double.init)
        let period = pattern.reduce(0, +)
        // Arc length at each point.
        var along = [0.0]
        for i in 1..<stroke.points.count {
            let a = stroke.points[i - 1], b = stroke.points[i]
            along.append(along[i - 1] + Double(((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()))
        }
        let total = along[along.count - 1]
        guard total > 0, period > 0, total / period * Double(pattern.count / 2) <= Double(maxPieces) else { return [stroke] }
        /// The index (fractions between points) at arc length `s`.
        func index(at s: Double) -> Double {
            guard s < total else { return Double(along.count - 1) }
            var lo = 0, hi = along.count - 1
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if along[mid] <= s { lo = mid } else { hi = mid }
            }
            let span = along[hi] - along[lo]
            return Double(lo) + (span > 0 ? (s - along[lo]) / span : 0)
        }
        var pieces: [Stroke] = []
        var s = 0.0, k = 0
        while s < total {
            let length = pattern[k % pattern.count]
            if k % 2 == 0 {
                let from = index(at: s), to = index(at: min(total, s + length))
                var points = [Erasing.point(at: from, in: stroke.points)]
                var i = Int(from.rounded(.down)) + 1
                while Double(i) < to {
                    points.append(stroke.points[i])
                    i += 1
                }
                points.append(Erasing.point(at: to, in: stroke.points))
                var piece = stroke
                piece.points = points
                piece.fill = nil
                piece.dash = nil
                pieces.append(piece)
            }
            s += length
            k += 1
        }
        return pieces
    }
}
