import Foundation
import InkCore

/// The size and slant of one line of handwriting, measured from its strokes, so that every render
/// of the line can draw it at a chosen x-height and, if asked, upright.
struct LineMetrics: Sendable, Equatable {
    /// Height of the line's lower-case letters (page pixels): the band where its ink is densest.
    var xHeight: Double
    /// The line's slant as a shear (dx/dy of its near-vertical pieces; negative when it leans right,
    /// y growing downwards), within ±1.
    var slant: Double

    /// Measures the strokes at `indices` of `strokes`. `strokeHeight` is the line's typical letter
    /// stroke height; the x-height is never taken below 0.3 of it.
    init(_ strokes: [Stroke], indices: [Int], strokeHeight: Double) {
        let samples = Self.resampled(strokes, indices: indices, step: max(0.25, strokeHeight / 20))
        xHeight = max(Self.densestBand(samples.map(\.point.y), bin: max(0.25, strokeHeight / 20)), 0.3 * strokeHeight, 1)
        slant = Self.slant(samples, minimumInk: 4 * strokeHeight)
    }

    /// Points along the strokes every `step` page pixels (each with the direction of its piece),
    /// so that ink counts by length, not by how densely the pen sampled it.
    private static func resampled(_ strokes: [Stroke], indices: [Int], step: Double) -> [(point: Vector, piece: Vector)] {
        var samples: [(Vector, Vector)] = []
        for index in indices {
            let points = strokes[index].points.filter { $0.x.isFinite && $0.y.isFinite }
                .map { Vector(x: Double($0.x), y: Double($0.y)) }
            if points.count == 1 { samples.append((points[0], .zero)) }
            for (a, b) in zip(points, points.dropFirst()) {
                let piece = b - a, length = piece.length
                guard length > 0 else { continue }
                let count = max(1, Int((length / step).rounded(.up)))
                for i in 0..<count { samples.append((a + piece * ((Double(i) + 0.5) / Double(count)), piece * (1 / Double(count)))) }
            }
        }
        return samples
    }

    /// The height of the band around the peak of a smoothed histogram of `ys`, extended while the
    /// count stays at or above 0.4 of the peak.
    private static func densestBand(_ ys: [Double], bin: Double) -> Double {
        guard let low = ys.min(), let high = ys.max(), high > low else { return 0 }
        let count = min(4_000, Int((high - low) / bin) + 1)
        let width = (high - low) / Double(count - 1 > 0 ? count - 1 : 1)
        var histogram = [Double](repeating: 0, count: count)
        for y in ys { histogram[min(count - 1, Int((y - low) / max(width, 1e-9)))] += 1 }
        // Smoothed over 0.15 letter heights, so that the bends at the top and bottom of round
        // letters (where ink runs level) do not stand out from the strokes between them.
        let sigma = max(1, 3 * bin / max(width, 1e-9))
        let kernel = (-Int(3 * sigma)...Int(3 * sigma)).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let smoothed = histogram.indices.map { i in
            kernel.indices.reduce(0.0) { sum, k in
                let j = i + k - kernel.count / 2
                return j >= 0 && j < count ? sum + kernel[k] * histogram[j] : sum
            }
        }
        guard let peak = smoothed.indices.max(by: { smoothed[$0] < smoothed[$1] }) else { return 0 }
        var top = peak, bottom = peak
        while top > 0, smoothed[top - 1] >= 0.4 * smoothed[peak] { top -= 1 }
        while bottom < count - 1, smoothed[bottom + 1] >= 0.4 * smoothed[peak] { bottom += 1 }
        return Double(bottom - top + 1) * width
    }

    /// Length-weighted median of dx/dy over pieces within 40° of vertical, clamped to ±1; 0 when
    /// such pieces add up to less than `minimumInk`.
    private static func slant(_ samples: [(point: Vector, piece: Vector)], minimumInk: Double) -> Double {
        let steep = tan(40 * Double.pi / 180)
        var ratios: [(ratio: Double, weight: Double)] = []
        for sample in samples where sample.piece.y != 0 && abs(sample.piece.x) <= steep * abs(sample.piece.y) {
            ratios.append((sample.piece.x / sample.piece.y, sample.piece.length))
        }
        guard ratios.reduce(0, { $0 + $1.weight }) >= minimumInk, let ratio = weightedMedian(ratios) else { return 0 }
        return min(1, max(-1, ratio))
    }
}
