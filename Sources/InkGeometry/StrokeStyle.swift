import Foundation

/// How pen pressure (0…1) maps to the share of the width range a stroke uses.
public enum PressureCurve: Sendable, Hashable, CustomStringConvertible {
    /// Width grows in proportion to pressure.
    case linear
    /// Light pressure already gives a fair width (p^0.55): for light-handed writers.
    case soft
    /// Width needs firm pressure (p^1.8): thin lines unless you press.
    case hard
    /// `p^exponent`; below 1 is softer, above 1 harder.
    case power(Double)

    @inlinable
    public func apply(_ pressure: Double) -> Double {
        let p = min(1, max(0, pressure))
        return self == .linear ? p : pow(p, exponent)
    }

    /// The curve as an exponent: `apply(p)` is `p^exponent`.
    @inlinable
    public var exponent: Double {
        switch self {
        case .linear: 1
        case .soft: 0.55
        case .hard: 1.8
        case .power(let e): max(0.05, e)
        }
    }

    public var description: String {
        switch self {
        case .linear: "linear"
        case .soft: "soft"
        case .hard: "hard"
        case .power(let e): "power(\(e))"
        }
    }

    /// Parses `linear`, `soft`, `hard` or a number (the exponent).
    public init?(name: String) {
        switch name.lowercased() {
        case "linear": self = .linear
        case "soft": self = .soft
        case "hard": self = .hard
        default:
            guard let e = Double(name), e > 0, e.isFinite else { return nil }
            self = .power(e)
        }
    }
}

/// Whether to make up pressure from the pen's speed.
public enum PressureSimulation: Sendable, Hashable {
    /// Only when the source has none: every point has the same pressure (or zero).
    case automatic
    /// Always, ignoring recorded pressure.
    case always
    /// Never: constant pressure gives constant width.
    case never
}

/// The shape of a stroke: how pressure becomes width, how much the centreline is smoothed, tapers.
/// Widths are fractions of the stroke's nominal width (``InkCore/Stroke/width``).
public struct StrokeStyle: Sendable, Hashable {
    public var pressureCurve: PressureCurve
    /// Width at pressure 0, as a fraction of the nominal width.
    public var minWidth: Double
    /// Width at pressure 1, as a fraction of the nominal width.
    public var maxWidth: Double
    /// Centreline smoothing, 0 (off: the spline passes through every sample) to 1 (strong). The
    /// smoothing is a Gaussian over arc length (σ = smoothing × 1.5 × nominal width, at most 6 page
    /// units) that keeps both ends where they are and does not lag behind the pen.
    public var smoothing: Double
    /// Length of the tapered start, in nominal widths (0: no taper). Never more than 40 % of the stroke.
    public var taperStart: Double
    /// Length of the tapered end, in nominal widths (0: no taper).
    public var taperEnd: Double
    /// The radius left at the very tip of a taper, as a fraction of the untapered radius.
    public var taperTip: Double
    public var pressureSimulation: PressureSimulation
    /// Turns sharper than this many degrees split the stroke into pieces that meet with round ends,
    /// so corners stay sharp and never grow "elbows".
    public var cornerAngle: Double

    public init(pressureCurve: PressureCurve = .linear, minWidth: Double = 0.3, maxWidth: Double = 1.0,
                smoothing: Double = 0.5, taperStart: Double = 2, taperEnd: Double = 3, taperTip: Double = 0.3,
                pressureSimulation: PressureSimulation = .automatic, cornerAngle: Double = 90) {
        self.pressureCurve = pressureCurve
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.smoothing = smoothing
        self.taperStart = taperStart
        self.taperEnd = taperEnd
        self.taperTip = taperTip
        self.pressureSimulation = pressureSimulation
        self.cornerAngle = cornerAngle
    }

    /// Ballpoint-like pen: width follows pressure, gentle tapers.
    public static let pen = StrokeStyle()
    /// Near-constant width, small tapers.
    public static let fineliner = StrokeStyle(minWidth: 0.85, maxWidth: 1.0, taperStart: 0.6, taperEnd: 0.8, taperTip: 0.6)
    /// Pencil: narrower range of width (pressure mostly drives darkness).
    public static let pencil = StrokeStyle(minWidth: 0.55, maxWidth: 1.0, taperStart: 1.5, taperEnd: 2, taperTip: 0.4)
    /// Marker: broad and nearly constant.
    public static let marker = StrokeStyle(minWidth: 0.75, maxWidth: 1.0, smoothing: 0.6, taperStart: 0, taperEnd: 0)
    /// Highlighter: constant width, no tapers, strong smoothing.
    public static let highlighter = StrokeStyle(minWidth: 1, maxWidth: 1, smoothing: 0.8, taperStart: 0, taperEnd: 0,
                                                pressureSimulation: .never)

    /// Half the width at `pressure`, before tapers.
    @inlinable
    package func radius(nominalWidth: Double, pressure: Double) -> Double {
        0.5 * nominalWidth * (minWidth + (maxWidth - minWidth) * pressureCurve.apply(pressure))
    }
}
