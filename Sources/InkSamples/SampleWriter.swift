import Foundation
#if canImport(Glibc)
import Glibc
#endif
import InkFont

/// Carries out a ``SampleRequest``: takes the style's font, writes each note and saves it as
/// `<name>.jsonl` (replay log) and `<name>.truth.json` (ground truth).
public struct SampleWriter: Sendable {
    /// A folder holding other Hershey `.jhf` files to write with; nil: the fonts compiled into the
    /// program (``HersheyFont/shipped(_:)``), so samples can be made from any folder.
    public let fontsDirectory: URL?

    public init(fontsDirectory: URL? = nil) {
        self.fontsDirectory = fontsDirectory
    }

    /// The font `style` writes with: from ``fontsDirectory`` when one is given, else compiled in.
    public func font(for style: HandwritingStyle) throws -> HersheyFont {
        guard let fontsDirectory else { return style.font }
        return try HersheyFont(contentsOf: fontsDirectory.appendingPathComponent(style.fontFileName))
    }

    /// Writes every note of `request` into `directory` (created if missing) and returns the
    /// files written, two per note.
    public func write(_ request: SampleRequest, to directory: URL) throws -> [URL] {
        let synthesizer = HandwritingSynthesizer(font: try font(for: request.style))
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
