import Foundation
import InkFont

/// Carries out a ``SampleRequest``: loads the style's font, writes each note and saves it as
/// `<name>.jsonl` (replay log) and `<name>.truth.json` (ground truth).
public struct SampleWriter: Sendable {
    /// The folder holding the Hershey `.jhf` files.
    public let fontsDirectory: URL

    public init(fontsDirectory: URL) {
        self.fontsDirectory = fontsDirectory
    }

    /// Writes every note of `request` into `directory` (created if missing) and returns the
    /// files written, two per note.
    public func write(_ request: SampleRequest, to directory: URL) throws -> [URL] {
        let font = try HersheyFont(contentsOf: fontsDirectory.appendingPathComponent(request.style.fontFileName))
        let synthesizer = HandwritingSynthesizer(font: font)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written: [URL] = []
        for (name, spec) in request.specs() {
            let note = synthesizer.write(spec)
            let log = directory.appendingPathComponent(name + ".jsonl")
            let truth = directory.appendingPathComponent(name + ".truth.json")
            try Data(ReplayLogWriter.log(for: note).utf8).write(to: log, options: .atomic)
            try GroundTruth(note).encoded().write(to: truth, options: .atomic)
            written += [log, truth]
        }
        return written
    }
}
