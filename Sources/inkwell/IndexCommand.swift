import ArgumentParser
import Foundation
import InkwellKit

extension RecognitionQuality: ExpressibleByArgument {}
extension RecognitionReader: ExpressibleByArgument {}

struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Recognise handwriting on every page that changed and fill the search index.",
        discussion: """
            Pages whose content is unchanged since they were last recognised are skipped, so running it \
            again is cheap. Each page's result is saved as soon as it is done: a run killed at any moment \
            loses nothing and the next one does nothing twice. Hashtags found in the handwriting become \
            tags of their notes (except tags removed by hand), and a note in the Inbox whose tags change \
            is filed by the routing rules (`inkwell route`). Exits 1 when a page could not be recognised \
            (the others are indexed).

            On more than one machine, put the index on PostgreSQL (--index postgres://… or \
            $INKWELL_INDEX_URL) and run `inkwell index --worker` on as many machines as you like, each \
            seeing the library folder (read-only is enough): they share the pages through the database's \
            queue, a worker that dies leaves its pages to the others when its lease runs out, and each \
            exits 0 when no page is left. When the database goes away (a restart), workers say so on \
            standard error and retry with growing waits (0.5 s doubling up to 30 s), going on where they \
            were once it is back; after --give-up-after without it they exit 1, for a supervisor to restart. Then one `inkwell index` where the library can be written gives \
            notes their hashtags. --status shows the progress of all of them (docs/scale.md). --shard i/n \
            splits the pages of the library's own SQLite index between machines by hand instead.
            """
    )

    @OptionGroup var library: LibraryOptions
    @OptionGroup var index: IndexOptions
    @Option(help: "Pages recognised at once (default: the number of cores).") var jobs = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "How hard recognition looks: best (each line drawn seven ways, the readings voted) or fast (one way, for bulk runs).")
    var quality: RecognitionQuality = .standard
    @Option(help: "Which engines read: tesseract, neural (PP-OCR on ONNX Runtime) or both, voting word by word (without ONNX Runtime or its model, Tesseract alone, with a notice).")
    var reader: RecognitionReader = .standard
    @Option(help: "Only this shard of the pages, written i/n (0 ≤ i < n); the SQLite index only.") var shard: String?
    @Flag(help: "Forget every earlier result and recognise every page again.") var rebuild = false
    @Flag(help: "Work on a PostgreSQL index's queue with other workers, without writing to the library; exits 0 when no page is left.")
    var worker = false
    @Option(help: "With PostgreSQL: seconds a worker holds the pages it claims before others may take them.")
    var lease = Indexer.defaultLease
    @Option(help: ArgumentHelp("With PostgreSQL: how long to keep retrying while the database is unreachable before exiting 1 (e.g. 30s, 2m).",
                               valueName: "duration"))
    var giveUpAfter = DurationArgument(seconds: Backoff.defaultGiveUpAfter)
    @Flag(help: "Show how far the indexing is (done, leased, pending, failed, pages per second) and exit.") var status = false
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard lease >= 1, lease <= 86_400 else { throw ValidationError("--lease must be between 1 and 86400 seconds") }
        if worker || lease != Indexer.defaultLease, index.effectiveURL == nil {
            throw ValidationError("--worker and --lease need a shared index: --index postgres://… or $INKWELL_INDEX_URL")
        }
        if shard != nil, index.effectiveURL != nil {
            throw ValidationError("--shard is for the library's own SQLite index; with PostgreSQL, run --worker on each machine instead")
        }
        if worker, rebuild { throw ValidationError("--rebuild clears the shared index: run it once without --worker") }
        if giveUpAfter.seconds != Backoff.defaultGiveUpAfter, index.effectiveURL == nil {
            throw ValidationError("--give-up-after is for a shared index: --index postgres://… or $INKWELL_INDEX_URL")
        }
    }

    func run() throws {
        let workspace = index.workspace(try library.open())
        if status { return try showStatus(workspace) }
        let reconnect = Reconnector(backoff: Backoff(giveUpAfter: giveUpAfter.seconds)) { printNote("inkwell: " + $0) }
        // A worker may start before its database (a supervisor starts both): it waits for it as for a restart.
        announceIndex(try worker ? reconnect.run { try workspace.openIndex() } : workspace.openIndex())
        if rebuild { try workspace.clearIndex() }
        let shard = try shard.map(Shard.init(parsing:)) ?? .all
        let progress = Progress(total: 1, label: "recognising", countsPages: true)
        if let notice = Workspace.readerNotice(reader) { printNote(notice) }
        let report = try workspace.runIndexing(jobs: jobs, quality: quality, reader: reader, lease: lease, worker: worker, shard: shard,
                                               reconnect: reconnect) { done, total in
            progress.update(done, of: total)
        }
        progress.finish()
        for failure in report.failed { printError("error: note \(failure.note) page \(failure.page): \(failure.reason)") }
        if output.json {
            try printJSON(report)
        } else {
            let rate = report.seconds > 0 ? Double(report.recognized) / report.seconds : 0
            print("recognised \(report.recognized) page\(report.recognized == 1 ? "" : "s"), \(report.unchanged) unchanged, "
                  + "\(report.failed.count) failed in \(String(format: "%.1f", report.seconds)) s (\(String(format: "%.1f", rate)) pages/s)")
            for (note, tags) in report.tagged.sorted(by: { $0.key < $1.key }) {
                print("tagged \(note): " + tags.map { "#" + $0 }.joined(separator: " "))
            }
            for routed in report.routed { print(routed.line) }
        }
        try finish(done: report.recognized + report.unchanged, failed: report.failed.count)
    }

    /// Progress across every worker: from the queue on PostgreSQL, from the page states on SQLite.
    private func showStatus(_ workspace: Workspace) throws {
        announceIndex(try workspace.openExistingIndex())
        let status = try workspace.indexProgress()
        if output.json { return try printJSON(status) }
        print("\(try workspace.openIndex().location)")
        print("done \(status.done), leased \(status.leased), pending \(status.pending), failed \(status.failed)"
              + (workspace.indexURL == nil ? "" : "; \(status.workers) worker\(status.workers == 1 ? "" : "s"), "
                 + String(format: "%.2f", status.pagesPerSecond) + " pages/s over the last minute"))
    }
}

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Print the recognised text of a note (\"convert handwriting to text\").",
        discussion: "Recognises the note's pages that changed first, as `inkwell index` would, with progress for long notes."
    )

    @OptionGroup var library: LibraryOptions
    @OptionGroup var index: IndexOptions
    @Argument(help: "The note.") var note: String
    @OptionGroup var output: OutputOptions

    struct Page: Encodable {
        var number: Int
        var text: String
    }

    func run() throws {
        let workspace = index.workspace(try library.open())
        let stored = try workspace.note(matching: note)
        let indexer = try workspace.indexer()
        let progress = Progress(total: 1, label: "recognising", countsPages: true)
        let report = try indexer.run(only: [stored.note.id]) { done, total in progress.update(done, of: total) }
        progress.finish()
        for failure in report.failed { printError("error: page \(failure.page): \(failure.reason)") }
        let texts = try workspace.recognizedText(of: stored.note.id)
        let pages = stored.note.pages.enumerated().map { Page(number: $0.offset + 1, text: texts[$0.element] ?? "") }
        if output.json { return try printJSON(pages) }
        for page in pages {
            if pages.count > 1 { print("--- page \(page.number)") }
            print(page.text)
        }
        if !report.failed.isEmpty { throw ExitCode.failure }
    }
}
