import ArgumentParser
import Foundation
import InkwellKit

struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Recognise handwriting on every page that changed and fill the search index.",
        discussion: """
            Pages whose content is unchanged since they were last recognised are skipped, so running it \
            again is cheap. Each page's result is saved as soon as it is done: a run killed at any moment \
            loses nothing and the next one does nothing twice. Hashtags found in the handwriting become \
            tags of their notes (except tags removed by hand), and a note in the Inbox whose tags change \
            is filed by the routing rules (`inkwell route`). --shard i/n splits the pages between n \
            machines deterministically. Exits 1 when a page could not be recognised (the others are indexed).
            """
    )

    @OptionGroup var library: LibraryOptions
    @Option(help: "Pages recognised at once (default: the number of cores).") var jobs = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Only this shard of the pages, written i/n (0 ≤ i < n).") var shard: String?
    @Flag(help: "Forget every earlier result and recognise every page again.") var rebuild = false
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let workspace = Workspace(library: try library.open())
        if rebuild { try workspace.index().clear() }
        let indexer = try workspace.indexer()
        let progress = Progress(total: 1, label: "recognising", countsPages: true)
        let report = try indexer.run(jobs: jobs, shard: try shard.map(Shard.init(parsing:)) ?? .all) { done, total in
            progress.update(done, of: total)
        }
        progress.finish()
        for failure in report.failed { printError("error: note \(failure.note) page \(failure.page): \(failure.reason)") }
        if output.json {
            try printJSON(report)
        } else {
            let rate = report.seconds > 0 ? Double(report.recognised) / report.seconds : 0
            print("recognised \(report.recognised) page\(report.recognised == 1 ? "" : "s"), \(report.unchanged) unchanged, "
                  + "\(report.failed.count) failed in \(String(format: "%.1f", report.seconds)) s (\(String(format: "%.1f", rate)) pages/s)")
            for (note, tags) in report.tagged.sorted(by: { $0.key < $1.key }) {
                print("tagged \(note): " + tags.map { "#" + $0 }.joined(separator: " "))
            }
            for routed in report.routed { print(routed.line) }
        }
        if !report.failed.isEmpty { throw ExitCode.failure }
    }
}

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Print the recognised text of a note (\"convert handwriting to text\").",
        discussion: "Recognises the note's pages that changed first, as `inkwell index` would, with progress for long notes."
    )

    @OptionGroup var library: LibraryOptions
    @Argument(help: "The note.") var note: String
    @OptionGroup var output: OutputOptions

    struct Page: Encodable {
        var number: Int
        var text: String
    }

    func run() throws {
        let workspace = Workspace(library: try library.open())
        let stored = try workspace.library.note(matching: note)
        let indexer = try workspace.indexer()
        let progress = Progress(total: 1, label: "recognising", countsPages: true)
        let report = try indexer.run(only: [stored.note.id]) { done, total in progress.update(done, of: total) }
        progress.finish()
        for failure in report.failed { printError("error: page \(failure.page): \(failure.reason)") }
        let texts = try workspace.index().pageTexts(of: stored.note.id)
        let pages = stored.note.pages.enumerated().map { Page(number: $0.offset + 1, text: texts[$0.element] ?? "") }
        if output.json { return try printJSON(pages) }
        for page in pages {
            if pages.count > 1 { print("--- page \(page.number)") }
            print(page.text)
        }
        if !report.failed.isEmpty { throw ExitCode.failure }
    }
}
