/// How far the writing strays from the font's perfect shapes.
public enum JitterLevel: String, Sendable, Hashable, Codable, CaseIterable {
    case none, mild, strong

    /// The amounts of each kind of variation at this level.
    public var profile: JitterProfile {
        switch self {
        case .none:
            JitterProfile()
        case .mild:
            JitterProfile(noteSlant: 0.05, wordSlant: 0.02, wordScale: 0.03, letterScale: 0.02, letterSpacing: 0.6,
                          wordGap: 0.1, wordRotation: 0.006, baselineOffset: 1.2, baselineDrift: 2, lineIndent: 4,
                          strokeWobble: 0.5, pointNoise: 0.15)
        case .strong:
            JitterProfile(noteSlant: 0.1, wordSlant: 0.05, wordScale: 0.06, letterScale: 0.05, letterSpacing: 1.4,
                          wordGap: 0.25, wordRotation: 0.018, baselineOffset: 2, baselineDrift: 4, lineIndent: 10,
                          strokeWobble: 1.4, pointNoise: 0.4)
        }
    }
}

/// Standard deviations (or amplitudes) of the variations jitter applies. All zero means the font's
/// shapes exactly, on straight baselines.
public struct JitterProfile: Sendable, Hashable {
    /// Slant drawn once per note, radians (positive leans right).
    public var noteSlant = 0.0
    /// Extra slant per word, radians.
    public var wordSlant = 0.0
    /// Relative size change per word.
    public var wordScale = 0.0
    /// Relative size change per letter.
    public var letterScale = 0.0
    /// Change of each letter's advance, font units.
    public var letterSpacing = 0.0
    /// Relative change of each gap between words.
    public var wordGap = 0.0
    /// Rotation of each word about its start, radians.
    public var wordRotation = 0.0
    /// Vertical offset of each word from the line, pixels.
    public var baselineOffset = 0.0
    /// Amplitude of the slow wave the baseline follows across a line, pixels.
    public var baselineDrift = 0.0
    /// Change of where each line starts, pixels.
    public var lineIndent = 0.0
    /// Amplitude of the smooth sideways wander along each stroke, pixels.
    public var strokeWobble = 0.0
    /// Independent noise on every sampled point, pixels.
    public var pointNoise = 0.0

    public init(noteSlant: Double = 0, wordSlant: Double = 0, wordScale: Double = 0, letterScale: Double = 0,
                letterSpacing: Double = 0, wordGap: Double = 0, wordRotation: Double = 0, baselineOffset: Double = 0,
                baselineDrift: Double = 0, lineIndent: Double = 0, strokeWobble: Double = 0, pointNoise: Double = 0) {
        self.noteSlant = noteSlant
        self.wordSlant = wordSlant
        self.wordScale = wordScale
        self.letterScale = letterScale
        self.letterSpacing = letterSpacing
        self.wordGap = wordGap
        self.wordRotation = wordRotation
        self.baselineOffset = baselineOffset
        self.baselineDrift = baselineDrift
        self.lineIndent = lineIndent
        self.strokeWobble = strokeWobble
        self.pointNoise = pointNoise
    }
}
