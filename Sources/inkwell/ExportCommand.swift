import ArgumentParser
import Foundation
import InkCore
import InkExport
import InkIndex
import InkStore

extension ExportFormat: ExpressibleByArgument {}
extension ConflictPolicy: ExpressibleByArgument {}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export notes as PDF, PNG, SVG, Markdown or InkML, to files or one ZIP archive.",
        discussion: """
            Choose notes by id or title, --notebook (with the notebooks inside it), --tag (all must match), \
            --query (a search), or --all; the filters combine with AND. Files are named \
            YYYYMMDD-title-slug.ext from the creation date; image formats write one file per page (-p02). \
            A PDF carries the recognised text as an invisible layer (from `inkwell index`), and the note's \
            typed text on pages after the ink (drawn, and in the invisible layer); Markdown has the typed \
            text as written after the pages; PNG and SVG are the ink pages alone. Outputs are \
            written under temporary names and renamed when complete: a failure never leaves half a file.
            """
    )

    @OptionGroup var library: LibraryOptions
    @Argument(help: "Notes to export (ids, id prefixes or titles).") var notes: [String] = []
    @Option(help: "Notes in this notebook and the notebooks inside it.") var notebook: String?
    @Option(name: .customLong("tag"), help: "Notes with this tag (repeatable: all must match).") var tags: [String] = []
    @Option(help: "Notes a search for these words finds.") var query: String?
    @Flag(help: "Every note.") var all = false
    @Option(help: "pdf, png, svg, md or inkml (InkML with X Y F T imports back into Inkwell or any InkML reader).")
    var format: ExportFormat = .pdf
    @Option(help: "PNG scale: 1, 2 or 3 (1x is the page size in pixels).") var scale = 1
    @Option(name: .shortAndLong, help: "The output file, or an existing folder to write into (default: the current folder).")
    var output: String?
    @Option(help: "Write everything into this ZIP archive; notebooks become folders.") var zip: String?
    @Option(help: "When a file exists: ask, overwrite, skip or suffix (default: ask on a terminal, else refuse).")
    var onConflict: ConflictPolicy?
    @Flag(help: "Leave the recognised text out of PDFs (typed text stays searchable).") var noTextLayer = false
    @Option(help: "The author recorded in PDFs.") var author: String?
    @OptionGroup var json: OutputOptions

    func validate() throws {
        guard [1, 2, 3].contains(scale) else { throw ValidationError("--scale is 1, 2 or 3") }
        guard !notes.isEmpty || notebook != nil || !tags.isEmpty || query != nil || all else {
            throw ValidationError("choose notes: NOTE…, --notebook, --tag, --query or --all")
        }
        if zip != nil && output != nil { throw ValidationError("--zip and -o both name the output; choose one") }
    }

    func run() throws {
        let library = try library.open()
        let index = try SearchIndex(library: library)
        let selected = try select(in: library, index: index)
        guard !selected.isEmpty else { throw ValidationError("no notes match") }

        var exporter = Exporter(library: library, index: index, format: format)
        exporter.scale = Double(scale)
        exporter.textLayer = !noTextLayer
        exporter.author = author
        let interactive = isatty(STDIN_FILENO) == 1 && standardErrorIsTerminal
        exporter.conflicts = onConflict ?? (interactive ? .ask : .refuse)
        exporter.ask = { path in
            FileHandle.standardError.write(Data("\(path) exists. Overwrite? [y/N] ".utf8))
            return readLine()?.lowercased().hasPrefix("y") ?? false
        }

        let destination = try self.destination(count: selected.count)
        let progress = Progress(total: selected.count, label: "exporting")
        let report = try exporter.run(selected, to: destination) { done, _ in progress.update(done) }
        progress.finish()
        for failure in report.failed { printError("error: note \(failure.note) \"\(failure.title)\": \(failure.reason)") }
        if json.json {
            try printJSON(report)
        } else {
            if let archive = report.archive {
                print("wrote \(archive) (\(report.written.count) file\(report.written.count == 1 ? "" : "s"))")
            } else {
                for path in report.written { print("wrote \(path)") }
            }
            for path in report.skipped { print("skipped \(path) (exists)") }
        }
        if !report.failed.isEmpty { throw ExitCode.failure }
    }

    /// The notes the arguments select: named notes plus, with filters, the notes passing every filter.
    private func select(in library: Library, index: SearchIndex) throws -> [StoredNote] {
        var chosen = try notes.map { try library.note(matching: $0) }
        if notebook != nil || !tags.isEmpty || query != nil || all {
            var candidates = try library.notes(in: try notebook.map(notebookPath) ?? .root)
            let wanted = try Set(tags.map(parseTag))
            candidates = candidates.filter { wanted.isSubset(of: $0.note.tags) }
            if let query {
                try index.refresh(from: library)
                let hits = Set(try index.search(SearchQuery(text: query, limit: 1_000_000)).map(\.note))
                candidates = candidates.filter { hits.contains($0.note.id) }
            }
            chosen += candidates
        }
        var seen = Set<NoteID>()
        return chosen.filter { seen.insert($0.note.id).inserted }.sorted { ($0.note.created, $0.note.id) < ($1.note.created, $1.note.id) }
    }

    private func destination(count: Int) throws -> ExportDestination {
        if let zip {
            let url = URL(fileURLWithPath: zip)
            guard url.pathExtension.lowercased() == "zip" else { throw ValidationError("--zip names a .zip file") }
            return .zip(url)
        }
        let path = URL(fileURLWithPath: output ?? FileManager.default.currentDirectoryPath)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder), isFolder.boolValue {
            return .folder(path)
        }
        guard output != nil else { throw ValidationError("the current folder is not writable") }
        if FileManager.default.fileExists(atPath: path.path), onConflict != .overwrite {
            throw ValidationError("\(path.path) exists; pass --on-conflict overwrite to replace it")
        }
        return .file(path)
    }
}
