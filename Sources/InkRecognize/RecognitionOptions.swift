import InkCore
import InkGeometry

/// How ``TesseractRecognizer`` reads a page. The defaults are what measured best on real and
/// generated pages (docs/recognition.md has the tables); the other values exist so that the
/// benchmark can measure them.
public struct RecognitionOptions: Sendable, Hashable {
    /// How hard to look: every line drawn seven ways and voted (``best``), or one way (``fast``).
    public enum Quality: String, Sendable, Hashable, CaseIterable {
        /// Seven renders per line, word slots voted with the lexicon: the most words read; about
        /// seven times the Tesseract time of ``fast``.
        case best
        /// One render per line: for bulk runs.
        case fast
    }

    /// One way of drawing a line for Tesseract: its x-height in raster pixels, the pen width as a
    /// fraction of that (scaled by pressure), and whether the line is first stood upright.
    public struct LineRender: Sendable, Hashable {
        public var xHeight: Double
        public var pen: Double
        public var deslant: Bool

        public init(xHeight: Double, pen: Double, deslant: Bool) {
            self.xHeight = xHeight
            self.pen = pen
            self.deslant = deslant
        }
    }

    /// The renders of ``Quality/best``, in order: the first is also ``Quality/fast``'s only one.
    public static let bestRenders = [
        LineRender(xHeight: 20, pen: 0.12, deslant: true), LineRender(xHeight: 28, pen: 0.12, deslant: false),
        LineRender(xHeight: 28, pen: 0.20, deslant: true), LineRender(xHeight: 36, pen: 0.12, deslant: true),
        LineRender(xHeight: 20, pen: 0.06, deslant: true), LineRender(xHeight: 16, pen: 0.12, deslant: true),
        LineRender(xHeight: 44, pen: 0.12, deslant: true),
    ]

    /// Which engines read each line.
    public enum Reader: String, Sendable, Hashable, CaseIterable {
        /// Tesseract alone: the renders of ``renders``.
        case tesseract
        /// The neural line reader alone (PP-OCR on ONNX Runtime, ``NeuralLineReader``): one image a line.
        case neural
        /// Both, their readings voting word slot by word slot: the most words read.
        case both
    }

    /// Which engines read each line. Without ONNX Runtime or its model, ``Reader/neural`` and
    /// ``Reader/both`` read with Tesseract alone (``TesseractRecognizer/neuralProblem`` says why).
    public var reader: Reader = .both
    /// The votes the neural reader's reading of a word slot counts as, where each Tesseract render's
    /// counts as one (both scaled by the reading's confidence).
    public var neuralVotes = 3.0
    /// The neural reader's image of a line: x-height as a share of the model's 48-pixel height (the
    /// line is cut around its middle where it is taller), pen as a share of the x-height.
    public var neuralXHeight = 0.4
    public var neuralPen = 0.12
    /// The neural reader draws each line once per entry, widened that many times across (the pen unchanged),
    /// each reading a render in the vote worth ``neuralVotes``: the model, trained on printed and wide
    /// letters, misreads narrow handwriting that it reads widened (docs/recognition.md).
    public var neuralStretches = [1.4, 1.8]
    /// With the neural reader voting, Tesseract draws only the first this many of ``renders``: its readings
    /// rarely outvote the neural ones, and each costs as much CPU as all the neural readings of a line.
    public var rendersBesideNeural = 1

    /// Each line is drawn in each of these ways and read; with several, the readings of each word
    /// slot (strokes apart by more than ``slotGap`` x-heights) vote, and the lexicon decides which
    /// count. Empty: one image per line drawn as ``textHeight``, ``sizeMeasure``, ``pen`` and
    /// ``deslant`` say.
    public var renders: [LineRender]
    /// Horizontal gap between strokes, in x-heights, that separates word slots.
    public var slotGap = 1.0
    /// Votes added to a slot's one-word reading when another line of the page read that word surely
    /// (a lexicon word of 3+ letters, confidence ≥ ``pageWordConfidence`` in some render): people
    /// repeat their words on a page. 1.5 is worth one and a half renders; 0 turns it off.
    public var pageWordVotes = 1.5
    /// How sure (0…1) a reading must be for the page to count it: a page word for
    /// ``pageWordVotes``, a list number for ``listNumberAllowance``.
    public var pageWordConfidence: Float = 0.7
    /// On a page with a line starting with a number (`1.`, `3)`, read with confidence ≥
    /// ``pageWordConfidence``), a letter with a full stop or bracket (`Q.`) where a list item's number
    /// can stand is read as the digit Tesseract also took the letter for, when that choice costs at most
    /// this (the log of how much less likely it was); 0 turns it off.
    public var listNumberAllowance = 1.2

    /// Whether Tesseract sees one line at a time or the whole page.
    public enum Layout: String, Sendable, Hashable, CaseIterable {
        /// Lines found from the strokes, each drawn and read on its own.
        case lines
        /// The whole page drawn once and read with Tesseract's own layout analysis.
        case page
    }

    public var layout: Layout = .lines
    /// How strokes are grouped into lines.
    public enum LineFinding: String, Sendable, Hashable, CaseIterable {
        /// In writing order, each stroke continuing the line being written when it fits (``LineGrouper``).
        case writingOrder
        /// By geometry alone, whatever the order (``GeometricLineGrouper``).
        case geometry
    }

    public var lineFinding: LineFinding = .writingOrder
    /// How the size of a line of writing is measured, to draw it at ``textHeight``.
    public enum SizeMeasure: String, Sendable, Hashable, CaseIterable {
        /// The median height of its letter-sized strokes (depends on how many letters a stroke joins).
        case strokeHeight
        /// The spread of its ink: the height range holding the middle half of the ink (by length),
        /// about 0.7 of the x-height whatever the style.
        case inkSpread
    }

    /// When set, each line is drawn so that its size (``sizeMeasure``) is this many raster pixels,
    /// whatever the size of the writing; otherwise at ``scale``.
    public var textHeight: Double? = 12
    public var sizeMeasure: SizeMeasure = .inkSpread
    /// Raster pixels per page pixel, when ``textHeight`` is nil.
    public var scale: Double = 1
    public var pen: OCRPen = .centerline(width: 2.5)
    public var antialias = true
    /// Tesseract's page segmentation for a line (``Layout/lines``) or for the page (``Layout/page``).
    public var lineSegmentation: PageSegmentation = .singleLine
    public var pageSegmentation: PageSegmentation = .auto
    /// Tesseract's `textord_noise_rejrows`: on, it drops handwritten rows as noise.
    public var rejectNoiseRows = false
    /// Find `#` from its strokes, read the line without it and put it back on the next word.
    public var detectHashMarks = true
    /// Leave out strokes that are not writing: tall shapes, long straight rules, highlighter.
    public var dropNonText = true
    /// Stand slanted writing upright (a shear measured from the strokes of each line) before reading.
    public var deslant = false
    /// Match a hashtag against the known tags with what else Tesseract thought each of its letters
    /// might be (`lstm_choice_mode` 2), on the first image of its line.
    public var tagAlternatives = true
    /// With known tags, a hashtag read as no known tag, or as one only loosely (more than
    /// ``confidentTagDistance`` edits per letter), is read again with its line drawn at these
    /// multiples of the scale; the reading closest to a known tag wins.
    public var secondLookScales: [Double] = [1.3, 0.75]
    public var confidentTagDistance = 0.15
    /// Words no lexicon holds are spelled again from Tesseract's other choices for each letter
    /// (`lstm_choice_mode` 2, asked for on every line image), when a lexicon word costs at most
    /// ``spellingAllowance`` a letter (``LexiconLattice``: the log of how much less likely each letter
    /// taken was, 2.5 a letter left out or added, 6 at most). Lines layout only (``Layout/lines``).
    public var spellFromChoices = true
    public var spellingAllowance = 0.5
    /// A neural reading no lexicon holds becomes the lexicon word the model finds likeliest over the
    /// word's steps (``CTCSpelling``: letters changed, left out or added) when that word is at most
    /// ``neuralSpellingAllowance`` a letter less likely (natural log) than what was read. On the real
    /// pages: 0.25 → 75.0% of words, 0.5 → 77.4%, 0.75 → 79.0%, 1.0 → 78.2% (with `wamerican`).
    public var neuralSpellingAllowance = 0.75
    /// A neural reading that is a rare word (``Lexicon/rare``: only in the larger word list, or a name
    /// in small letters) becomes the common word its steps read likeliest when that word is at most
    /// this a letter less likely.
    public var rareSpellingAllowance = 1.0
    /// When a neural reading no lexicon holds is spelled, a word read surely on another line of the
    /// page (``PageWords``) costs this less a letter than its cost on the steps: people repeat their
    /// words on a page ("mech pencil", "mech thin", "mech thick"), so the word they used elsewhere is
    /// likelier than another the steps read as well.
    public var pageSpellingBonus = 1.0
    /// How many spellings of a word are kept (at least one): the cheapest becomes the word, the
    /// others stay searchable with the page's other readings.
    public var spellings = 3
    /// With known tags, a hashtag that is none of them becomes a tag only when Tesseract's confidence
    /// in the word is at least this (0…1); below, it stays in the text as `#word` but is not reported
    /// as a tag. Without known tags every hashtag read is reported.
    public var newTagConfidence: Float = 0.5
    /// When set, every line image given to Tesseract is also written there as `line-N.png`.
    public var debugImageFolder: String?
    /// White border around each raster, in raster pixels.
    public var padding = 12
    /// The resolution Tesseract is told the raster has (pixels per inch).
    public var resolution = 300
    /// Other Tesseract parameters, applied when the engine starts.
    public var tesseractVariables: [String: String] = [:]
    /// How eraser strokes are applied before reading (what the page looks like).
    public var eraserMode: EraserMode = .split

    /// The options of `quality`; the other choices at what measured best.
    public init(quality: Quality = .best) {
        switch quality {
        case .best: renders = Self.bestRenders
        case .fast: renders = [Self.bestRenders[0]]
        }
    }
}
