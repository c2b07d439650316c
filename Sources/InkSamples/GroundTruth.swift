import Foundation
import InkCore

/// What a synthetic note is known to say, for scoring recognition: how it was made, and per page
/// the lines as written (with where their ink lies) and the hashtags.
public struct GroundTruth: Sendable, Hashable, Codable {
    public var title: String
    public var notebook: String
    /// ISO 8601.
    public var created: String
    public var style: HandwritingStyle
    public var jitter: JitterLevel
    public var seed: UInt64
    public var pages: [PageTruth]

    public struct PageTruth: Sendable, Hashable, Codable {
        public var lines: [LineTruth]
        /// Without `#`, lowercase, in order of first appearance.
        public var hashtags: [String]
    }

    public struct LineTruth: Sendable, Hashable, Codable {
        public var text: String
        /// The line's ink, pixels rounded to tenths.
        public var bounds: Rect
        /// The first and last stroke id of the line on its page.
        public var strokes: [UInt64]
    }

    public init(_ note: SyntheticNote) {
        title = note.spec.title
        notebook = note.spec.notebook.description
        created = ISO8601DateFormatter().string(from: note.spec.created)
        style = note.spec.style
        jitter = note.spec.jitter
        seed = note.spec.seed
        pages = note.pages.map { page in
            PageTruth(lines: page.lines.map { line in
                let box = line.bounds
                let round = { (value: Double) in (value * 10).rounded() / 10 }
                return LineTruth(text: line.text,
                                 bounds: Rect(minX: round(box.minX), minY: round(box.minY), maxX: round(box.maxX), maxY: round(box.maxY)),
                                 strokes: [line.strokes.lowerBound.rawValue, line.strokes.upperBound.rawValue])
            }, hashtags: page.hashtags.map(\.name))
        }
    }

    /// Pretty-printed JSON with sorted keys, ending in a newline.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
