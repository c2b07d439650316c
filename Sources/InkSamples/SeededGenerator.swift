import Foundation

/// SplitMix64: a small, fast, seedable generator. The same seed gives the same numbers on every
/// platform and Swift version, which the standard library's random APIs do not promise.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0 ..< 1` with 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// A value spread evenly over `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// An index in `0 ..< count`; `count` must be positive.
    public mutating func index(below count: Int) -> Int { Int(next() % UInt64(count)) }

    /// A normally distributed value (mean 0) cut off at ±2.5 standard deviations, so a rare draw
    /// cannot push ink off the page or onto the next line.
    public mutating func normal(_ deviation: Double) -> Double {
        guard deviation > 0 else { return 0 }
        let u1 = Swift.max(unit(), 0x1p-53), u2 = unit()
        let z = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
        return Swift.min(2.5, Swift.max(-2.5, z)) * deviation
    }

    /// The elements of `items` in a random order (Fisher–Yates).
    public mutating func shuffled<T>(_ items: [T]) -> [T] {
        var result = items
        var i = result.count - 1
        while i > 0 {
            result.swapAt(i, index(below: i + 1))
            i -= 1
        }
        return result
    }
}
