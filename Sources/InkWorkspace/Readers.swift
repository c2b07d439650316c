import Foundation
import InkRecognize

/// One engine that reads handwriting, and whether it is ready on this machine.
public struct ReaderStatus: Sendable, Encodable {
    /// `tesseract` or `neural`.
    public var name: String
    public var ready: Bool
    /// What reads (the model, the library's version), or why it cannot and how to install it.
    public var detail: String
}

extension Workspace {
    /// The engines that read handwriting and whether each is ready (`inkwell doctor`): Tesseract with
    /// its English data, and the neural line reader (ONNX Runtime and the PP-OCR model).
    public static func readers() -> [ReaderStatus] {
        let tesseract: ReaderStatus
        do {
            let engine = try TesseractEngine(language: "eng")
            tesseract = ReaderStatus(name: "tesseract", ready: true, detail: "Tesseract, eng from \(engine.dataPath)")
        } catch {
            tesseract = ReaderStatus(name: "tesseract", ready: false, detail: "\(error)")
        }
        let neural = switch NeuralLineReader.shared() {
        case let .success(reader): ReaderStatus(name: "neural", ready: true, detail: reader.description)
        case let .failure(problem): ReaderStatus(name: "neural", ready: false, detail: problem.description)
        }
        return [tesseract, neural]
    }

    /// The one line to show before recognising with `reader` when the neural reader it asks for cannot
    /// run: recognition is reduced to Tesseract, why, and how to install the rest. Nil when it reads as asked.
    public static func readerNotice(_ reader: RecognitionReader) -> String? {
        guard reader != .tesseract, case let .failure(problem) = NeuralLineReader.shared() else { return nil }
        return "notice: recognition is reduced to Tesseract alone (--reader \(reader.rawValue) asked for the neural reader): \(problem)"
    }
}

extension RecognitionReader {
    /// The default: `both`, the neural reading voting with Tesseract's renders.
    public static var standard: RecognitionReader { .both }
}
