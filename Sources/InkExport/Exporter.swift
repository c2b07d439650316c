import Foundation
import InkCore
import InkIndex
import InkInterchange
import InkPDF
import InkRender
import InkStore
import InkText

/// The formats `inkwell export` writes.
public enum ExportFormat: String, Sendable, CaseIterable, Codable {
    case pdf, png, svg, md, inkml

    /// Image formats get one file per page; the others one file per note.
    public var isPerPage: Bool { self == .png || self == .svg }
}

/// What to do when an output file already exists.
public enum ConflictPolicy: String, Sendable, CaseIterable, Codable {
    /// Ask the user, file by file (through ``Exporter/ask``).
    case ask
    case overwrite
    case skip
    /// Write under the next free name (`-2`, `-3` …).
    case suffix
    /// Stop before writing anything.
    case refuse
}

extension ConflictPolicy {
    /// Where one output file goes when `url` may exist already: `url` itself (missing, or to be
    /// overwritten), the next free name (`suffix`), or nil to leave it alone (`skip`, or the user
    /// said no); `refuse` throws naming the file. Exports to one file or one ZIP archive and the
    /// catalog all settle their file here; a folder export settles each file the same way.
    public func settle(_ url: URL, ask: (String) -> Bool) throws -> URL? {
        guard FileManager.default.fileExists(atPath: url.path), !OutputFile.isStream(url) else { return url }
        switch self {
        case .overwrite: return url
        case .skip: return nil
        case .ask: return ask(url.path) ? url : nil
        case .suffix:
            var naming = ExportNaming()
            let folder = url.deletingLastPathComponent(), (base, ext) = ExportNaming.stemAndExtension(of: url)
            return folder.appendingPathComponent(naming.unique(base, extension: ext) {
                FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
            })
        case .refuse:
            throw ExportError(path: url.path, reason: ConflictPolicy.refusal)
        }
    }

    /// What a refused conflict tells the user to do.
    public static let refusal = "exists; choose --on-conflict overwrite, skip or suffix"
}

/// Where the files go.
public enum ExportDestination: Sendable, Equatable {
    /// One file with exactly this path when the export makes one file; a folder (created if missing)
    /// when it makes several.
    case file(URL)
    /// Files written into this folder.
    case folder(URL)
    /// One ZIP archive; notebooks become folders inside it.
    case zip(URL)

    var isZip: Bool { if case .zip = self { true } else { false } }

    /// Where the output named `name` goes on disk: the file itself, or `name` in the folder; nil
    /// inside a ZIP.
    public func fileURL(for name: String) -> URL? {
        switch self {
        case .file(let url): url
        case .folder(let folder): folder.appendingPathComponent(name)
        case .zip: nil
        }
    }
}

/// What an export did.
public struct ExportReport: Sendable, Codable, Equatable {
    public struct Failure: Sendable, Codable, Equatable {
        public var note: NoteID
        public var title: String
        public var reason: String

        public init(note: NoteID, title: String, reason: String) {
            self.note = note
            self.title = title
            self.reason = reason
        }
    }

    /// Paths written (inside the archive, for a ZIP).
    public var written: [String] = []
    /// Paths left alone because they existed (`--on-conflict skip` or the user's answer).
    public var skipped: [String] = []
    public var failed: [Failure] = []
    /// The archive, for a ZIP export.
    public var archive: String?
    /// What the files written do not carry of their notes (a page's PDF in InkML, typed text in PNG
    /// and SVG): each with the file, the page where it is a page's, and why.
    public var notKept: [NotKept] = []
    public var seconds = 0.0
    /// Seconds spent writing the ZIP archive (compressing and copying), for a ZIP export.
    public var zipSeconds = 0.0
}

/// Exports notes to PDF, PNG, SVG, Markdown or InkML files, into a folder or a ZIP archive.
///
/// Notes are rendered in parallel and written one at a time to temporary names that are renamed
/// when complete, so a failure never leaves a truncated file; a broken note is reported and the
/// others are exported.
public struct Exporter: Sendable {
    public let library: Library
    /// Recognised text (Markdown, the PDF text layer); nil when the library has no index.
    public let index: (any IndexBackend)?
    public var format: ExportFormat
    /// PNG scale: 1, 2 or 3.
    public var scale: Double = 1
    /// PDFs carry the recognised words as invisible text (searchable, selectable). The typed text
    /// is always in the layer: it is exact.
    public var textLayer = true
    public var author: String?
    public var conflicts: ConflictPolicy = .refuse
    /// Asked for each existing file under ``ConflictPolicy/ask``: true overwrites it.
    public var ask: @Sendable (String) -> Bool = { _ in false }
    /// Notes rendered at once.
    public var parallelism = max(1, ProcessInfo.processInfo.activeProcessorCount)

    public init(library: Library, index: (any IndexBackend)?, format: ExportFormat) {
        self.library = library
        self.index = index
        self.format = format
    }

    /// A note's output files, and what they do not carry of it.
    struct Rendered {
        var outputs: [Output]
        var notKept: [NotKept] = []
    }

    /// One output file of a note, ready to be written.
    struct Output {
        /// File name, or path inside a ZIP.
        var path: String
        var bytes: [UInt8]
        /// Text is worth deflating in a ZIP; PNG and PDF are compressed already.
        var compresses: Bool { !(path.hasSuffix(".png") || path.hasSuffix(".pdf")) }
    }

    /// Exports `notes` to `destination`; `progress` hears (done, total).
    public func run(_ notes: [StoredNote], to destination: ExportDestination,
                    progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> ExportReport {
        let started = Date()
        var report = ExportReport()
        var destination = destination
        // Several outputs for one path make it a folder (a Markdown note's page images too), so two
        // outputs never share a path.
        if case .file(let url) = destination {
            let count = try NamePlan(notes: notes, format: format, destination: destination).names.joined().count
            if count != 1 { destination = .folder(try OutputFile.folder(url, holding: count)) }
        }
        switch destination {
        case .file(let url), .zip(let url):
            guard let settled = try conflicts.settle(url, ask: ask) else {
                report.skipped = [url.path]
                return report
            }
            destination = destination.isZip ? .zip(settled) : .file(settled)
        case .folder: break
        }
        var avoid: (String) -> Bool = { _ in false }
        if case .folder(let folder) = destination, conflicts == .suffix {
            avoid = { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
        }
        var plan = try NamePlan(notes: notes, format: format, destination: destination, avoiding: avoid)
        if case .folder(let folder) = destination {
            try plan.resolveConflicts(in: folder, policy: conflicts, ask: ask, report: &report)
        }
        let zip: ZipWriter?
        if case .zip(let url) = destination { zip = try ZipWriter(destination: url) } else { zip = nil }

        var done = 0
        var zipSeconds = 0.0
        try forEachRendered(notes, plan: plan) { position, result in
            done += 1
            switch result {
            case .success(let rendered):
                let kept = rendered.outputs.filter { !plan.skipped.contains($0.path) }
                if !kept.isEmpty { report.notKept += rendered.notKept }
                switch destination {
                case .file, .folder:
                    // A note's files (a PNG a page, Markdown and its images) land all or none.
                    let files = kept.compactMap { output in destination.fileURL(for: output.path).map { (url: $0, bytes: output.bytes) } }
                    do {
                        try OutputFile.write(files)
                        report.written += files.map(\.url.path)
                    } catch {
                        let stored = notes[position]
                        report.failed.append(.init(note: stored.note.id, title: stored.note.title, reason: "\(error)"))
                    }
                case .zip:
                    for output in kept {
                        guard let zip else { break }
                        let zipStart = Date()
                        let file = zip.partsFolder.appendingPathComponent("\(report.written.count).part")
                        try Data(output.bytes).write(to: file)
                        try zip.add(file: file, as: output.path, compress: output.compresses)
                        zipSeconds += Date().timeIntervalSince(zipStart)
                        report.written.append(output.path)
                    }
                }
            case .failure(let error):
                let stored = notes[position]
                report.failed.append(.init(note: stored.note.id, title: stored.note.title, reason: "\(error)"))
            }
            progress(done, notes.count)
        }
        report.skipped = plan.skipped.sorted()
        if let zip, case .zip(let url) = destination {
            let zipStart = Date()
            if report.written.isEmpty {
                zip.discard()
            } else {
                try zip.commit()
                report.archive = url.path
            }
            zipSeconds += Date().timeIntervalSince(zipStart)
        }
        report.zipSeconds = zipSeconds
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// Renders notes `parallelism` at a time and hands each result to `consume` in note order, keeping
    /// at most a few rendered notes in memory.
    private func forEachRendered(_ notes: [StoredNote], plan: NamePlan,
                                 _ consume: (Int, Result<Rendered, Error>) throws -> Void) throws {
        let window = max(1, parallelism) * 2
        var start = 0
        while start < notes.count {
            let batch = Array(start..<min(notes.count, start + window))
            let results = Slots<Result<Rendered, Error>>(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { offset in
                let position = batch[offset]
                results.set(offset, Result { try outputs(for: notes[position], names: plan.names[position]) })
            }
            for (offset, position) in batch.enumerated() {
                try consume(position, results.take(offset) ?? .failure(ExportError(path: "", reason: "not rendered")))
            }
            start += window
        }
    }

    /// The files of one note, and what they do not carry of it.
    func outputs(for stored: StoredNote, names: [String]) throws -> Rendered {
        let pages = try library.pages(of: stored)
        var rendered = Rendered(outputs: try outputs(for: stored, pages: pages, names: names))
        switch format {
        case .inkml:
            for (number, page) in pages.enumerated() where page.template.background != nil {
                rendered.notKept.append(NotKept(file: names[0], page: number + 1, reason: "the PDF page under the ink is not in the InkML (InkML has no background; PDF, PNG and SVG draw it)"))
            }
        case .png, .svg:
            if !(try library.typedText(of: stored)).isEmpty {
                rendered.notKept.append(NotKept(file: names[0], reason: "the note's typed text is not drawn in \(format == .png ? "PNG" : "SVG") page images (PDF, Markdown and InkML carry it)"))
            }
        case .pdf, .md: break
        }
        return rendered
    }

    /// The files of one note made of its `pages`.
    private func outputs(for stored: StoredNote, pages: [Page], names: [String]) throws -> [Output] {
        var options = RenderOptions(title: stored.note.title)
        options.parallelism = 1
        options.backgrounds = library.backgroundDocuments(of: stored)
        switch format {
        case .pdf:
            if textLayer, let index { options.textLayer = try index.words(of: stored.note.id).mapValues(\.lines) }
            options.author = author
            options.keywords = stored.note.tags.sorted().map(\.name)
            options.created = stored.note.created
            let typed = try library.typedText(of: stored)
            return [Output(path: names[0], bytes: try Renderer(options: options).pdf(pages, typedText: typed.isEmpty ? nil : typed))]
        case .png:
            // One after another (parallelism 1: notes are exported several at once), in the same pixel memory.
            return zip(try Renderer(options: options).pngs(pages, scale: scale), names).map { Output(path: $1, bytes: $0) }
        case .svg:
            return zip(pages, names).map { Output(path: $1, bytes: Array(Renderer(options: options).svg($0).utf8)) }
        case .inkml:
            let bytes = InkMLWriter.write(pages, title: stored.note.title, created: stored.note.created,
                                          tags: stored.note.tags.map(\.name).sorted(), typedText: try library.typedTextSource(of: stored))
            return [Output(path: names[0], bytes: [UInt8](bytes))]
        case .md:
            let texts = try index?.pageTexts(of: stored.note.id) ?? [:]
            let images = Array(names.dropFirst())
            let markdown = MarkdownNote(stored: stored, pageTexts: pages.map { texts[$0.id] ?? "" }, images: images.map {
                String($0.split(separator: "/").last ?? Substring($0))
            }, typedText: try library.typedTextSource(of: stored))
            var outputs = [Output(path: names[0], bytes: Array(markdown.text.utf8))]
            for (page, name) in zip(pages, images) {
                outputs.append(Output(path: name, bytes: try Renderer(options: options).png(page, scale: 1)))
            }
            return outputs
        }
    }
}

extension Library {
    /// The PDFs the pages of `stored` are drawn on, read from the note's folder when a page needs one.
    public func backgroundDocuments(of stored: StoredNote) -> BackgroundDocuments {
        BackgroundDocuments { [self] id in backgroundData(id, of: stored) }
    }
}
