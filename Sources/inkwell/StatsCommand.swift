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
        var library: LibraryStats
        var recognition: [String: Int]
    }

    func run() throws {
        let library = try library.open()
        let stats = try library.stats()
        let states = try pageStates(of: try library.notes(), in: index.workspace(library))
        let recognition = Dictionary(uniqueKeysWithValues: PageState.counts(states.values).map { ($0.key.rawValue, $0.value) })
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

/// Each page's recognition state from the search index; every page is pending when there is no index yet.
func pageStates(of notes: [StoredNote], in workspace: Workspace) throws -> [PageID: PageState] {
    let library = workspace.library
    guard let index = try workspace.existingIndex() else {
        return Dictionary(uniqueKeysWithValues: notes.flatMap(\.note.pages).map { ($0, PageState(status: .pending)) })
    }
    return try announcingReadOnly(index).pageStates(of: notes, in: library)
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

    struct Row: Encodable {
        /// `page` for a page file, `text` for a note's typed text (body.md; `page` is then empty),
        /// `leftover` for what an interrupted write left (only `file` and `problems` then), `background` for a
        /// page whose PDF is missing from its note's folder (`file` is where it should be).
        var kind: String
        var note: String
        var title: String
        var page: String
        var file: String
        var missing: Bool
        var damaged: Bool
        var readableStrokes: Int
        var problems: [String]
    }

    func run() throws {
        let library = try library.open()
        let reports = try library.check()
        var rows = reports.map { report in
            Row(kind: "page", note: report.note.rawValue, title: report.noteTitle, page: report.page.rawValue, file: report.file.path,
                missing: report.missing, damaged: report.isDamaged,
                readableStrokes: report.decoded?.page.strokes.count ?? 0,
                problems: report.decoded?.problems.map(\.description) ?? ["file is missing"])
        }
        rows += reports.compactMap { report in
            report.missingBackground.map { url in
                Row(kind: "background", note: report.note.rawValue, title: report.noteTitle, page: report.page.rawValue, file: url.path,
                    missing: true, damaged: true, readableStrokes: report.decoded?.page.strokes.count ?? 0,
                    problems: ["the PDF page \(report.page.rawValue) is drawn on is missing: the page is drawn on plain paper"])
            }
        }
        let texts = try library.checkTypedTexts()
        rows += texts.map { report in
            Row(kind: "text", note: report.note.rawValue, title: report.noteTitle, page: "", file: report.file.path,
                missing: false, damaged: true, readableStrokes: 0, problems: [report.problem])
        }
        let leftovers = library.leftovers()
        rows += leftovers.map { leftover in
            Row(kind: "leftover", note: "", title: "", page: "", file: leftover.path, missing: false, damaged: false, readableStrokes: 0,
                problems: ["left by an interrupted write (\(leftover.bytes) bytes); `inkwell compact` removes it"])
        }
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
            let pages = reports.count, damagedPages = damaged.filter { $0.kind == "page" }.count
            print("checked \(pages) page\(pages == 1 ? "" : "s"): \(damagedPages == 0 ? "all intact" : "\(damagedPages) damaged")"
                  + (texts.isEmpty ? "" : "; \(texts.count) typed text\(texts.count == 1 ? "" : "s") not UTF-8")
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
        let library = try library.open()
        let selected = notes.isEmpty ? try library.notes() : try notes.map { try library.note(matching: $0) }
        let results = try library.compact(selected, salvage: salvage)
        let removed = try library.removeLeftovers()
        if output.json { return try printJSON(results) }
        let saved = results.reduce(0) { $0 + $1.bytesBefore - $1.bytesAfter }
        print("compacted \(results.count) page\(results.count == 1 ? "" : "s"), \(saved) bytes freed")
        if !removed.isEmpty {
            print("removed \(removed.count) leftover\(removed.count == 1 ? "" : "s") of interrupted writes, \(removed.reduce(0) { $0 + $1.bytes }) bytes")
        }
    }
}
