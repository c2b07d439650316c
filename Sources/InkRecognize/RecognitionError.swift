/// Why recognition could not run. Every case says what to do about it; none is a crash.
public enum RecognitionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// No folder holding `<language>.traineddata` was found; `searched` lists where we looked.
    case languageDataNotFound(language: String, searched: [String])
    /// The Tesseract library itself could not be loaded (not installed, or not version 5).
    case libraryUnavailable(String)
    /// Tesseract refused to start with the data it was given (corrupt or incompatible file).
    case engineInitFailed(language: String, dataPath: String)
    /// A Tesseract parameter name it does not know (or a value it rejected).
    case invalidParameter(name: String, value: String)
    /// The raster for OCR could not be made (size out of range, Cairo failure).
    case rasterFailed(String)
    /// Tesseract could not recognise an image it was given.
    case recognitionFailed(String)
    /// The neural line reader cannot run: ONNX Runtime or its model is missing or damaged (the sentence
    /// says which, and how to install it). Recognition goes on with Tesseract alone.
    case neuralReaderUnavailable(String)
    /// The neural line reader's model failed on a line it was given.
    case neuralReadFailed(String)

    public var description: String {
        switch self {
        case let .languageDataNotFound(language, searched):
            "Tesseract language data \"\(language).traineddata\" was not found (looked in: "
                + searched.joined(separator: ", ")
                + "). Install it (Debian: apt-get install tesseract-ocr-\(language)) or set TESSDATA_PREFIX to the tessdata folder that holds it."
        case let .libraryUnavailable(reason):
            reason
        case let .engineInitFailed(language, dataPath):
            "Tesseract could not load \"\(language)\" from \(dataPath): the file may be damaged or made for another Tesseract version."
        case let .invalidParameter(name, value):
            "Tesseract does not accept the parameter \(name)=\(value)."
        case let .rasterFailed(reason):
            "cannot draw the page for recognition: \(reason)"
        case let .recognitionFailed(reason):
            "Tesseract failed: \(reason)"
        case let .neuralReaderUnavailable(reason):
            reason
        case let .neuralReadFailed(reason):
            "the neural line reader failed: \(reason)"
        }
    }
}
