import Foundation
#if canImport(Glibc)
import Glibc
#endif
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
            try SampleWriter.replace(log, with: Data(ReplayLogWriter.log(for: note).utf8))
            try SampleWriter.replace(truth, with: GroundTruth(note).encoded())
            written += [log, truth]
        }
        return written
    }

    /// Writes `data` to a temporary file beside `url`, then renames it over `url`: a reader sees the
    /// old file or the new one, and nothing is made outside the output folder (`Data.write(options:
    /// .atomic)` goes through a temporary folder of Foundation's choosing). No fsync, unlike InkStore's
    /// `DurableFile`: samples can be made again, and benchmarks write thousands.
    static func replace(_ url: URL, with data: Data) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path,
                                                              NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
