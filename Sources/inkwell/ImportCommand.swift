import ArgumentParser
import Foundation
import InkCore
import InkInterchange
import InkStore
import InkwellKit

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import pen recordings as notes, replayed through the editor session.",
        discussion: """
            Reads Inkwell replay logs (.jsonl, see docs/replay-format.md), W3C InkML, reMarkable v6 pages (.rm) \
            and notebooks (.content), and Xournal++ / Xournal files (.xopp, .xoj; see docs/import-formats.md); \
            a folder is searched for them. \
            The format is recognised by content. Every file is decoded before anything is written: if any \
            file is bad, nothing is imported (unless --keep-going) and the error names the file, the line \
            and the reason.
            """
    )

    @OptionGroup var library: LibraryOptions
    @Argument(help: "Files or folders to import.", completion: .file()) var paths: [String]
    @Option(help: "Notebook for notes whose recording names none.") var notebook: String = "Inbox"
    @Option(help: "Title for notes whose recording names none (default: the file name).") var title: String?
    @Flag(help: "Print the session's effects as JSON Lines with their virtual times.") var trace = false
    @Flag(help: "Import the files that are good and report the others.") var keepGoing = false
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if trace && output.json { throw ValidationError("--trace and --json both write to standard output; choose one") }
    }

    func run() throws {
        let library = try library.openOrCreate()
        var importer = Importer(library: library)
        importer.notebook = try notebookPath(notebook)
        importer.title = title
        let files = try Importer.expand(paths.map { URL(fileURLWithPath: $0) })
        guard !files.isEmpty else { throw ValidationError("no recordings found in \(paths.joined(separator: ", "))") }

        let replayer = NoteReplayer(trace: trace ? printTraceRecord : nil)
        let progress = Progress(total: files.count, label: "importing")
        let report = importer.run(files, replayer: replayer, keepGoing: keepGoing) { done, _ in progress.update(done) }
        progress.finish()
        for failure in report.failures { printError("error: \(failure)") }
        for warning in report.imported.flatMap({ $0.warnings }) { printError("warning: \(warning)") }
        if output.json {
            try printJSON(report)
        } else if !trace {
            for note in report.imported.flatMap({ $0.notes }) {
                print("imported \(note.id) \"\(note.title)\" into \(note.notebook): \(note.pages) page\(note.pages == 1 ? "" : "s"), \(note.strokes) strokes, \(note.points) points")
            }
            if !report.failures.isEmpty && report.imported.isEmpty {
                printError("nothing imported: \(report.failures.count) of \(files.count) file\(files.count == 1 ? "" : "s") failed")
            }
        }
        if !report.failures.isEmpty { throw ExitCode.failure }
    }
}

/// Prints one trace record as a JSON line.
@Sendable private func printTraceRecord(_ record: TraceRecord) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    if let line = try? encoder.encode(record) { print(String(decoding: line, as: UTF8.self)) }
}
