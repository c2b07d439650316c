import Foundation
import InkCore
import InkGeometry

/// Reads handwriting with Tesseract, using what the strokes tell about it: lines are found from
/// the writing order and geometry and read one at a time; a `#` is found from its four strokes
/// (Tesseract can't read a handwritten one), left out of the image and put back on the word after
/// it; recognised hashtags are snapped to ``knownTags`` when the reading is close to one.
///
/// One instance per thread (it owns a Tesseract engine); reuse it for many pages. Tesseract is loaded
/// when the first one is made, with `OMP_THREAD_LIMIT=1` unless the environment sets it.
///
/// This file holds the recogniser and its page-level steps; the rest is by concern in
/// `TesseractRecognizer+Reading.swift` (drawing lines and running Tesseract), `+Voting.swift`
/// (choosing between renders' readings, numbered lists), `+Spelling.swift` and `+Hashtags.swift`.
public final class TesseractRecognizer: PageRecognizer {
    public let options: RecognitionOptions
    /// Tags the library already has: recognised hashtags close to one of them become that tag.
    public var knownTags: Set<Tag> {
        get { snapper.known }
        set { snapper = TagSnapper(known: newValue) }
    }
    /// The Tesseract engine this recogniser owns.
    public let engine: TesseractEngine
    private(set) var snapper: TagSnapper
    /// The words readings are checked against when a line's renders vote: the system word list
    /// for the language plus, as the caller adds them, the library's own words.
    public var lexicon: Lexicon {
        didSet { spelling = nil; ctcSpelling = nil }
    }
    /// Spells misread words as lexicon words; made on first use (it indexes the lexicon).
    var spelling: LexiconLattice?
    /// Spells neural readings, made on first use.
    var ctcSpelling: CTCSpelling?
    /// The neural line reader that reads each line beside Tesseract's renders (``RecognitionOptions/reader``);
    /// nil for ``RecognitionOptions/Reader/tesseract``, or when it cannot run.
    public let neural: NeuralLineReader?
    /// Why the neural reader asked for cannot run (ONNX Runtime or its model missing or damaged): then
    /// Tesseract reads alone, and a front end says so once.
    public let neuralProblem: RecognitionError?

    /// Starts a Tesseract engine for `language` from `dataPath` (found from `TESSDATA_PREFIX` or the
    /// usual folders when nil). Throws a ``RecognitionError`` when the language data is missing. The
    /// neural reader, when ``RecognitionOptions/reader`` asks for it, is `neural`, or by default the one
    /// ``NeuralLineReader/shared(environment:)`` finds; when it cannot run, Tesseract reads alone.
    public init(knownTags: Set<Tag> = [], options: RecognitionOptions = RecognitionOptions(),
                language: String = "eng", dataPath: String? = nil, lexicon: Lexicon? = nil,
                neural: Result<NeuralLineReader, RecognitionError>? = nil) throws(RecognitionError) {
        switch options.reader == .tesseract ? nil : neural ?? NeuralLineReader.shared() {
        case nil: (self.neural, neuralProblem) = (nil, nil)
        case let .success(reader): (self.neural, neuralProblem) = (reader, nil)
        case let .failure(problem): (self.neural, neuralProblem) = (nil, problem)
        }
        var variables: [(name: String, value: String)] = [
            ("textord_noise_rejrows", options.rejectNoiseRows ? "1" : "0"),
        ]
        for (name, value) in options.tesseractVariables.sorted(by: { $0.key < $1.key }) { variables.append((name, value)) }
        engine = try TesseractEngine(language: language, dataPath: dataPath, variables: variables)
        self.options = options
        snapper = TagSnapper(known: knownTags)
        self.lexicon = lexicon ?? .system(language: language)
    }

    public func recognize(_ page: Page) throws -> PageRecognition {
        try read(page).recognition
    }

    /// What recognition saw on a page, for tests and measurement: the lines and `#` marks found in
    /// the strokes, and the result.
    public struct Analysis: Sendable {
        /// Lines in reading order; stroke indices refer to the page after erasing.
        public var lines: [InkLine]
        public var hashMarks: [HashMark]
        /// Strokes left out as not writing (indices into the erased page's strokes).
        public var nonText: [Int]
        /// How each hashtag word was decided.
        public var hashtagReadings: [HashtagReading]
        public var recognition: PageRecognition
    }

    /// How a hashtag word became a tag.
    public struct HashtagReading: Sendable, Hashable {
        public var tag: Tag
        /// What Tesseract read after the `#`.
        public var read: String
        /// Edits per letter between the reading and the known tag it was taken as; nil when it is no
        /// known tag.
        public var distancePerLetter: Double?
        /// Tesseract's confidence in the word, 0…1.
        public var confidence: Float
        /// False when it was left out of the page's hashtags (an unknown tag read without confidence).
        public var reported: Bool
    }

    /// Recognises `page` and says how.
    public func read(_ page: Page) throws(RecognitionError) -> Analysis {
        // What the page shows: hidden layers are not read.
        let ink = Erasing.apply(page.visible, mode: options.eraserMode).strokes
        let shapes = ink.enumerated().map { StrokeShape($0.element, index: $0.offset) }
        var candidates = ink.indices.filter { Self.isInk(ink[$0]) && Self.isPlausible(shapes[$0]) }
        let height = LineGrouper.typicalHeight(of: candidates.map { shapes[$0] })
        var nonText: [Int] = []
        if options.dropNonText {
            nonText = candidates.filter { !Self.looksLikeWriting(shapes[$0], textHeight: height) }
            let dropped = Set(nonText)
            candidates.removeAll { dropped.contains($0) }
        }
        let marks = options.detectHashMarks ? HashMarkDetector.find(shapes: shapes, order: candidates, textHeight: height) : []
        let lines = switch options.lineFinding {
        case .writingOrder: LineGrouper.group(shapes: shapes, order: candidates, textHeight: height)
        case .geometry: GeometricLineGrouper.group(shapes: shapes, order: candidates)
        }

        var readings: [Reading]
        var alternatives: [String] = []
        switch options.layout {
        case .lines:
            (readings, alternatives) = try readLines(ink, shapes: shapes, lines: lines, marks: marks, textHeight: height)
        case .page:
            readings = try readPage(ink, shapes: shapes, candidates: candidates, lines: lines, marks: marks, textHeight: height)
        }
        let (hashtags, decisions) = extractHashtags(&readings)
        return Analysis(lines: lines, hashMarks: marks, nonText: nonText, hashtagReadings: decisions,
                        recognition: PageRecognition(words: readings.map(\.word), hashtags: hashtags, alternatives: alternatives))
    }

    /// A recognised word and, when Tesseract was asked, what each of its letters might also be.
    struct Reading {
        var word: RecognizedWord
        var alternatives: [[OCRChoice]] = []
        /// The neural reader's output over the word, for spelling it (dropped once spelled).
        var letterSteps: LetterSteps?
        /// The tag a second look settled on, if one did.
        var decided: TagReading?
        /// For a letter and a full stop or bracket (`Q.`) whose letter Tesseract also took for a digit:
        /// that digit with the mark (`2.`).
        var listNumber: String?
    }

    // MARK: What is writing

    static func isInk(_ stroke: Stroke) -> Bool {
        stroke.tool != .highlighter && stroke.tool != .eraser && stroke.color.alpha > 0
    }

    /// False for strokes with no points or points a million pixels away (damaged input).
    static func isPlausible(_ shape: StrokeShape) -> Bool {
        let b = shape.bounds
        return !shape.isEmpty && [b.minX, b.minY, b.maxX, b.maxY].allSatisfy { $0.isFinite && abs($0) < 1e6 }
    }

    /// False for strokes that are drawings or marks rather than letters: taller than four letters,
    /// long straight rules (underlines, dividers, margins), and large closed loops (circles and boxes
    /// around words).
    static func looksLikeWriting(_ shape: StrokeShape, textHeight h: Double) -> Bool {
        let b = shape.bounds
        if b.height > 4 * h { return false }
        if shape.isStraight(minLength: 6 * h) { return false }
        let closed = (shape.end - shape.start).length < 0.15 * max(shape.length, 1)
        if closed, b.height > 2.2 * h, b.width > 2.2 * h, shape.length > 8 * h { return false }
        return true
    }
}
