import Foundation
import InkCore
import InkFont

/// Writes a ``SampleSpec``'s text as handwriting: lays words out on ruled pages, shapes them with
/// the style's Hershey font and jitter, and times every stroke like a hand on a tablet.
public struct HandwritingSynthesizer: Sendable {
    /// The font for the specs' style (``HandwritingStyle/fontFileName``).
    public let font: HersheyFont
    /// Must leave room for at least one line.
    public var layout: PageLayout
    public var pen: PenModel

    public init(font: HersheyFont, layout: PageLayout = .remarkable, pen: PenModel = PenModel()) {
        self.font = font
        self.layout = layout
        self.pen = pen
    }

    /// The note `spec` describes. Deterministic: the same spec gives the same note.
    public func write(_ spec: SampleSpec) -> SyntheticNote {
        precondition(!layout.baselines.isEmpty, "the page layout leaves no room for a line")
        var writer = NoteWriter(synthesizer: self, spec: spec)
        for (index, page) in spec.text.pages.enumerated() {
            if index > 0 { writer.turnPage() }
            for entry in page { writer.write(entry: entry) }
        }
        return SyntheticNote(spec: spec, pages: writer.finish())
    }
}

/// A word's sampled strokes, relative to where it starts on its baseline.
private struct WordInk {
    var strokes: [[PenSample]]
    var bounds: Rect
    var advance: Double
}

/// What the pen does before a stroke, which decides how long it pauses.
private enum Pause {
    case page, line, word, stroke

    /// Milliseconds of thinking and lifting, before travel.
    var range: ClosedRange<Double> {
        switch self {
        case .page: 600...1500
        case .line: 450...1100
        case .word: 180...450
        case .stroke: 80...250
        }
    }
}

/// The pen's progress through one note: the page and line it is on, and the time.
private struct NoteWriter {
    /// How fast the pen travels in the air between strokes, pixels per millisecond.
    static let airSpeed = 1.5
    /// The gap between words as a share of the font's space: hands leave less room than type.
    static let wordSpacing = 0.8

    let layout: PageLayout
    let pen: PenModel
    let jitter: JitterProfile
    let shaper: WordShaper
    let baselines: [Double]
    let spaceWidth: Double
    /// This hand's usual mean speed along a stroke, pixels per second.
    let handSpeed: Double

    var rng: SeededGenerator
    var finished: [SyntheticPage] = []
    var page: SyntheticPage
    /// Milliseconds since the recording began, at the last pen-up.
    var clock = 0.0
    var lastPenUp: Vector?
    /// Index into `baselines` of the line being written, or of the next one while `line` is empty.
    var lineIndex = 0
    var line: [WrittenWord] = []
    var cursorX = 0.0
    /// The slow wave this line's baseline follows.
    var drift = (length: 1.0, phase: 0.0)

    init(synthesizer: HandwritingSynthesizer, spec: SampleSpec) {
        layout = synthesizer.layout
        pen = synthesizer.pen
        jitter = spec.jitter.profile
        baselines = layout.baselines
        rng = SeededGenerator(seed: spec.seed)
        handSpeed = rng.uniform(290...370)
        shaper = WordShaper(font: synthesizer.font, style: spec.style, jitter: jitter,
                            scale: layout.glyphScale, slant: rng.normal(jitter.noteSlant))
        spaceWidth = Double(synthesizer.font.glyph(for: " ")?.advance ?? 16) * layout.glyphScale * Self.wordSpacing
        page = SyntheticPage(page: Page(id: .random(using: &rng), size: layout.size, template: layout.template),
                             startTime: 0, lines: [])
    }

    /// Starts a new line with `entry` and writes its words, wrapping as needed; an empty entry
    /// leaves a line empty (except at the top of a page).
    mutating func write(entry: String) {
        endLine()
        let words = entry.split(separator: " ").map(String.init)
        if words.isEmpty, lineIndex > 0 { lineIndex += 1 }
        for word in words {
            var remaining = Substring(word)
            while !remaining.isEmpty { remaining = remaining.dropFirst(place(remaining)) }
        }
    }

    mutating func turnPage() {
        endLine()
        finished.append(page)
        page = SyntheticPage(page: Page(id: .random(using: &rng), size: layout.size, template: layout.template),
                             startTime: clock, lines: [])
        lineIndex = 0
        lastPenUp = nil
    }

    mutating func finish() -> [SyntheticPage] {
        endLine()
        return finished + [page]
    }

    private mutating func endLine() {
        guard !line.isEmpty else { return }
        page.lines.append(WrittenLine(words: line))
        line = []
        lineIndex += 1
    }

    private mutating func startLine() {
        if lineIndex >= baselines.count { turnPage() }
        cursorX = layout.textLeft + abs(rng.normal(jitter.lineIndent))
        drift = (rng.uniform(600...1100), rng.uniform(0...(2 * .pi)))
    }

    /// Writes as much of `word` as fits on a line (all of it unless it is wider than a whole line),
    /// moving to the next line first if it does not fit after the words already there.
    /// Returns how many characters it wrote.
    private mutating func place(_ word: Substring) -> Int {
        var ink = self.ink(String(word))
        var x = cursorX + spaceWidth * (1 + rng.normal(jitter.wordGap))
        if !line.isEmpty, x + ink.bounds.maxX > layout.textRight { endLine() }
        var count = word.count
        if line.isEmpty {
            startLine()
            x = max(cursorX, layout.textLeft - ink.bounds.minX)
            while count > 1, x + ink.bounds.maxX > layout.textRight {
                count -= 1
                ink = self.ink(String(word.prefix(count)))
                x = max(cursorX, layout.textLeft - ink.bounds.minX)
            }
        }
        guard !ink.strokes.isEmpty else { return count }
        let y = baselines[lineIndex] + jitter.baselineDrift * sin(2 * .pi * x / drift.length + drift.phase)
            + rng.normal(jitter.baselineOffset)
        let offset = Vector(x: x, y: y)

        let first = page.page.nextStrokeID
        for (index, samples) in ink.strokes.enumerated() {
            let start = samples[0].position + offset
            let kind: Pause = page.page.strokes.isEmpty ? .page : index > 0 ? .stroke : line.isEmpty ? .line : .word
            clock += rng.uniform(kind.range) + (lastPenUp.map { (start - $0).length } ?? 0) / Self.airSpeed
            let points = samples.map { sample in
                InkPoint(x: Float(sample.position.x + x), y: Float(sample.position.y + y),
                         pressure: Float(sample.pressure), time: Float(sample.time))
            }
            page.page.strokes.append(Stroke(id: page.page.nextStrokeID, startTime: clock - page.startTime, points: points))
            clock += Double(points[points.count - 1].time)  // as stored, so page times add up exactly
            lastPenUp = samples[samples.count - 1].position + offset
        }
        let bounds = Rect(minX: ink.bounds.minX + x, minY: ink.bounds.minY + y,
                          maxX: ink.bounds.maxX + x, maxY: ink.bounds.maxY + y)
        line.append(WrittenWord(text: String(word.prefix(count)), bounds: bounds,
                                strokes: first...StrokeID(page.page.nextStrokeID.rawValue - 1)))
        cursorX = x + ink.advance
        return count
    }

    /// `word` shaped and sampled, relative to its start on the baseline.
    private mutating func ink(_ word: String) -> WordInk {
        let shaped = shaper.shape(word, rng: &rng)
        let strokes = shaped.paths.map { path in
            let speed = min(pen.speed.upperBound, max(pen.speed.lowerBound, handSpeed * (1 + rng.normal(0.12))))
            return pen.sample(path, speed: speed, noise: jitter.pointNoise, rng: &rng)
        }
        return WordInk(strokes: strokes, bounds: Rect(enclosing: strokes.joined().map(\.position)), advance: shaped.advance)
    }
}
