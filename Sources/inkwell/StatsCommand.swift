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
        let workspace = index.workspace(try library.open())
        let stats = try workspace.stats()
        announceIndex(try workspace.openExistingIndex())
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
            Also: note folders and trash entries whose metadata cannot be read (skipped everywhere else), a note \
            found in two folders (merged synced copies), sync tools' conflict copies beside a note's files \
            (`inkwell resolve NOTE` merges them) and symbolic links (never followed). Exits 1 when anything is \
            damaged. Also lists leftovers of interrupted writes (temporary files whose writer is gone, staging \
            folders of imports that died): they are not part of any note, do no harm and are removed by \
            `inkwell compact` or when their note is next written. Changes `inkwell serve` had kept in a note's \
            journal but not saved when it was killed are put into the pages first (said on standard error), \
            unless a server is running on the library: then they are listed, and that server saves them.

            --repair first rebuilds what can be rebuilt without losing anything (an unreadable note.json or \
            trash.json from what its folder holds, keeping the old file beside it; the later-changed copy of a \
            note found twice gets an id of its own), says what it guessed, then checks.
            """
    )
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Flag(help: "Rebuild unreadable note.json and trash.json files and split notes found twice, then check.")
    var repair = false

    func run() throws {
        let workspace = try library.open()
        if repair {
            let repairs = try workspace.repair()
            for repair in repairs {
                printNote("repaired \(repair.folder): \(repair.action)")
                for guess in repair.guessed { printNote("  guessed \(guess)") }
            }
            if repairs.isEmpty { printNote("nothing to repair") }
        }
        // Changes a killed server journaled go into the pages first, unless a server is running.
        for line in workspace.replayJournalsIfIdle() ?? [] { printNote(line) }
        let check = try workspace.check()
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
                if ["note", "trash", "duplicate", "conflict"].contains(row.kind) {
                    print("\(row.file): \(row.kind == "conflict" ? "conflict copy" : row.kind == "duplicate" ? "note found twice" : "unreadable \(row.kind)")")
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
            for row in rows where row.kind == "link" { print("\(row.file): \(row.problems.joined(separator: "; "))") }
            for row in rows where row.kind == "placeholder" { print("\(row.file): \(row.problems.joined(separator: "; ")) (note \(row.note) \"\(row.title)\")") }
            for row in rows where row.kind == "journal" { print("\(row.file): \(row.problems.joined(separator: "; "))") }
            let other = damaged.filter { ["note", "trash", "duplicate", "conflict"].contains($0.kind) }
            if !other.isEmpty {
                print(["note": "unreadable note", "trash": "unreadable trash entry", "duplicate": "folder of a note found twice",
                       "conflict": "conflict copy"].compactMap { kind, name in
                    let count = other.count { $0.kind == kind }
                    return count == 0 ? nil : "\(count) \(name)\(count == 1 ? "" : "s")"
                }.sorted().joined(separator: ", "))
            }
            if !leftovers.isEmpty {
                let bytes = leftovers.reduce(0) { $0 + $1.bytes }
                print("\(leftovers.count) leftover\(leftovers.count == 1 ? "" : "s") of interrupted writes (\(bytes) bytes), not part of any note; `inkwell compact` removes them:")
                for leftover in leftovers { print("  \(leftover.path)") }
            }
        }
        if !damaged.isEmpty { throw ExitCode.failure }
    }
}

struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Merge the conflict copies a sync tool left beside a note's files.",
        discussion: """
            When two devices change a note at once, Syncthing, Dropbox, Nextcloud, OneDrive or iCloud keep the \
            other device's version as a conflict copy (`inkwell check` and `inkwell note show` list them). This \
            merges them into the note without losing either side: pages by stroke id (the strokes of both, each \
            side's erasures applied), both typed texts (the other's under a marked heading), the newest metadata \
            with every tag and page. The note as it was, conflict copies included, goes to the trash first \
            (`inkwell trash restore` brings it back as a note of its own).
            """
    )
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The note: id, id prefix or title.") var note: String

    func run() throws {
        let outcome = try library.open().resolveConflicts(of: note)
        if output.json { return try printJSON(outcome) }
        guard let outcome else { return print("\(note): no conflict copies to merge") }
        print("merged \(outcome.merged.count) conflict cop\(outcome.merged.count == 1 ? "y" : "ies") into \(outcome.note) \"\(outcome.title)\": "
              + "\(outcome.strokesAdded) stroke\(outcome.strokesAdded == 1 ? "" : "s") from the other side, "
              + "\(outcome.erasuresApplied) erasure\(outcome.erasuresApplied == 1 ? "" : "s") applied")
        for name in outcome.merged { print("  \(name)") }
        if let before = outcome.before { print("the note as it was is in the trash as entry \(before)") }
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
    @Flag(help: "Print the pages that would be rewritten and the leftovers that would be removed; change nothing.") var dryRun = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        let outcome = try library.open().compact(notes, salvage: salvage, dryRun: dryRun)
        let removed = outcome.removed
        if output.json { return try printJSON(outcome) }
        print("\(dryRun ? "would compact" : "compacted") \(outcome.pages) page\(outcome.pages == 1 ? "" : "s"), \(outcome.bytesFreed) bytes \(dryRun ? "to free" : "freed")")
        if !removed.isEmpty {
            print("\(dryRun ? "would remove" : "removed") \(removed.count) leftover\(removed.count == 1 ? "" : "s") of interrupted writes, \(removed.reduce(0) { $0 + $1.bytes }) bytes")
            if dryRun { for leftover in removed { print("  \(leftover.path)") } }
        }
    }
}
