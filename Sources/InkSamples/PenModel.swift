import Foundation
import InkCore

/// One point as a tablet reports it.
struct PenSample {
    var position: Vector
    /// 0…1.
    var pressure: Double
    /// Milliseconds since the stroke began.
    var time: Double
}

/// How the simulated pen moves over a path: a tablet's sampling rate, and a hand's speed that
/// is lower at the start and end of a stroke and in sharp turns, with pressure that rises and falls.
public struct PenModel: Sendable, Hashable {
    /// Samples per second.
    public var sampleRate: Double
    /// The range of a stroke's mean speed, pixels per second.
    public var speed: ClosedRange<Double>

    public init(sampleRate: Double = 120, speed: ClosedRange<Double> = 150...400) {
        self.sampleRate = sampleRate
        self.speed = speed
    }

    /// Distance over which the pen speeds up at the start and slows down at the end, pixels.
    private static let rampLength = 10.0
    /// Step of the arc-length integration, pixels.
    private static let step = 0.5

    /// Samples `path` drawn at a mean speed of `speed` pixels per second, with `noise` pixels of
    /// jitter on each point.
    func sample(_ path: [Vector], speed: Double, noise: Double, rng: inout SeededGenerator) -> [PenSample] {
        let lengths = zip(path, path.dropFirst()).map { ($1 - $0).length }
        let total = lengths.reduce(0, +)
        let corners = cornerSlowdowns(path, lengths: lengths)

        // Time at every `step` of arc length, in units of the fastest pace, then scaled to `speed`.
        var times = [0.0]
        var s = 0.0
        while s < total {
            let ds = min(Self.step, total - s)
            let mid = s + ds / 2
            let ramp = smoothstep(min(mid, total - mid) / min(Self.rampLength, max(total / 2, 1e-9)))
            var pace = 0.3 + 0.7 * ramp
            for corner in corners where abs(corner.at - mid) < 8 {
                pace = min(pace, 1 - corner.slowdown * (1 - abs(corner.at - mid) / 8))
            }
            times.append(times[times.count - 1] + ds / max(pace, 0.2))
            s += ds
        }
        if total > 0 {
            let scale = total / speed * 1000 / times[times.count - 1]
            times = times.map { $0 * scale }
        }
        let duration = max(times[times.count - 1], 1000 / sampleRate)

        let base = 0.5 + rng.normal(0.06)
        let tremor = (period: rng.uniform(120...260), phase: rng.uniform(0...(2 * .pi)))
        let interval = 1000 / sampleRate
        // Samples on the tablet's clock, then the pen-up point, which replaces a sample just before it.
        var sampleTimes = Array(stride(from: 0, to: duration, by: interval))
        if duration - sampleTimes[sampleTimes.count - 1] < interval / 4 { sampleTimes.removeLast() }
        sampleTimes.append(duration)

        return sampleTimes.map { t in
            let distance = arcLength(at: t * times[times.count - 1] / duration, times: times)
            let rampIn = smoothstep(t / 35), rampOut = smoothstep((duration - t) / 45)
            var pressure = base * (0.35 + 0.65 * rampIn) * (0.45 + 0.55 * rampOut)
            pressure += 0.04 * sin(2 * .pi * t / tremor.period + tremor.phase) + rng.normal(0.012)
            let noisy = point(at: distance, path: path, lengths: lengths)
                + Vector(x: rng.normal(noise), y: rng.normal(noise))
            return PenSample(position: noisy, pressure: min(1, max(0.02, pressure)), time: t)
        }
    }

    /// Where the pen slows for a turn: arc length of each sharp vertex and how much it slows (0…0.45).
    private func cornerSlowdowns(_ path: [Vector], lengths: [Double]) -> [(at: Double, slowdown: Double)] {
        var result: [(at: Double, slowdown: Double)] = []
        var travelled = lengths.first ?? 0
        for i in path.indices.dropFirst().dropLast() {
            let a = path[i] - path[i - 1], b = path[i + 1] - path[i]
            if a.length > 0, b.length > 0 {
                let cosine = (a.x * b.x + a.y * b.y) / (a.length * b.length)
                let turn = acos(min(1, max(-1, cosine)))
                if turn > 0.35 { result.append((travelled, 0.45 * min(1, turn / (.pi / 2)))) }
            }
            travelled += lengths[i]
        }
        return result
    }

    /// The arc length reached at `time`, from the integration table (one entry per `step`).
    private func arcLength(at time: Double, times: [Double]) -> Double {
        var low = 0, high = times.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if times[mid] <= time { low = mid } else { high = mid }
        }
        let span = times[high] - times[low]
        let fraction = span > 0 ? min(1, max(0, (time - times[low]) / span)) : 0
        return (Double(low) + fraction) * Self.step
    }

    /// The point `distance` along the path.
    private func point(at distance: Double, path: [Vector], lengths: [Double]) -> Vector {
        var remaining = distance
        for (i, length) in lengths.enumerated() {
            if remaining <= length, length > 0 { return path[i] + (path[i + 1] - path[i]) * (remaining / length) }
            remaining -= length
        }
        return path[path.count - 1]
    }

    private func smoothstep(_ x: Double) -> Double {
        let t = min(1, max(0, x))
        return t * t * (3 - 2 * t)
    }
}
