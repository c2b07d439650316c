import Foundation
import InkCore
@testable import InkRecognize
import InkSamples
import Testing

/// The neural reader as found on this machine (scripts/install-deps.sh puts ONNX Runtime and the model in
/// .build/lib/inkwell); the tests that need it skip, saying so, where it is missing. CI installs it.
let neuralReader = NeuralLineReader.shared()
let neuralAvailable = (try? neuralReader.get()) != nil
let neuralSkipMessage: Comment = "the neural reader is not installed (ONNX Runtime and PP-OCRv6_rec_small.onnx in .build/lib/inkwell: run scripts/install-deps.sh)"

@Suite("Neural line reader (PP-OCR on ONNX Runtime)")
struct NeuralReaderTests {
    /// CTC scores for `steps`, each a (class, probability) put on one step, the rest of its mass on blank.
    func scores(_ steps: [[(Int, Float)]], classes: Int) -> [Float] {
        var scores = [Float](repeating: 0, count: steps.count * classes)
        for (t, step) in steps.enumerated() {
            var rest: Float = 1
            for (k, p) in step {
                scores[t * classes + k] = p
                rest -= p
            }
            scores[t * classes] += max(0, rest)
        }
        return scores
    }

    @Test("CTC decoding merges repeats, drops blanks, splits words at spaces, and keeps each letter's alternatives")
    func decoding() {
        // blank, a, b, c, o, space
        let characters = ["", "a", "b", "c", "o", " "]
        let steps: [[(Int, Float)]] = [
            [(3, 0.6), (4, 0.3)], [(3, 0.7)], [], [(1, 0.9)], [(5, 0.8)], [], [(2, 0.5), (4, 0.4)], [(2, 0.6)],
        ]
        let words = NeuralLineReader.decode(scores(steps, classes: 6), steps: steps.count, characters: characters, stepWidth: 4, height: 48)
        #expect(words.map(\.text) == ["ca", "b"])
        // "c" over steps 0–1, the best of its steps 0.7; "o" was its second choice.
        #expect(words[0].alternatives[0].map(\.text) == ["c", "o"])
        #expect(abs(words[0].alternatives[0][0].confidence - 70) < 0.01)
        #expect(words[1].alternatives[0].map(\.text) == ["b", "o"])
        // Boxes in image pixels from the steps: "ca" over steps 0–3, "b" over 6–7; confidences 0…100.
        #expect((words[0].left, words[0].right, words[1].left, words[1].right) == (0, 16, 24, 32))
        #expect(abs(words[0].confidence - 80) < 0.01)
        #expect(NeuralLineReader.decode(scores([[], []], classes: 6), steps: 2, characters: characters, stepWidth: 4, height: 48).isEmpty)
    }

    @Test("the neural reader reads a generated line, and its reading votes with Tesseract's", .enabled(if: neuralAvailable, neuralSkipMessage),
          .enabled(if: tesseractAvailable, skipMessage))
    func readsLines() throws {
        let sample = try writtenPage(["Plans for the weekend #weekend", "Call the garden centre"], style: .script, jitter: .mild)
        for reader in [RecognitionOptions.Reader.neural, .both] {
            var options = RecognitionOptions()
            options.reader = reader
            let recognizer = try TesseractRecognizer(knownTags: [Tag("weekend")!], options: options)
            #expect(recognizer.neural != nil && recognizer.neuralProblem == nil)
            let result = try recognizer.recognize(sample.page)
            #expect(wordAccuracy(truth: sample.lines.map(\.text), found: result.text) >= 0.8, "\(reader): \(result.text)")
            #expect(result.hashtags.map(\.name) == ["weekend"], "\(reader): \(result.text)")
            for word in result.words {
                #expect(word.box.width > 0 && (0...1).contains(word.confidence))
            }
        }
    }

    @Test("a line widened for the model is drawn wider, the pen unchanged, and its pixels map back to the page")
    func widenedLine() throws {
        // Two vertical bars 40 page pixels apart, drawn 1:1 and widened 1.5 times.
        let bars = [Stroke(id: StrokeID(1), points: [InkPoint(x: 100, y: 100), InkPoint(x: 100, y: 120)]),
                    Stroke(id: StrokeID(2), points: [InkPoint(x: 140, y: 100), InkPoint(x: 140, y: 120)])]
        let region = Rect(minX: 100, minY: 100, maxX: 140, maxY: 120)
        func inkColumns(_ raster: OCRRaster) -> [Int] {
            (0..<raster.width).filter { column in (0..<raster.height).contains { raster.pixels[$0 * raster.bytesPerLine + column] < 128 } }
        }
        let plain = try OCRRaster.draw(bars, strokes: [0, 1], region: region, scale: 1, padding: 2, pen: .centerline(width: 2))
        let wide = try OCRRaster.draw(bars, strokes: [0, 1], region: region, scale: 1, padding: 2, pen: .centerline(width: 2), stretch: 1.5)
        #expect(plain.height == wide.height)
        #expect(plain.width == 40 + 5 && wide.width == 60 + 5)
        // Each bar as wide as before (the pen is not stretched), 60 pixels apart instead of 40.
        let (a, b) = (inkColumns(plain), inkColumns(wide))
        #expect(a.count == b.count)
        #expect(b.last! - b.first! == a.last! - a.first! + 20)
        // The whole raster is the region and its padding, on the page, whatever the stretch.
        let back = wide.pageRect(left: 2, top: 2, right: wide.width - 3, bottom: wide.height - 3)
        #expect(abs(back.minX - 100) < 1e-9 && abs(back.maxX - 140) < 1e-9 && abs(back.minY - 100) < 1e-9 && abs(back.maxY - 120) < 1e-9)
    }

    @Test("with INKWELL_ONNXRUNTIME pointing nowhere, the reader is unavailable, saying why and how to install it, and Tesseract reads alone",
          .enabled(if: tesseractAvailable, skipMessage))
    func missingRuntime() throws {
        let missing = NeuralLineReader.shared(environment: ["INKWELL_ONNXRUNTIME": "/nowhere/libonnxruntime.so.1.32.0"])
        guard case let .failure(problem) = missing else {
            Issue.record("a reader was made without ONNX Runtime")
            return
        }
        #expect(problem.description.contains("/nowhere/libonnxruntime.so.1.32.0") && problem.description.contains("INKWELL_ONNXRUNTIME"))
        #expect(problem.description.contains("scripts/install-deps.sh"))
        let recognizer = try TesseractRecognizer(neural: missing)
        #expect(recognizer.neural == nil && recognizer.neuralProblem == problem)
        let result = try recognizer.recognize(try writtenPage(["Apples and pears"]).page)
        #expect(result.text.contains("Apples"))
    }

    @Test("a damaged model file makes the reader unavailable with a clear error, not a crash", .enabled(if: tesseractAvailable, skipMessage))
    func damagedModel() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-damaged-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not an ONNX model".utf8).write(to: folder.appendingPathComponent(NeuralFiles.recognitionModel))
        var environment = ProcessInfo.processInfo.environment
        environment["INKWELL_MODELS"] = folder.path
        guard case let .failure(problem) = NeuralLineReader.shared(environment: environment) else {
            Issue.record("a reader was made from a damaged model")
            return
        }
        if neuralAvailable {
            // ONNX Runtime is here: it is the model that is refused.
            #expect(problem.description.contains("cannot be opened") && problem.description.contains("damaged"), "\(problem)")
        }
        let recognizer = try TesseractRecognizer(neural: .failure(problem))
        #expect(try recognizer.recognize(try writtenPage(["Apples and pears"]).page).text.contains("Apples"))
        // A model folder with no model says where it looked.
        guard case let .failure(absent) = NeuralLineReader.shared(environment: ["INKWELL_MODELS": folder.appendingPathComponent("none").path])
        else {
            Issue.record("a reader was made without a model")
            return
        }
        #expect(absent.description.contains("was not found") && absent.description.contains("none"))
    }

    @Test("Tesseract alone never loads the neural reader", .enabled(if: tesseractAvailable, skipMessage))
    func tesseractAlone() throws {
        var options = RecognitionOptions()
        options.reader = .tesseract
        let recognizer = try TesseractRecognizer(options: options, neural: .failure(.neuralReaderUnavailable("not to be used")))
        #expect(recognizer.neural == nil && recognizer.neuralProblem == nil)
    }
}
