import ArgumentParser
import Foundation
import InkwellKit

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Say which handwriting readers are ready on this machine, and how to install those that are not.",
        discussion: """
            Tesseract (libtesseract5 and its English data) is the reader recognition always has; the neural line \
            reader (ONNX Runtime and PaddleOCR's PP-OCR model, under lib/inkwell/ beside the program, or where \
            INKWELL_ONNXRUNTIME and INKWELL_MODELS say) reads beside it and votes with it. Exits 1 when Tesseract is \
            not ready; a missing neural reader only reduces recognition.
            """
    )
    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        var version: String
        var readers: [ReaderStatus]
    }

    func run() throws {
        let readers = Workspace.readers()
        if output.json {
            try printJSON(Report(version: InkwellVersion.current, readers: readers))
        } else {
            print("inkwell \(InkwellVersion.current)")
            for reader in readers { print("\(reader.name): \(reader.ready ? "ready" : "not ready") — \(reader.detail)") }
        }
        if readers.contains(where: { $0.name == "tesseract" && !$0.ready }) { throw ExitCode(1) }
    }
}
