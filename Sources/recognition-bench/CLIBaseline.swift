import Foundation

/// The `tesseract` command, run once per image as a user would: a new process that loads the model.
struct TesseractCLI {
    let executable: String
    let arguments: [String]

    static func find() -> String? {
        for path in ["/usr/bin/tesseract", "/usr/local/bin/tesseract", "/opt/homebrew/bin/tesseract"]
        where FileManager.default.isExecutableFile(atPath: path) { return path }
        return nil
    }

    /// The text read from `image`, and the wall-clock seconds the process took.
    func read(_ image: String) throws -> (text: String, seconds: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [image, "stdout"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["OMP_THREAD_LIMIT"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (String(decoding: data, as: UTF8.self), seconds)
    }
}
