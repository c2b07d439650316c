import InkFont

/// How the text is written: which Hershey font, and whether letters join.
public enum HandwritingStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// Separate upright letters from the simplex roman font.
    case print
    /// Slanted script whose letters join within a word where the font's glyphs meet.
    case script

    /// The `.jhf` file in the fonts folder that this style writes with.
    public var fontFileName: String {
        switch self {
        case .print: "rowmans.jhf"
        case .script: "scripts.jhf"
        }
    }

    /// The compiled-in font of this style (``fontFileName`` as shipped in `fonts/`).
    public var font: HersheyFont {
        switch self {
        case .print: .romanSimplex
        case .script: .scriptSimplex
        }
    }

    /// Share of the font's advance a letter takes: hands print tighter than type, while script
    /// letters keep the font's spacing so that their strokes meet.
    var tracking: Double {
        switch self {
        case .print: 0.9
        case .script: 1
        }
    }

    /// Largest gap, in font units, between two letters' pen paths that the pen bridges without
    /// lifting; nil when letters never join.
    var letterJoinGap: Double? {
        switch self {
        case .print: nil
        case .script: 10
        }
    }

    /// Largest gap, in font units, between two strokes of one glyph that the pen bridges.
    /// The script font lifts the pen where a hand would not (the humps of `m`, the bowl and stem
    /// of `g`); print only runs on where strokes meet.
    var strokeJoinGap: Double {
        switch self {
        case .print: 0.5
        case .script: 10
        }
    }

    /// True when dots and crossbars wait until the word's joined letters are written.
    var defersMarks: Bool { self == .script }
}
