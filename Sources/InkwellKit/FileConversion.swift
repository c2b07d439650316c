import Foundation
import InkCore
import InkInterchange
import InkPDF

/// The pages of a pen file read straight from it, replayed through the editor session as
/// `inkwell import` would store them, with nothing written anywhere: `inkwell render FILE` converts
/// `.rm`, `.xopp`, `.inkml`, `.rnote` and replay logs without a library, as `rmc` and
/// `xournalpp --create-pdf` do.
public struct ConvertedFile {
    /// The first note's title, else the file's name without its extension.
    public var title: String
    /// Every page of every note the file holds, in order.
    public var pages: [Page]
    /// What was mended or left out while decoding (as `inkwell import` prints them).
    public var warnings: [String]
    /// The PDFs the pages are drawn on (a `.xopp` annotating a PDF, a PDF), for the renderer.
    public var backgrounds: BackgroundDocuments

    /// Decodes `url` and replays its notes in memory. Errors name the file, the position and the reason.
    public static func read(_ url: URL, replayer: NoteReplayer = NoteReplayer()) throws -> ConvertedFile {
        let recording = try Importer.decode(url)
        let fallback = url.deletingPathExtension().lastPathComponent
        var pages: [Page] = []
        var documents: [String: Data] = [:]
        for var recorded in recording.notes {
            if let background = recorded.background {
                let id = PDFPages.documentID(of: background)
                documents[id] = background
                recorded = recorded.namingBackground(id)
            }
            var note = ScratchNote(title: recorded.title ?? fallback, created: recorded.created ?? Date())
            try replayer.replay(recorded, into: &note)
            pages += try note.pages()
        }
        return ConvertedFile(title: recording.notes.first?.title ?? fallback, pages: pages, warnings: recording.warnings,
                             backgrounds: BackgroundDocuments(documents))
    }
}

/// Pen files converted and exported without a library (`inkwell export FILE… --zip out.zip`), as people
/// batch-convert with rmc or `xournalpp --create-pdf`: each file decoded and replayed in memory, its
/// outputs named after the file, into a folder or one ZIP archive (all or nothing).
public struct FileExport {
    public var format: ExportFormat
    /// PNG scale: 1, 2 or 3.
    public var scale: Double = 1
    public var conflicts: ConflictPolicy = .refuse
    /// Asked for each existing file under ``ConflictPolicy/ask``: true overwrites it.
    public var ask: (String) -> Bool = { _ in false }

    public init(format: ExportFormat) { self.format = format }

    /// What an export of files did.
    public struct Report: Sendable, Codable, Equatable {
        public struct Failure: Sendable, Codable, Equatable {
            public var file: String
            public var reason: String
        }
        /// Paths written (inside the archive, for a ZIP).
        public var written: [String] = []
        /// Paths left alone because they existed.
        public var skipped: [String] = []
        public var failed: [Failure] = []
        /// What was mended or left out while decoding, as `inkwell import` prints it.
        public var warnings: [String] = []
        public var archive: String?
    }

    /// Whether `format` can be made from a file alone (Markdown needs the library's recognised text).
    public static func supports(_ format: ExportFormat) -> Bool { format != .md }

    /// The files `file` becomes: `STEM.pdf` / `.inkml`, or a PNG or SVG a page (`STEM-p02.png`).
    func outputs(of file: URL, stem: String) throws -> (outputs: [(name: String, bytes: [UInt8])], warnings: [String]) {
        let converted = try ConvertedFile.read(file)
        guard !converted.pages.isEmpty else { throw ImportError(file: file.path, reason: "holds no pages") }
        var options = RenderOptions(title: converted.title)
        options.backgrounds = converted.backgrounds
        let renderer = Renderer(options: options)
        let numbered = converted.pages.count > 1
        func name(_ page: Int, _ ext: String) -> String { stem + (numbered ? ExportNaming.pageSuffix(page) : "") + "." + ext }
        let outputs: [(name: String, bytes: [UInt8])]
        switch format {
        case .pdf: outputs = [(stem + ".pdf", try renderer.pdf(converted.pages))]
        case .png: outputs = try converted.pages.enumerated().map { (name($0 + 1, "png"), try renderer.png($1, scale: scale)) }
        case .svg: outputs = converted.pages.enumerated().map { (name($0 + 1, "svg"), Array(renderer.svg($1).utf8)) }
        case .inkml: outputs = [(stem + ".inkml", [UInt8](InkMLWriter.write(converted.pages, title: converted.title)))]
        case .md: throw ExportError(path: file.path, reason: "Markdown needs recognised text: import the file, then export the note")
        }
        return (outputs, converted.warnings)
    }

    /// Converts `files` into `destination` (a folder or a ZIP; one file only when one output results).
    /// A file that cannot be read is reported and the others are exported; `progress` hears (done, total).
    public func run(_ files: [URL], to destination: ExportDestination, progress: (Int, Int) -> Void = { _, _ in }) throws -> Report {
        var report = Report()
        var naming = ExportNaming()
        var zip: ZipWriter?
        var target = destination
        switch destination {
        case .zip(let url):
            guard let settled = try conflicts.settle(url, ask: ask) else {
                report.skipped = [url.path]
                return report
            }
            zip = try ZipWriter(destination: settled)
            target = .zip(settled)
        case .file, .folder: break
        }
        for (index, file) in files.enumerated() {
            defer { progress(index + 1, files.count) }
            // Named after the file; two files of one name get -2, -3 …
            let unique = naming.unique(ExportNaming.slug(file.deletingPathExtension().lastPathComponent), extension: format.rawValue)
            do {
                let (outputs, warnings) = try self.outputs(of: file, stem: String(unique.dropLast(format.rawValue.count + 1)))
                report.warnings += warnings
                if case .file(let url) = target, outputs.count != 1 || files.count != 1 {
                    throw ExportError(path: url.path, reason: "several files would be written: give a folder or --zip")
                }
                if let zip {
                    for output in outputs {
                        try zip.add(output.bytes, as: output.name, compress: !(output.name.hasSuffix(".png") || output.name.hasSuffix(".pdf")))
                        report.written.append(output.name)
                    }
                    continue
                }
                // A file's outputs land all or none.
                var writes: [(url: URL, bytes: [UInt8])] = []
                for output in outputs {
                    guard let wanted = target.fileURL(for: output.name) else { continue }
                    if let url = try conflicts.settle(wanted, ask: ask) { writes.append((url, output.bytes)) } else { report.skipped.append(wanted.path) }
                }
                try DurableFile.replace(writes)
                report.written += writes.map(\.url.path)
            } catch let error as ExportError where error.reason == ConflictPolicy.refusal {
                zip?.discard()
                throw error
            } catch {
                report.failed.append(Report.Failure(file: file.path, reason: "\(error)"))
            }
        }
        if let zip, case .zip(let url) = target {
            if report.written.isEmpty {
                zip.discard()
            } else {
                try zip.commit()
                report.archive = url.path
            }
        }
        return report
    }
}
