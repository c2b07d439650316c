import Foundation

/// Finds the neural line reader's files: ONNX Runtime's C library and the PP-OCR recognition model.
///
/// ONNX Runtime: `INKWELL_ONNXRUNTIME` (the library file) when set — and then only there — else the
/// install folder `lib/inkwell/` beside the program's `bin/` (`PREFIX/lib/inkwell/`; for a build in the
/// repository, `.build/lib/inkwell/`, where `scripts/install-deps.sh` puts it: ``installFolders(executable:)``), `/usr/local/lib/inkwell`
/// and `/usr/lib/inkwell`, then the dynamic loader's usual library folders (`libonnxruntime.so.1`). The
/// model: `INKWELL_MODELS` (its folder) when set, else the same install folders.
public enum NeuralFiles {
    /// The recognition model's file name (PaddleOCR's PP-OCRv6 small, from PyPI's `rapidocr` 3.10.0).
    public static let recognitionModel = "PP-OCRv6_rec_small.onnx"
    /// What installs the files, for the notices that say they are missing.
    public static let installHint = "run scripts/install-deps.sh in the source tree (it puts ONNX Runtime and the models in "
        + ".build/lib/inkwell/), or install the inkwell package, which has them in /usr/lib/inkwell/"

    /// The install folders, most specific first: `lib/inkwell` beside the folder of the running program
    /// (`PREFIX/bin/inkwell` → `PREFIX/lib/inkwell`), then one folder further up (a build in the
    /// repository runs from `.build/<platform>/debug`, and the files are in `.build/lib/inkwell`), then
    /// the system's.
    public static func installFolders(executable: String? = Bundle.main.executablePath) -> [String] {
        var folders: [String] = []
        if let executable {
            let bin = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            folders.append(bin.deletingLastPathComponent().appendingPathComponent("lib/inkwell").path)
            folders.append(bin.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib/inkwell").path)
        }
        for folder in ["/usr/local/lib/inkwell", "/usr/lib/inkwell"] where !folders.contains(folder) { folders.append(folder) }
        return folders
    }

    /// The ONNX Runtime libraries to try, in order; throws when `INKWELL_ONNXRUNTIME` names a file that
    /// does not exist.
    public static func libraryCandidates(environment: [String: String] = ProcessInfo.processInfo.environment,
                                         executable: String? = Bundle.main.executablePath) throws(RecognitionError) -> [String] {
        if let explicit = environment["INKWELL_ONNXRUNTIME"], !explicit.isEmpty {
            guard FileManager.default.fileExists(atPath: explicit) else {
                throw .neuralReaderUnavailable("ONNX Runtime was not found at \(explicit) (INKWELL_ONNXRUNTIME); \(installHint)")
            }
            return [explicit]
        }
        var candidates: [String] = []
        for folder in installFolders(executable: executable) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            // libonnxruntime.so.1.32.0 before libonnxruntime.so: the versioned file is the library itself.
            for name in names.filter({ $0.hasPrefix("libonnxruntime.so") || $0.hasPrefix("libonnxruntime.") && $0.hasSuffix(".dylib") })
                .sorted(by: { $0.count > $1.count }) {
                candidates.append((folder as NSString).appendingPathComponent(name))
            }
        }
        return candidates + ["libonnxruntime.so.1", "libonnxruntime.so", "libonnxruntime.dylib"]
    }

    /// The recognition model's path, or an error saying where it looked.
    public static func model(_ name: String = recognitionModel, environment: [String: String] = ProcessInfo.processInfo.environment,
                             executable: String? = Bundle.main.executablePath) throws(RecognitionError) -> String {
        var folders = installFolders(executable: executable)
        if let explicit = environment["INKWELL_MODELS"], !explicit.isEmpty { folders = [explicit] }
        for folder in folders {
            let path = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.isReadableFile(atPath: path) { return path }
        }
        throw .neuralReaderUnavailable("the neural reader's model \(name) was not found (looked in \(folders.joined(separator: ", "))); \(installHint)")
    }
}
