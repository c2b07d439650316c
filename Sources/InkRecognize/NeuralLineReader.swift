import Foundation
import InkCore

/// Reads one line of handwriting with PaddleOCR's PP-OCR recognition model on ONNX Runtime: the line
/// drawn 48 pixels high, black on white, in; for each of the model's time steps the likelihood of each
/// character, out (CTC). Decoded greedily, keeping for each character read the other characters the
/// model found likely at its steps, so that the lexicon can spell a misread word from them as it does
/// Tesseract's letter choices.
///
/// One reader serves every thread (the model is loaded once; ONNX Runtime runs one line per calling
/// thread). ``shared(environment:)`` loads it on first use.
public final class NeuralLineReader: Sendable {
    /// The model's input height in pixels.
    public static let inputHeight = 48
    /// Characters by the model's class index: 0 is CTC's blank.
    let characters: [String]
    /// The classes that are letters a–z in either case, each with its letter (``LetterSteps/index(of:)``).
    let letterClasses: [(class: Int, letter: Int)]
    let model: OnnxModel
    /// What reads: the model's file and ONNX Runtime's version.
    public let description: String

    /// Opens the model at `modelPath` with ONNX Runtime from the first of `libraries` that loads;
    /// throws ``RecognitionError/neuralReaderUnavailable(_:)`` when either is missing or damaged.
    public init(modelPath: String, libraries: [String]) throws(RecognitionError) {
        model = try OnnxModel(path: modelPath, libraries: libraries)
        // The model carries its characters, one a line; the classes are blank, those, and a space.
        guard let list = try model.metadata("character"), !list.isEmpty else {
            throw .neuralReaderUnavailable("the neural reader's model \(modelPath) has no character list (metadata \"character\"); "
                + NeuralFiles.installHint)
        }
        characters = [""] + list.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + [" "]
        letterClasses = Self.letterClasses(of: characters)
        description = "\((modelPath as NSString).lastPathComponent) on ONNX Runtime \(model.runtimeVersion)"
    }

    private static let cache = Locked<[String: Result<NeuralLineReader, RecognitionError>]>([:])

    /// The reader made from the files ``NeuralFiles`` finds in `environment`, made once per model and
    /// library; the error says what is missing and how to install it.
    public static func shared(environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<NeuralLineReader, RecognitionError> {
        let files: (model: String, libraries: [String])
        do {
            files = (try NeuralFiles.model(environment: environment), try NeuralFiles.libraryCandidates(environment: environment))
        } catch {
            return .failure(error)
        }
        let key = files.model + "\n" + files.libraries.joined(separator: "\n")
        return cache.withLock { readers in
            if let known = readers[key] { return known }
            let made = Result { () throws(RecognitionError) in try NeuralLineReader(modelPath: files.model, libraries: files.libraries) }
            readers[key] = made
            return made
        }
    }

    /// Reads a line drawn ``inputHeight`` pixels high; the words with boxes in the raster's pixels,
    /// confidences 0…100 (the mean of their characters') and each character's alternatives.
    func read(_ raster: OCRRaster) throws(RecognitionError) -> [OCRWord] {
        let height = Self.inputHeight
        guard raster.height <= height, raster.width > 0 else {
            throw .neuralReadFailed("a line image of \(raster.width)×\(raster.height) pixels (the model takes \(height) high)")
        }
        // The model sees at least a square; paper (white) fills the rest, below and right.
        let width = max(raster.width, height)
        var input = [Float](repeating: 1, count: 3 * height * width)
        for row in 0..<raster.height {
            for column in 0..<raster.width {
                // (grey / 255 − 0.5) / 0.5, the same in the three colour channels.
                let value = Float(raster.pixels[row * raster.bytesPerLine + column]) / 127.5 - 1
                for channel in 0..<3 { input[(channel * height + row) * width + column] = value }
            }
        }
        let (scores, shape) = try model.run(input, shape: [1, 3, height, width])
        guard shape.count == 3, shape[0] == 1, shape[2] == characters.count, shape[1] > 0 else {
            throw .neuralReadFailed("an output of shape \(shape) for \(characters.count) characters")
        }
        return Self.decode(scores, steps: shape[1], characters: characters, letterClasses: letterClasses,
                           stepWidth: Double(width) / Double(shape[1]), height: raster.height)
    }

    /// How many other characters are kept for each character read.
    static let alternativesKept = 6

    /// The indices of `characters` that are letters a–z in either case, each with its letter.
    static func letterClasses(of characters: [String]) -> [(class: Int, letter: Int)] {
        characters.indices.compactMap { k in LetterSteps.index(of: characters[k]).map { (k, $0) } }
    }

    /// Greedy CTC decoding of `scores` (`steps` × `characters.count` probabilities): the likeliest class
    /// at each step, repeats merged, blanks dropped, words split at spaces. A character's confidence is
    /// its best probability over its steps; its alternatives the likeliest classes over those steps
    /// (blank and space aside). A word of letters (punctuation around them aside) keeps the steps from
    /// the end of what was read before it to the start of what was read after, folded to letters
    /// (``LetterSteps``; `letterClasses` is ``letterClasses(of:)`` of `characters`). `stepWidth` is the
    /// image pixels a step covers.
    static func decode(_ scores: [Float], steps: Int, characters: [String], letterClasses: [(class: Int, letter: Int)]? = nil,
                       stepWidth: Double, height: Int) -> [OCRWord] {
        let letterClasses = letterClasses ?? Self.letterClasses(of: characters)
        let classes = characters.count
        let space = classes - 1
        struct Read { var index: Int; var first: Int; var last: Int }
        var reads: [Read] = []
        var previous = 0
        for step in 0..<steps {
            let best = scores.withUnsafeBufferPointer { all in
                let row = UnsafeBufferPointer(rebasing: all[(step * classes)..<((step + 1) * classes)])
                var best = 0
                for k in 1..<classes where row[k] > row[best] { best = k }
                return best
            }
            if best != 0, best == previous, var last = reads.last {
                last.last = step
                reads[reads.count - 1] = last
            } else if best != 0 {
                reads.append(Read(index: best, first: step, last: step))
            }
            previous = best
        }
        /// The steps from the end of the read before `first` to the start of the read after `last`, folded to letters.
        func letterSteps(reads first: Int, through last: Int) -> LetterSteps {
            let from = first > 0 ? reads[first - 1].last + 1 : 0
            let to = last + 1 < reads.count ? reads[last + 1].first - 1 : steps - 1
            var folded = [Float](repeating: 0, count: (to - from + 1) * LetterSteps.width)
            scores.withUnsafeBufferPointer { all in
                for step in from...to {
                    let base = step * classes, row = (step - from) * LetterSteps.width
                    folded[row] = all[base]
                    for (k, letter) in letterClasses { folded[row + 1 + letter] += all[base + k] }
                }
            }
            return LetterSteps(likelihoods: folded)
        }
        var words: [OCRWord] = []
        // The word being read: its characters and the index in `reads` of each.
        var current: [(choices: [OCRChoice], first: Int, last: Int, read: Int)] = []
        func finish() {
            defer { current = [] }
            guard !current.isEmpty else { return }
            let text = current.map { $0.choices[0].text }.joined()
            let confidence = current.reduce(0) { $0 + $1.choices[0].confidence } / Float(current.count)
            let left = Int((Double(current[0].first) * stepWidth).rounded(.down))
            let right = Int((Double(current[current.count - 1].last + 1) * stepWidth).rounded(.up))
            var word = OCRWord(text: text, left: left, top: 0, right: right, bottom: height, confidence: confidence, line: 0,
                               alternatives: current.map(\.choices))
            // Its letters: one run, punctuation before and after aside.
            let isLetter = current.map { LetterSteps.index(of: $0.choices[0].text) != nil }
            if let firstLetter = isLetter.firstIndex(of: true), let lastLetter = isLetter.lastIndex(of: true),
               isLetter[firstLetter...lastLetter].allSatisfy({ $0 }) {
                word.letterSteps = letterSteps(reads: current[firstLetter].read, through: current[lastLetter].read)
            }
            words.append(word)
        }
        for (number, read) in reads.enumerated() {
            if read.index == space {
                finish()
                continue
            }
            // Every class's best probability over the character's steps; the top few, the reading first.
            var best = [Float](repeating: 0, count: classes)
            scores.withUnsafeBufferPointer { all in
                for step in read.first...read.last {
                    let base = step * classes
                    for k in 1..<space where all[base + k] > best[k] { best[k] = all[base + k] }
                }
            }
            var top: [Int] = []  // the likeliest others, most likely first
            for k in 1..<space where k != read.index && best[k] > 0.001
                && (top.count < alternativesKept || best[k] > best[top[top.count - 1]]) {
                let place = top.firstIndex { best[$0] < best[k] } ?? top.count
                top.insert(k, at: place)
                if top.count > alternativesKept { top.removeLast() }
            }
            let choices = ([read.index] + top).map { OCRChoice(text: characters[$0], confidence: best[$0] * 100) }
            current.append((choices, read.first, read.last, number))
        }
        finish()
        return words
    }
}
