import Foundation
import InkCore
import InkExport
import InkInterchange
import InkPDF
import InkRender
import InkStore

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
    package var backgrounds: BackgroundDocuments

    /// True when `url` names a file (or a link to one), its name UTF-8 or not (``RawPath``): what
    /// `render` and `export` convert rather than look up in the library.
    public static func isFile(_ url: URL) -> Bool { RawPath.kind(of: url) == .file }

    /// Decodes `url` and replays its notes in memory. Errors name the file, the position and the reason.
    public static func read(_ url: URL, replayer: NoteReplayer = NoteReplayer()) throws -> ConvertedFile {
        let recording = try Importer.decode(url)
        let fallback = Library.cleanTitle(url.deletingPathExtension().lastPathComponent)
        var pages: [Page] = []
        var documents: [String: Data] = [:]
        for var recorded in recording.notes {
            if let background = recorded.background {
                let id = try PDFPages.documentID(of: background)
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
    package var format: ExportFormat
    /// PNG scale: 1, 2 or 3.
    public var scale: Double = 1
    package var conflicts: ConflictPolicy = .refuse
    /// Asked for each existing file under ``ConflictPolicy/ask``: true overwrites it.
    public var ask: (String) -> Bool = { _ in false }

    package init(format: ExportFormat) { self.format = format }

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
    package static func supports(_ format: ExportFormat) -> Bool { format != .md }

    /// The files `file` becomes, as name endings after a stem: `.pdf` / `.inkml`, or a PNG or SVG a page
    /// (`-p02.png`).
    func outputs(of file: URL) throws -> (outputs: [(ending: String, bytes: [UInt8])], warnings: [String]) {
        let converted = try ConvertedFile.read(file)
        guard !converted.pages.isEmpty else { throw ImportError(file: file.path, reason: "holds no pages") }
        var options = RenderOptions(title: converted.title)
        options.backgrounds = converted.backgrounds
        let renderer = Renderer(options: options)
        let numbered = converted.pages.count > 1
        func ending(_ page: Int, _ ext: String) -> String { (numbered ? ExportNaming.pageSuffix(page) : "") + "." + ext }
        let outputs: [(ending: String, bytes: [UInt8])]
        switch format {
        case .pdf: outputs = [(".pdf", try renderer.pdf(converted.pages))]
        case .png: outputs = try renderer.pngs(converted.pages, scale: scale).enumerated().map { (ending($0 + 1, "png"), $1) }
        case .svg: outputs = converted.pages.enumerated().map { (ending($0 + 1, "svg"), Array(renderer.svg($1).utf8)) }
        case .inkml: outputs = [(".inkml", [UInt8](InkMLWriter.write(converted.pages, title: converted.title)))]
        case .md: throw ExportError(path: file.path, reason: "Markdown needs recognised text: import the file, then export the note")
        }
        return (outputs, converted.warnings)
    }

    /// One file converted: its outputs waiting in the staging folder, by name ending.
    private struct Converted {
        var file: URL
        var parts: [(ending: String, part: URL)]
        var stem = ""
        var names: [String] { parts.map { stem + $0.ending } }
    }

    /// Converts `files` into `destination` (a folder or a ZIP; one file only for one input making one
    /// output). Every file is converted first (outputs kept in a temporary folder, not in memory); then
    /// names are planned, each the file's name (`-2`, `-3` … when two would meet, never an input's own
    /// path), conflicts settled (`refuse` stops before anything is written), and the outputs written: a
    /// file's outputs all or none, a ZIP all or nothing. A file that cannot be read is reported and the
    /// others are exported; `progress` hears (done, total).
    package func run(_ files: [URL], to destination: ExportDestination, progress: (Int, Int) -> Void = { _, _ in }) throws -> Report {
        var report = Report()
        var destination = destination
        // Several outputs for one path make it a folder, so two outputs never share a path.
        if case .file(let url) = destination, files.count != 1 {
            destination = .folder(try OutputFile.folder(url, holding: files.count))
        }
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: staging) }

        var converted: [Converted] = []
        for (index, file) in files.enumerated() {
            defer { progress(index + 1, files.count) }
            do {
                let (outputs, warnings) = try self.outputs(of: file)
                report.warnings += warnings
                var parts: [(ending: String, part: URL)] = []
                for output in outputs {
                    let part = staging.appendingPathComponent("\(converted.count)-\(parts.count).part")
                    try Data(output.bytes).write(to: part)
                    parts.append((output.ending, part))
                }
                if case .file(let url) = destination, parts.count != 1 {
                    destination = .folder(try OutputFile.folder(url, holding: parts.count))
                }
                converted.append(Converted(file: file, parts: parts))
            } catch {
                report.failed.append(Report.Failure(file: file.path, reason: "\(error)"))
            }
        }

        // Names: the file's own, unique over everything this export writes and never an input.
        let inputs = Set(files.map { $0.standardizedFileURL.path })
        func isInput(_ name: String) -> Bool { destination.fileURL(for: name).map { inputs.contains($0.standardizedFileURL.path) } ?? false }
        var used: Set<String> = []
        for index in converted.indices {
            let base = ExportNaming.slug(converted[index].file.deletingPathExtension().lastPathComponent)
            var attempt = 1
            repeat {
                converted[index].stem = attempt == 1 ? base : "\(base)-\(attempt)"
                attempt += 1
            } while converted[index].names.contains { used.contains($0.lowercased()) || isInput($0) }
            used.formUnion(converted[index].names.map { $0.lowercased() })
        }

        switch destination {
        case .zip(let url):
            guard let settled = try conflicts.settle(url, ask: ask) else {
                report.skipped = [url.path]
                return report
            }
            guard !converted.isEmpty else { return report }
            let archive = try ZipWriter(destination: settled)
            for item in converted {
                for (name, part) in zip(item.names, item.parts.map(\.part)) {
                    try archive.add(file: part, as: name, compress: !(name.hasSuffix(".png") || name.hasSuffix(".pdf")))
                    report.written.append(name)
                }
            }
            try archive.commit()
            report.archive = settled.path
        case .file, .folder:
            if conflicts == .refuse {
                for item in converted {
                    for name in item.names {
                        if let url = destination.fileURL(for: name), FileManager.default.fileExists(atPath: url.path),
                           !OutputFile.isStream(url) {
                            throw ExportError(path: url.path, reason: ConflictPolicy.refusal)
                        }
                    }
                }
            }
            for item in converted {
                do {
                    var writes: [(url: URL, bytes: [UInt8])] = []
                    for (name, part) in zip(item.names, item.parts.map(\.part)) {
                        guard let wanted = destination.fileURL(for: name) else { continue }
                        guard let url = try conflicts.settle(wanted, ask: ask) else {
                            report.skipped.append(wanted.path)
                            continue
                        }
                        guard !inputs.contains(url.standardizedFileURL.path) else {
                            throw ExportError(path: url.path, reason: "is one of the files being converted; not overwritten")
                        }
                        writes.append((url, [UInt8](try Data(contentsOf: part))))
                    }
                    try OutputFile.write(writes)
                    report.written += writes.map(\.url.path)
                } catch {
                    report.failed.append(Report.Failure(file: item.file.path, reason: "\(error)"))
                }
            }
        }
        return report
    }
}
