import InkCore

/// A written note: the ink on each page and the text it is known to say.
public struct SyntheticNote: Sendable, Hashable {
    /// What was asked for: title, notebook, style, jitter, seed and text.
    public var spec: SampleSpec
    /// In reading order.
    public var pages: [SyntheticPage]

    /// The pages as InkCore values.
    public var inkPages: [Page] { pages.map(\.page) }
}

/// One page of a synthetic note.
public struct SyntheticPage: Sendable, Hashable {
    /// The strokes, numbered from 1 in the order they were drawn.
    public var page: Page
    /// When the page was turned to, in milliseconds since the recording began; stroke start times
    /// count from here.
    public var startTime: Double
    /// The lines of text as written, top to bottom.
    public var lines: [WrittenLine]

    /// The tags written as hashtags on this page, in order of first appearance, each once.
    public var hashtags: [Tag] {
        var seen: [Tag] = []
        for word in lines.flatMap(\.words) {
            if let tag = NoteText.hashtag(in: word.text), !seen.contains(tag) { seen.append(tag) }
        }
        return seen
    }
}

/// One line of handwriting: its text and where its ink lies.
public struct WrittenLine: Sendable, Hashable {
    public var words: [WrittenWord]
    /// The words joined by single spaces.
    public var text: String { words.map(\.text).joined(separator: " ") }
    /// The smallest rectangle holding the line's ink.
    public var bounds: Rect { words.reduce(Rect.null) { $0.union($1.bounds) } }
    /// The first and last stroke of the line.
    public var strokes: ClosedRange<StrokeID> { words[0].strokes.lowerBound...words[words.count - 1].strokes.upperBound }
}

/// One written word (or the part of an over-long word that fits on a line).
public struct WrittenWord: Sendable, Hashable {
    public var text: String
    public var bounds: Rect
    /// The word's strokes, in drawing order.
    public var strokes: ClosedRange<StrokeID>
}
