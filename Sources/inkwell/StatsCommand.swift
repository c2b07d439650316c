import ArgumentParser
import Foundation
import InkwellKit

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Count notes, pages, strokes and bytes.")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var index: IndexOptions
    @OptionGroup var output: OutputOptions

    /// The library's counts and, from the search index, how many pages are in each recognition state.
    struct Report: Encodable {
        var library: LibraryCounts
        var recognition: [String: Int]
    }

    func run() throws {
        let workspace = index.workspace(try library.open())
        let stats = try workspace.stats()
        announceReadOnly(try workspace.openExistingIndex())
        let recognition = try workspace.recognitionStates().totals
        if output.json { return try printJSON(Report(library: stats, recognition: recognition)) }
        print("""
            notebooks  \(stats.notebooks)
            notes      \(stats.notes) (\(stats.pinned) pinned)
            pages      \(stats.pages) (\(recognition["recognised"] ?? 0) recognised, \(recognition["pending"] ?? 0) pending, \(recognition["processing"] ?? 0) processing, \(recognition["failed"] ?? 0) failed)
            strokes    \(stats.strokes)
            points     \(stats.points)
            tags       \(stats.tags)
            trash      \(stats.trashed)
            page bytes \(stats.bytes)\(stats.points > 0 ? String(format: " (%.2f per point)", Double(stats.bytes) / Double(stats.points)) : "")
            """)
    }
}

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Verify every page file (signature, chunk CRCs, structure) and every typed text (UTF-8).",
        discussion: """
            Reports, per damaged page, what was lost and what is still readable, and typed text that is not UTF-8. \
            Exits 1 when anything is damaged. Also lists leftovers of interrupted writes (temporary files whose \
            writer is gone, staging folders of imports that died): they are not part of any note, do no harm \
            and are removed by `inkwell compact` or when their note is next written.
            """
    )
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let check = try library.open().check()
        let rows = check.rows, leftovers = check.leftovers
        let damaged = rows.filter(\.damaged)
        if output.json {
            try printJSON(rows)
        } else {
            for row in damaged {
                if row.kind == "background" {
                    print("\(row.file): missing (note \(row.note) \"\(row.title)\")")
                    for problem in row.problems { print("  \(problem)") }
                    continue
                }
                if row.kind == "text" {
                    print("\(row.file): typed text unreadable (note \(row.note) \"\(row.title)\")")
                    for problem in row.problems { print("  \(problem)") }
                    continue
                }
                print("\(row.file): \(row.missing ? "missing" : "damaged") (note \(row.note) \"\(row.title)\")")
                for problem in row.problems { print("  \(problem)") }
                if !row.missing { print("  salvageable: \(row.readableStrokes) intact stroke\(row.readableStrokes == 1 ? "" : "s")") }
            }
            let pages = check.pages, damagedPages = damaged.filter { $0.kind == "page" }.count
            print("checked \(pages) page\(pages == 1 ? "" : "s"): \(damagedPages == 0 ? "all intact" : "\(damagedPages) damaged")"
                  + (check.unreadableTexts == 0 ? "" : "; \(check.unreadableTexts) typed text\(check.unreadableTexts == 1 ? "" : "s") not UTF-8")
                  + (damaged.count(where: { $0.kind == "background" }) == 0 ? ""
                     : "; \(damaged.count(where: { $0.kind == "background" })) drawn on a missing PDF"))
            if !leftovers.isEmpty {
                let bytes = leftovers.reduce(0) { $0 + $1.bytes }
                print("\(leftovers.count) leftover\(leftovers.count == 1 ? "" : "s") of interrupted writes (\(bytes) bytes), not part of any note; `inkwell compact` removes them:")
                for leftover in leftovers { print("  \(leftover.path)") }
            }
        }
        if !damaged.isEmpty { throw ExitCode.failure }
    }
}

struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Rewrite pages to drop erased and undone strokes, and remove leftovers of interrupted writes.",
        discussion: """
            Saves append to page files; erased strokes stay in them until compaction. Each page is rewritten \
            atomically. Damaged pages are skipped unless --salvage, which rewrites them keeping every intact \
            stroke (see `inkwell check`). Leftovers of interrupted writes (see `inkwell check`) are removed \
            from the whole library.
            """
    )
    @OptionGroup var library: LibraryOptions
    @Argument(help: "Notes to compact (default: all).") var notes: [String] = []
    @Flag(help: "Also rewrite damaged pages with what is still readable.") var salvage = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        let outcome = try library.open().compact(notes, salvage: salvage)
        let removed = outcome.removed
        if output.json { return try printJSON(outcome) }
        print("compacted \(outcome.pages) page\(outcome.pages == 1 ? "" : "s"), \(outcome.bytesFreed) bytes freed")
        if !removed.isEmpty {
            print("removed \(removed.count) leftover\(removed.count == 1 ? "" : "s") of interrupted writes, \(removed.reduce(0) { $0 + $1.bytes }) bytes")
        }
    }
}
