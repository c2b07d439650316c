import COnnxRuntime
import Foundation
import InkCore

/// One ONNX model opened with ONNX Runtime (loaded with `dlopen` on first use, COnnxRuntime), run with
/// one intra-op thread: the callers' own threads (`--jobs`) are the parallelism. Runs from several
/// threads at once are allowed.
final class OnnxModel: @unchecked Sendable {
    private let session: OpaquePointer
    /// The ONNX Runtime version that runs it ("1.32.0").
    let runtimeVersion: String

    /// Loads ONNX Runtime from the first of `libraries` that loads (once per process) and opens the
    /// model at `path`; throws ``RecognitionError/neuralReaderUnavailable(_:)`` saying what is missing or damaged.
    init(path: String, libraries: [String]) throws(RecognitionError) {
        runtimeVersion = try Self.load(libraries)
        var error = [CChar](repeating: 0, count: 1024)
        guard let session = ink_ort_session_create(path, &error, error.count) else {
            throw .neuralReaderUnavailable("the neural reader's model cannot be opened (\(String(nulTerminated: error))); it may be damaged: "
                + NeuralFiles.installHint)
        }
        self.session = session
    }

    deinit { ink_ort_session_release(session) }

    private static let lock = NSLock()

    /// Loads the first of `libraries` that is ONNX Runtime; its version.
    private static func load(_ libraries: [String]) throws(RecognitionError) -> String {
        lock.lock()
        defer { lock.unlock() }
        var reasons: [String] = []
        for library in libraries {
            if let reason = ink_ort_load(library) {
                reasons.append(String(cString: reason))
            } else if let version = ink_ort_version() {
                return String(cString: version)
            }
        }
        throw .neuralReaderUnavailable("ONNX Runtime cannot be loaded (\(reasons.last ?? "no library to try")); \(NeuralFiles.installHint)")
    }

    /// The model's custom metadata value for `key`, nil when it has none.
    func metadata(_ key: String) throws(RecognitionError) -> String? {
        var error = [CChar](repeating: 0, count: 1024)
        guard let value = ink_ort_session_metadata(session, key, &error, error.count) else {
            let message = String(nulTerminated: error)
            if message.isEmpty { return nil }
            throw .neuralReaderUnavailable("the neural reader's model has no readable metadata (\(message))")
        }
        defer { free(value) }
        return String(cString: value)
    }

    /// Runs the model on one float tensor of `shape`; its first output and that output's shape.
    func run(_ input: [Float], shape: [Int]) throws(RecognitionError) -> (values: [Float], shape: [Int]) {
        guard shape.reduce(1, *) == input.count else {
            throw .neuralReadFailed("an input of \(input.count) values for the shape \(shape)")
        }
        var error = [CChar](repeating: 0, count: 1024)
        var output: UnsafeMutablePointer<Float>?
        var outputShape = [Int64](repeating: 0, count: 8)
        var rank = 0
        let dimensions = shape.map(Int64.init)
        let status = input.withUnsafeBufferPointer { values in
            ink_ort_run(session, values.baseAddress, dimensions, dimensions.count, &output, &outputShape, outputShape.count, &rank,
                        &error, error.count)
        }
        guard status == 0, let output else { throw .neuralReadFailed(String(nulTerminated: error)) }
        defer { free(output) }
        let result = Array(outputShape.prefix(rank)).map { Int($0) }
        return (Array(UnsafeBufferPointer(start: output, count: result.reduce(1, *))), result)
    }
}
