import Foundation
import InkCore

/// Word spacing from the strokes: a hand leaves gaps between words that are only a little wider
/// than some gaps between letters, and Tesseract runs such words together (`docbefore`). The strokes
/// show where the gaps are; the widest ones (those that stand apart from the letter gaps of the
/// line) are widened in the image to at least ``minimumWordGap`` letters.
struct WordGaps {
    /// Extra horizontal shift of each stroke (parallel to the strokes given), page pixels.
    var shifts: [Double]
    /// Where each shifted piece starts on the page (before shifting) and its shift, left to right.
    var segments: [(start: Double, shift: Double)]

    var total: Double { segments.last?.shift ?? 0 }

    /// Word gaps made at least this many letter heights wide.
    static let minimumWordGap = 1.0

    init(shapes: [StrokeShape], strokes: [Int], textHeight h: Double) {
        shifts = Array(repeating: 0, count: strokes.count)
        segments = []
        // Clusters: strokes whose horizontal extents overlap (or nearly touch) form one piece of ink.
        let order = strokes.indices.sorted { shapes[strokes[$0]].bounds.minX < shapes[strokes[$1]].bounds.minX }
        var clusters: [(minX: Double, maxX: Double, members: [Int])] = []
        for position in order {
            let b = shapes[strokes[position]].bounds
            if var last = clusters.last, b.minX <= last.maxX + 0.05 * h {
                last.maxX = max(last.maxX, b.maxX)
                last.members.append(position)
                clusters[clusters.count - 1] = last
            } else {
                clusters.append((b.minX, b.maxX, [position]))
            }
        }
        guard clusters.count > 1 else { return }
        let gaps = zip(clusters, clusters.dropFirst()).map { $1.minX - $0.maxX }
        let threshold = Self.wordGapThreshold(gaps, textHeight: h)
        var shift = 0.0
        for (index, cluster) in clusters.enumerated() {
            if index > 0 {
                let gap = gaps[index - 1]
                if gap >= threshold, gap < Self.minimumWordGap * h {
                    shift += Self.minimumWordGap * h - gap
                    segments.append((cluster.minX, shift))
                }
            }
            for member in cluster.members { shifts[member] = shift }
        }
    }

    /// The gap width from which a gap separates words. The line's gaps are split into two groups
    /// (narrow letter gaps, wide word gaps) with the least spread; the split counts only when the
    /// groups stand clearly apart (the widest letter gap under 60% of the narrowest word gap) and lies
    /// between 0.5 and 0.8 letter heights. Otherwise only gaps of 0.8 letter heights count: a line
    /// holding one word must not be cut into pieces.
    static func wordGapThreshold(_ gaps: [Double], textHeight h: Double) -> Double {
        let lower = 0.5 * h, upper = 0.8 * h
        let sorted = gaps.sorted()
        guard sorted.count >= 3 else { return upper }
        var best = (cost: Double.infinity, split: 0)
        for split in 1..<sorted.count {
            let left = sorted[..<split], right = sorted[split...]
            let cost = variance(left) * Double(left.count) + variance(right) * Double(right.count)
            if cost < best.cost { best = (cost, split) }
        }
        let widestLetterGap = sorted[best.split - 1], narrowestWordGap = sorted[best.split]
        guard widestLetterGap < 0.6 * narrowestWordGap else { return upper }
        return min(upper, max(lower, (widestLetterGap + narrowestWordGap) / 2))
    }

    private static func variance(_ values: ArraySlice<Double>) -> Double {
        guard values.count > 1 else { return 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
    }

    /// The page x of a point drawn at shifted x `x`.
    func unshift(_ x: Double) -> Double {
        var shift = 0.0
        for segment in segments where x >= segment.start + segment.shift { shift = segment.shift }
        return x - shift
    }
}
