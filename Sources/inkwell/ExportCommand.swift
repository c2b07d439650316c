import ArgumentParser
import Foundation
import InkwellKit

extension NoteFormat: ExpressibleByArgument {}
extension OnConflict: ExpressibleByArgument {}
extension CatalogKind: ExpressibleByArgument {}

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

            Pen files (.rm, .xopp, .inkml, .rnote, .jsonl, a PDF) named instead of notes are converted \
            without a library, each replayed in memory: `inkwell export *.rm --zip pages.zip` writes \
            page.pdf (or page-p01.png … with --format png) for each file, nothing written to any library. \
            Markdown needs a note's recognised text and is not made from files.

            --catalog csv|json writes one file instead: every selected note's id, notebook, title, dates, \
            tags, pinned, source, page count and recognised text, in listing order (default: every note; \
            -o FILE, a folder for catalog.csv or catalog.json, or - for standard output). CSV follows \
            RFC 4180 with tags joined by spaces; JSON is an array of objects; dates are ISO 8601 in UTC.

            --obsidian-vault DIR appends each note to the vault's daily note of the day the note was \
            created (its creation date, in the local time zone, $TZ: the day it was written, which an \
            edit does not move). Daily notes follow the vault's Daily notes settings \
            (.obsidian/daily-notes.json: folder and moment.js format, default YYYY-MM-DD.md at the \
            root) and are created when missing. Each note is a section: a heading with the title, a \
            line with notebook, time and #tags, the recognised text (run `inkwell index` first) with \
            hashtags kept as tags and task markers - [ ] - [x] - [!] - [?] kept as written, and the \
            page images, written as PNG into the vault's attachment folder (.obsidian/app.json) and \
            embedded with ![[…]]. What was pushed is recorded in DIR/.inkwell/pushed.jsonl, in the \
            vault, so pushing again adds nothing, from this library or another; a note changed since \
            (title, notebook, tags, ink or recognised text) gets one new section "(updated HH:MM)". \
            Text already in a daily note is never changed: the file is rewritten through a temporary \
            file and only if nobody changed it meanwhile.
            """
    )

    @OptionGroup var library: LibraryOptions
    @OptionGroup var index: IndexOptions
    @Argument(help: "Notes to export (ids, id prefixes or titles), or pen files to convert without a library.") var notes: [String] = []
    @Option(help: "Notes in this notebook and the notebooks inside it.") var notebook: String?
    @Option(name: .customLong("tag"), help: "Notes with this tag (repeatable: all must match).") var tags: [String] = []
    @Option(help: "Notes a search for these words finds.") var query: String?
    @Flag(help: "Every note.") var all = false
    @Option(help: "pdf (the default), png, svg, md or inkml (InkML with X Y F T imports back into Inkwell or any InkML reader).")
    var format: NoteFormat?
    @Option(help: "PNG scale: 1, 2 or 3 (1x is the page size in pixels); also of the page images pushed to a vault.") var scale: Int?
    @Option(help: "Write the notes' metadata and recognised text as one csv or json file instead.") var catalog: CatalogKind?
    @Option(name: .shortAndLong, help: "The output file, or a folder to write into (an existing one, one ending in /, or any path when several files result; default: the current folder); - is standard output where one file results.")
    var output: String?
    @Option(help: "Write everything into this ZIP archive; notebooks become folders.") var zip: String?
    @Option(help: "When an output file, ZIP or catalog exists: ask, overwrite, skip or suffix (default: ask on a terminal, else refuse).")
    var onConflict: OnConflict?
    @Flag(help: "Leave the recognised text out of PDFs (typed text stays searchable).") var noTextLayer = false
    @Option(help: "The author recorded in PDFs.") var author: String?
    @Flag(help: "Exit 2 (partly done) when the files written do not carry something of their notes (each item is reported with its file, page and reason).") var strict = false
    @Option(help: ArgumentHelp("Append the notes to the daily notes of this Obsidian vault instead (see above).", valueName: "dir"),
            completion: .directory)
    var obsidianVault: String?
    @OptionGroup var json: OutputOptions

    func validate() throws {
        if catalog != nil && obsidianVault != nil { throw ValidationError("--catalog and --obsidian-vault are two different outputs; choose one") }
        if catalog != nil {
            let ignored = [(format != nil, "--format"), (scale != nil, "--scale"), (zip != nil, "--zip"),
                           (noTextLayer, "--no-text-layer"), (author != nil, "--author")].filter(\.0).map(\.1)
            if let option = ignored.first { throw ValidationError("--catalog writes one metadata file; \(option) does not apply to it") }
            if output == "-" && json.json { throw ValidationError("the catalog goes to standard output; --json has no room there") }
            return
        }
        guard [1, 2, 3].contains(scale ?? 1) else { throw ValidationError("--scale is 1, 2 or 3") }
        guard !notes.isEmpty || notebook != nil || !tags.isEmpty || query != nil || all else {
            throw ValidationError("choose notes: NOTE…, --notebook, --tag, --query or --all")
        }
        if zip != nil && output != nil { throw ValidationError("--zip and -o both name the output; choose one") }
        if obsidianVault != nil {
            let others = [(format != nil, "--format"), (zip != nil, "--zip"), (output != nil, "-o"), (onConflict != nil, "--on-conflict"),
                          (noTextLayer, "--no-text-layer"), (author != nil, "--author")].filter(\.0).map(\.1)
            if !others.isEmpty {
                throw ValidationError("--obsidian-vault writes Markdown and PNG into the vault's daily notes; \(others.joined(separator: ", ")) do not apply")
            }
        }
    }

    /// The arguments as pen files, when every one names an existing file in a format Inkwell converts
    /// (and no note filter is given): they are converted, not looked up in the library. An argument that
    /// is also a note of the library is refused as ambiguous (`./NAME` names the file).
    private func penFiles() throws -> [URL]? {
        guard !notes.isEmpty, notebook == nil, tags.isEmpty, query == nil, !all, catalog == nil, obsidianVault == nil else { return nil }
        let known = Workspace.penFileExtensions.union(["pdf", "xml"])
        let urls = notes.map { URL(fileURLWithPath: $0) }
        let allFiles = urls.allSatisfy { known.contains($0.pathExtension.lowercased()) && ConvertedFile.isFile($0) }
        guard allFiles else { return nil }
        if let opened = try? library.open(), let both = notes.first(where: { (try? opened.note(matching: $0)) != nil }) {
            throw RenderCommand.Failure("\"\(both)\" is both a file here and a note of the library: give the file as ./\(both) "
                + "or the note by its id")
        }
        return urls
    }

    func run() throws {
        if let files = try penFiles() { return try exportFiles(files) }
        let workspace = self.index.workspace(try library.open())
        let selection = try self.selection(in: workspace)
        // Recognised text comes from the index where there is one; exporting never creates it.
        announceIndex(try workspace.openExistingIndex())
        if let catalog { return try writeCatalog(catalog, of: selection, in: workspace) }
        let selected: [NoteEntry]
        do {
            selected = try workspace.select(selection)
        } catch {
            throw notes.lazy.compactMap(missingFile).first ?? error
        }
        guard !selected.isEmpty else { throw RenderCommand.Failure("no notes match") }
        for entry in selected { if let warning = workspace.journalWarning(for: entry.note.id) { printError("warning: \(warning)") } }
        if let obsidianVault { return try push(selected, workspace: workspace, vault: obsidianVault) }

        var settings = ExportSettings(format: format ?? .pdf)
        settings.scale = Double(scale ?? 1)
        settings.textLayer = !noTextLayer
        settings.author = author
        settings.conflicts = conflictPolicy
        settings.ask = ExportCommand.askToOverwrite

        let progress = Progress(total: selected.count, label: "exporting")
        let report = try workspace.export(selected, as: settings, to: try destination()) { done, _ in progress.update(done) }
        progress.finish()
        for failure in report.failed { printError("error: note \(failure.note) \"\(failure.title)\": \(failure.reason)") }
        for item in report.notKept { printNote("not kept: \(item)") }
        try printOutcome(report, archive: report.archive, written: report.written, skipped: report.skipped, failures: report.failed.count)
        try finishStrict(strict, notKept: report.notKept.count)
    }

    /// Converts pen files without a library (``FileExport``).
    private func exportFiles(_ files: [URL]) throws {
        if author != nil || noTextLayer {
            throw RenderCommand.Failure("--author and --no-text-layer apply to notes of the library, not to files converted without one")
        }
        var export = FileExport(as: format ?? .pdf)
        guard export.canExport else {
            throw RenderCommand.Failure("--format md needs a note's recognised text: import the files, then export the notes")
        }
        export.scale = Double(scale ?? 1)
        export.onConflict = conflictPolicy
        export.ask = ExportCommand.askToOverwrite
        let progress = Progress(total: files.count, label: "converting")
        let report = try export.run(files, to: try destination()) { done, _ in progress.update(done) }
        progress.finish()
        for warning in report.warnings { printNote("warning: \(warning)") }
        for failure in report.failed { printError("error: \(failure.reason)") }
        try printOutcome(report, archive: report.archive, written: report.written, skipped: report.skipped, failures: report.failed.count)
        try finishStrict(strict, notKept: report.warnings.count)
    }

    /// What an export wrote: the report as JSON, or the archive (or each file) and what was skipped;
    /// exits 2 when some failed, 1 when all did (the failures were printed already).
    private func printOutcome(_ report: some Encodable, archive: String?, written: [String], skipped: [String], failures: Int) throws {
        if json.json {
            try printJSON(report)
        } else {
            if let archive {
                printWritten("wrote \(archive) (\(written.count) file\(written.count == 1 ? "" : "s"))", paths: [archive])
            } else {
                for path in written { printWritten("wrote \(path)", paths: written) }
            }
            for path in skipped { print("skipped \(path) (exists)") }
        }
        try finish(done: written.count + skipped.count, failed: failures)
    }

    /// The notes the arguments choose.
    private func selection(in workspace: Workspace) throws -> NoteSelection {
        NoteSelection(names: notes, notebook: try notebook.map { try existingNotebook($0, in: workspace) }, tags: try Set(tags.map(parseTag)),
                      query: query, all: all)
    }

    /// The catalog of the selected notes (every note when none are chosen), in listing order.
    private func writeCatalog(_ format: CatalogKind, of selection: NoteSelection, in workspace: Workspace) throws {
        let (bytes, count) = try workspace.catalog(of: selection, as: format)
        if output == "-" {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        let wanted = catalogPath(format)
        guard let url = try conflictPolicy.settle(wanted, ask: ExportCommand.askToOverwrite) else {
            return json.json ? try printJSON(CatalogReport(skipped: wanted.path, notes: 0)) : print("skipped \(wanted.path) (exists)")
        }
        try Workspace.writeFile(url, bytes)
        if json.json { return try printJSON(CatalogReport(catalog: url.path, notes: count)) }
        printWritten("wrote \(url.path) (\(count) note\(count == 1 ? "" : "s"))", paths: [url.path])
    }

    /// What `--catalog … --json` prints.
    struct CatalogReport: Encodable {
        var catalog: String?
        var skipped: String?
        var notes: Int
    }

    /// Where the catalog would go before conflicts: -o FILE, catalog.csv|json in -o FOLDER or the current folder.
    private func catalogPath(_ format: CatalogKind) -> URL {
        let path = URL(fileURLWithPath: output ?? FileManager.default.currentDirectoryPath)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder), isFolder.boolValue {
            return path.appendingPathComponent("catalog." + format.rawValue)
        }
        return path
    }

    /// --on-conflict, else ask on a terminal and refuse elsewhere.
    private var conflictPolicy: OnConflict {
        onConflict ?? (isatty(STDIN_FILENO) == 1 && standardErrorIsTerminal ? .ask : .refuse)
    }

    @Sendable private static func askToOverwrite(_ path: String) -> Bool {
        FileHandle.standardError.write(Data(terminalSafe("\(path) exists. Overwrite? [y/N] ").utf8))
        return readLine()?.lowercased().hasPrefix("y") ?? false
    }

    /// Appends the notes to the daily notes of the vault at `vault` (``ObsidianPush``).
    private func push(_ notes: [NoteEntry], workspace: Workspace, vault: String) throws {
        let progress = Progress(total: notes.count, label: "pushing")
        let report = try workspace.push(notes, toVault: URL(fileURLWithPath: vault, isDirectory: true), scale: Double(scale ?? 1)) { done, _ in
            progress.update(done)
        }
        progress.finish()
        for failure in report.failed { printError("error: note \(failure.note) \"\(failure.title)\": \(failure.reason)") }
        if json.json {
            try printJSON(report)
        } else {
            for daily in report.dailyNotes {
                var parts: [String] = []
                if !daily.added.isEmpty { parts.append("added \(daily.added.count) note\(daily.added.count == 1 ? "" : "s")") }
                if !daily.updated.isEmpty { parts.append("updated \(daily.updated.count)") }
                print("\(daily.path): \(parts.joined(separator: ", "))\(daily.created ? " (new daily note)" : "")")
            }
            if !report.unchanged.isEmpty {
                print("\(report.unchanged.count) note\(report.unchanged.count == 1 ? "" : "s") already pushed and unchanged")
            }
        }
        try finish(done: report.dailyNotes.count + report.unchanged.count, failed: report.failed.count)
    }

    /// -o FILE, -o FOLDER (default: the current folder) or --zip FILE; an existing file is settled
    /// by the exporter under --on-conflict, as every output is.
    private func destination() throws -> ExportTarget {
        if let zip {
            let url = URL(fileURLWithPath: zip)
            guard url.pathExtension.lowercased() == "zip" else { throw ValidationError("--zip names a .zip file") }
            return .zip(url)
        }
        guard let output else { return .folder(URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) }
        return try outputDestination(output)
    }
}
