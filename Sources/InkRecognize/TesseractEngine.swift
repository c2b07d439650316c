import CTesseract
import Foundation

/// A word as Tesseract read it from one image: raster pixels, confidence 0…100.
public struct OCRWord: Sendable, Hashable {
    public var text: String
    public var left: Int
    public var top: Int
    public var right: Int
    public var bottom: Int
    public var confidence: Float
    /// The index of the text line Tesseract put the word on, counted within the image.
    public var line: Int
    /// For each character, what else it might be (best first, the reading itself included), when
    /// asked for; Tesseract gives them with `lstm_choice_mode` 2.
    public var alternatives: [[OCRChoice]] = []
    /// For a word the neural reader read: its output over the word's steps, for spelling whole words.
    public var letterSteps: LetterSteps?
}

/// One reading of a character and Tesseract's confidence in it (0…100).
public struct OCRChoice: Sendable, Hashable {
    public var text: String
    public var confidence: Float

    /// One position's choices as letters: each normalised (``RecognisedText/normalised(_:)``) and
    /// lower-cased, best first, every letter once at its likeliest; choices that are not a single
    /// character are left out.
    static func letters(_ choices: [OCRChoice]) -> [(letter: Character, confidence: Float)] {
        var letters: [(letter: Character, confidence: Float)] = []
        for choice in choices {
            let text = RecognizedText.normalized(choice.text).lowercased()
            guard text.count == 1, let letter = text.first, !letters.contains(where: { $0.letter == letter }) else { continue }
            letters.append((letter, choice.confidence))
        }
        return letters
    }
}

/// How Tesseract is asked to segment an image (its `--psm`).
public enum PageSegmentation: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Fully automatic layout analysis (the CLI's default, psm 3).
    case auto = 3
    /// One uniform block of text (psm 6).
    case singleBlock = 6
    /// One text line (psm 7).
    case singleLine = 7
    /// One word (psm 8).
    case singleWord = 8
    /// As much text as possible in no particular order (psm 11).
    case sparse = 11
    /// One line, bypassing Tesseract's own layout heuristics (psm 13).
    case rawLine = 13

    public var description: String { "psm \(rawValue)" }

    var tesseractMode: TessPageSegMode {
        switch self {
        case .auto: PSM_AUTO
        case .singleBlock: PSM_SINGLE_BLOCK
        case .singleLine: PSM_SINGLE_LINE
        case .singleWord: PSM_SINGLE_WORD
        case .sparse: PSM_SPARSE_TEXT
        case .rawLine: PSM_RAW_LINE
        }
    }
}

/// One Tesseract engine (`TessBaseAPI`) with its language model loaded.
///
/// Not thread-safe: use one engine per thread and reuse it for many images (loading the model
/// takes 0.1–0.3 s; recognising a line takes milliseconds). The engine is released when the
/// instance goes away. Don't keep one in a global: Tesseract reports leaks at process exit.
public final class TesseractEngine {
    public let language: String
    /// The tessdata folder the model was loaded from.
    public let dataPath: String
    private let handle: OpaquePointer

    /// Loads `language` (e.g. `eng`) from `dataPath` (or from where ``TessdataLocator`` finds it) and
    /// sets `variables` (Tesseract parameters such as `textord_noise_rejrows`). Throws a
    /// ``RecognitionError`` saying what is missing; never crashes on missing or damaged data.
    public init(language: String = "eng", dataPath: String? = nil,
                variables: [(name: String, value: String)] = []) throws(RecognitionError) {
        if let reason = ink_tesseract_load() { throw .libraryUnavailable(String(cString: reason)) }
        let folder = try TessdataLocator.folder(for: language, explicit: dataPath)
        guard let handle = TessBaseAPICreate() else { throw .engineInitFailed(language: language, dataPath: folder) }
        // debug_file: messages that would otherwise go to stderr for every image ("Estimating
        // resolution…"). The variables go in at start-up too, for those Tesseract reads only then
        // (load_system_dawg…), and are set again below to check their names.
        let settings: [(String, String)] = [("debug_file", "/dev/null")] + variables.map { ($0.name, $0.value) }
        let status = Self.withCStrings(settings.map(\.0)) { names in
            Self.withCStrings(settings.map(\.1)) { values in
                TessBaseAPIInit4(handle, folder, language, OEM_DEFAULT, nil, 0, names, values, settings.count, 0)
            }
        }
        guard status == 0 else {
            TessBaseAPIDelete(handle)
            throw .engineInitFailed(language: language, dataPath: folder)
        }
        self.handle = handle
        self.language = language
        self.dataPath = folder
        for (name, value) in variables { try set(name, value) }
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Sets a Tesseract parameter; throws when Tesseract does not know it.
    public func set(_ name: String, _ value: String) throws(RecognitionError) {
        guard TessBaseAPISetVariable(handle, name, value) != 0 else { throw .invalidParameter(name: name, value: value) }
    }

    /// Reads an 8-bit grey image (dark ink on light paper), `bytesPerLine` bytes per row.
    /// `resolution` is the image's pixels per inch as Tesseract should assume it.
    public func recognize(gray pixels: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerLine: Int,
                          segmentation: PageSegmentation, resolution: Int = 300,
                          alternatives: Bool = false) throws(RecognitionError) -> [OCRWord] {
        guard width > 0, height > 0, width <= 32_000, height <= 32_000, bytesPerLine >= width else {
            throw .recognitionFailed("image of \(width)×\(height) pixels is out of range")
        }
        TessBaseAPISetPageSegMode(handle, segmentation.tesseractMode)
        TessBaseAPISetImage(handle, pixels, Int32(width), Int32(height), 1, Int32(bytesPerLine))
        TessBaseAPISetSourceResolution(handle, Int32(resolution))
        defer { TessBaseAPIClear(handle) }
        guard TessBaseAPIRecognize(handle, nil) == 0 else {
            throw .recognitionFailed("recognition of a \(width)×\(height) image returned an error")
        }
        guard let iterator = TessBaseAPIGetIterator(handle) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        let pageIterator = TessResultIteratorGetPageIterator(iterator)
        var words: [OCRWord] = []
        var line = -1
        repeat {
            if TessPageIteratorIsAtBeginningOf(pageIterator, RIL_TEXTLINE) != 0 { line += 1 }
            guard let raw = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
            let text = String(cString: raw)
            TessDeleteText(raw)
            var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
            guard TessPageIteratorBoundingBox(pageIterator, RIL_WORD, &left, &top, &right, &bottom) != 0 else { continue }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            var word = OCRWord(text: trimmed, left: Int(left), top: Int(top), right: Int(right), bottom: Int(bottom),
                               confidence: TessResultIteratorConfidence(iterator, RIL_WORD), line: max(0, line))
            if alternatives { word.alternatives = Self.symbolChoices(iterator) }
            words.append(word)
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0
        return words
    }

    /// The choices for every symbol of the word `iterator` is at.
    private static func symbolChoices(_ iterator: OpaquePointer) -> [[OCRChoice]] {
        guard let symbols = TessResultIteratorCopy(iterator) else { return [] }
        defer { TessResultIteratorDelete(symbols) }
        let page = TessResultIteratorGetPageIterator(symbols)
        var result: [[OCRChoice]] = []
        repeat {
            var choices: [OCRChoice] = []
            if let choice = TessResultIteratorGetChoiceIterator(symbols) {
                repeat {
                    if let text = TessChoiceIteratorGetUTF8Text(choice) {
                        choices.append(OCRChoice(text: String(cString: text), confidence: TessChoiceIteratorConfidence(choice)))
                    }
                } while TessChoiceIteratorNext(choice) != 0
                TessChoiceIteratorDelete(choice)
            }
            result.append(choices)
            guard TessResultIteratorNext(symbols, RIL_SYMBOL) != 0 else { break }
        } while TessPageIteratorIsAtBeginningOf(page, RIL_WORD) == 0
        return result
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
