import ArgumentParser
import Foundation
import InkwellKit

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import pen recordings as notes, replayed through the editor session.",
        discussion: """
            Reads Inkwell replay logs (.jsonl, see docs/replay-format.md), W3C InkML, reMarkable pages (.rm: version 6, and 3 and 5 from before software 3.0) \
            and notebooks (.content or .metadata; a tablet's whole xochitl backup folder: folders, pins, trash, tags and \
            templates come along, see docs/import-formats.md), and Xournal++ / Xournal files (.xopp, .xoj; see docs/import-formats.md); \
            a folder is searched for them; - reads standard input (`... | inkwell import -`: titled "stdin" unless \
            the format names a title, and known by its bytes, so the same bytes piped again are left as they are). \
            The format is recognised by content. Every file is decoded before anything is written: if any \
            file is bad, nothing is imported (unless --keep-going) and the error names the file, the line \
            and the reason.

            As in the editor, the handwriting of every page saved is recognised (once per page, from its \
            final content, on --jobs background threads): hashtags become tags of the note, except tags \
            removed by hand, and the text goes into the search index, so `inkwell index` has nothing left \
            to do for these pages. That costs about 0.3 s a page; --no-recognize leaves it to `inkwell index`.

            Every note remembers its source (a reMarkable document's UUID, else the file's path) and the \
            source's hash (`note show`). Importing a source already in the library updates its note: \
            unchanged, it is skipped after hashing it; changed, its changed and new pages replace or join \
            the note's (the old versions go to the trash; pages you drew on in Inkwell are kept beside the \
            new ones), removed pages go, and the title, dates and tags are refreshed, the note's id kept. \
            --as-new imports a copy instead. Each file is reported as new, updated (pages changed) or unchanged.
            """
    )

    @OptionGroup var library: LibraryOptions
    @OptionGroup var index: IndexOptions
    @Argument(help: "Files or folders to import; - for standard input.", completion: .file()) var paths: [String]
    @Option(help: "Notebook for notes whose recording names none.") var notebook: String = "Inbox"
    @Option(help: "Title for notes whose recording names none (default: the file name).") var title: String?
    @Flag(help: "Print the session's effects as JSON Lines with their virtual times.") var trace = false
    @Flag(help: "Import the files that are good and report the others.") var keepGoing = false
    @Flag(help: "Exit 2 (partly done) when a file held anything that was not kept (each item is reported with its file, page and reason).") var strict = false
    @Flag(help: "Import sources imported before as new notes (copies) instead of updating their notes.") var asNew = false
    @Flag(inversion: .prefixedNo, help: "Recognise the handwriting as it is imported (hashtags become tags).") var recognize = true
    @Option(help: "Pages recognised at once (default: the number of cores).") var jobs = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "How hard recognition looks: best (each line drawn seven ways, the readings voted) or fast (one way, for bulk runs).")
    var quality: RecognitionQuality = .standard
    @Option(help: "Which engines read: tesseract, neural (PP-OCR on ONNX Runtime) or both, voting word by word (without ONNX Runtime or its model, Tesseract alone, with a notice).")
    var reader: RecognitionReader = .standard
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if paths.filter({ $0 == "-" }).count > 1 { throw ValidationError("- (standard input) can be given once") }
        if trace && output.json { throw ValidationError("--trace and --json both write to standard output; choose one") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        var importer = index.workspace(try library.open()).importer(recognize: recognize, jobs: jobs, quality: quality, reader: reader)
        if recognize, let notice = Workspace.readerNotice(reader) { printNote(notice) }
        importer.notebook = try notebookPath(notebook)
        importer.title = title
        importer.asNew = asNew
        let stdin = try paths.contains("-") ? StandardInput() : nil
        defer { stdin?.remove() }
        importer.standardInput = stdin?.file
        let files = try Importer.expand(paths.map { $0 == "-" ? stdin!.file : URL(fileURLWithPath: $0) })
        guard !files.isEmpty else {
            throw RenderCommand.Failure("no recordings found in \(paths.joined(separator: ", ")) (files Inkwell imports: \(Workspace.penFileExtensions.sorted().map { "." + $0 }.joined(separator: " ")))")
        }

        let replayer = NoteReplayer(trace: trace ? printTraceRecord : nil)
        let progress = Progress(total: files.count, label: recognize ? "importing and recognising" : "importing")
        var report = importer.run(files, replayer: replayer, keepGoing: keepGoing) { done, _ in progress.update(done) }
        progress.finish()
        if let stdin { report = stdin.named(report) }
        for file in report.imported {
            printDetail("\(file.file): \(file.format), \(file.notes.count) note\(file.notes.count == 1 ? "" : "s")")
        }
        // A reMarkable backup's empty folders are notebooks too (the others were made by their notes).
        let folders = report.failures.isEmpty || keepGoing ? try importer.createNotebooks(Importer.remarkableFolders(in: paths.map { URL(fileURLWithPath: $0) })) : []
        try printImportReport(report, files: files.count, json: output.json, quiet: trace)
        if !output.json, !trace {
            for folder in folders { print("created notebook \(folder) (an empty folder of the reMarkable backup)") }
        }
        try finish(done: report.imported.count, failed: report.failures.count)
        try finishStrict(strict, notKept: report.imported.reduce(0) { $0 + $1.notKept.count })
    }
}

/// What `import -` read from standard input, staged as a file named `stdin` in a folder of its own
/// (so the decoders, which read files, read it, and its title is "stdin" unless the format has one).
private struct StandardInput {
    let file: URL

    init() throws {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard !data.isEmpty else { throw RenderCommand.Failure("-: nothing on standard input to import") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-stdin-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        file = folder.appendingPathComponent("stdin")
        try data.write(to: file)
    }

    func remove() {
        try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
    }

    /// `report` naming standard input (`-` as a file, "standard input" in messages), not the staging file.
    func named(_ report: ImportReport) -> ImportReport {
        var report = report
        let say = { (text: String) in text.replacingOccurrences(of: file.path, with: "standard input") }
        report.failures = report.failures.map(say)
        report.recognitionFailures = report.recognitionFailures.map(say)
        for index in report.imported.indices where report.imported[index].file == file.path {
            report.imported[index].file = "-"
            report.imported[index].warnings = report.imported[index].warnings.map(say)
            for item in report.imported[index].notKept.indices { report.imported[index].notKept[item].file = say(report.imported[index].notKept[item].file) }
        }
        for index in report.unchanged.indices where report.unchanged[index].file == file.path { report.unchanged[index].file = "-" }
        return report
    }
}

/// Prints what an import did: errors and warnings on standard error; the report as JSON, or one line
/// a note (new, updated, unchanged) unless `quiet`.
func printImportReport(_ report: ImportReport, files: Int, json: Bool, quiet: Bool = false) throws {
    for failure in report.failures { printError("error: \(failure)") }
    for warning in report.imported.flatMap({ $0.warnings }) { printNote("warning: \(warning)") }
    for failure in report.recognitionFailures.prefix(5) {
        printNote("warning: not recognised (`inkwell index` tries again): \(failure)")
    }
    if report.recognitionFailures.count > 5 {
        printNote("warning: \(report.recognitionFailures.count - 5) more pages not recognised")
    }
    if json {
        try printJSON(report)
    } else if !quiet {
        for note in report.imported.flatMap({ $0.notes }) {
            let tags = note.tags.isEmpty ? "" : "; tags " + note.tags.map { "#" + $0 }.joined(separator: " ")
            let pages = "\(note.pages) page\(note.pages == 1 ? "" : "s")"
            if let changed = note.changedPages {
                print("updated \(note.id) \"\(note.title)\" in \(note.notebook): \(changed) of \(pages) changed, \(note.strokes) strokes, \(note.points) points\(tags)")
            } else {
                print("imported \(note.id) \"\(note.title)\" into \(note.notebook): \(pages), \(note.strokes) strokes, \(note.points) points\(tags)"
                      + (note.trashed == true ? "; moved to the trash, as in its source" : ""))
            }
        }
        for note in report.unchanged {
            if note.inTrash == true {
                print("left \(note.id) \"\(note.title)\" in the trash: \(note.file) was imported before (`inkwell trash restore` brings it back, --as-new makes a new note)")
            } else {
                print("unchanged \(note.id) \"\(note.title)\" in \(note.notebook): \(note.file == "-" ? "standard input" : note.file) is as imported")
            }
        }
        for routed in report.routed { print(routed.line) }
        if !report.failures.isEmpty && report.imported.isEmpty {
            printError("nothing imported: \(report.failures.count) of \(files) file\(files == 1 ? "" : "s") failed")
        }
    }
}

/// Prints one trace record as a JSON line.
@Sendable private func printTraceRecord(_ record: TraceRecord) {
    printJSONLine(record)
}
