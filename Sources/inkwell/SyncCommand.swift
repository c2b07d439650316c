import ArgumentParser
import Foundation
import InkwellKit

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Keep the library in step with a folder of sources (a reMarkable xochitl backup, .rm, .xopp, .rnote, InkML…).",
        discussion: """
            Every source in the folder is hashed and matched with the note imported from it before (by a \
            reMarkable document's UUID, else the file's path): new sources are imported, changed ones \
            update their notes as `inkwell import` does (the note's id kept, old pages in the trash, your \
            own strokes kept), unchanged ones cost their hash. Notes imported from the folder whose source \
            is gone from it go to the trash (`inkwell trash restore` brings them back); a run with errors \
            trashes nothing unless --keep-going. --dry-run prints the plan and changes nothing.
            """
    )

    @OptionGroup var library: LibraryOptions
    @OptionGroup var index: IndexOptions
    @Argument(help: "The folder of sources.", completion: .directory) var folder: String
    @Flag(help: "Print what would be done; change nothing.") var dryRun = false
    @Option(help: "Notebook for new notes whose source names none.") var notebook: String = "Inbox"
    @Flag(help: "Import the sources that are good and report the others.") var keepGoing = false
    @Flag(help: "Exit 2 (partly done) when a source held anything that was not kept (each item is reported with its file, page and reason).") var strict = false
    @Flag(inversion: .prefixedNo, help: "Recognise the handwriting of new and changed pages (hashtags become tags).") var recognize = true
    @Option(help: "Pages recognised at once (default: the number of cores).") var jobs = ProcessInfo.processInfo.activeProcessorCount
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let workspace = index.workspace(try library.open())
        var importer = workspace.importer(recognize: recognize && !dryRun, jobs: jobs, quality: .standard)
        importer.notebook = try notebookPath(notebook)
        let plan = try workspace.syncPlan(URL(fileURLWithPath: folder))
        let progress = Progress(total: plan.new.count + plan.changed.count, label: recognize ? "syncing and recognising" : "syncing")
        let report = try workspace.sync(URL(fileURLWithPath: folder), plan: plan, importer: importer, replayer: NoteReplayer(),
                                        dryRun: dryRun, keepGoing: keepGoing) { done, _ in progress.update(done) }
        progress.finish()
        let failed = !report.plan.failures.isEmpty || !(report.imported?.failures.isEmpty ?? true) || !report.failures.isEmpty
        try printSyncReport(report, json: output.json)
        if failed { throw ExitCode.failure }
        try finishStrict(strict, notKept: report.imported?.imported.reduce(0) { $0 + $1.notKept.count } ?? 0)
    }
}

/// Prints what a sync did (or, on a dry run, would do): errors to standard error, then the plan's
/// lines and a summary line, or the report as JSON (`inkwell sync`), or as one JSON line (`inkwell
/// watch --source`, a report each sync).
func printSyncReport(_ report: SyncReport, json: Bool, oneLine: Bool = false) throws {
    for failure in report.plan.failures + report.failures { printError("error: \(failure)") }
    if json {
        if let imported = report.imported {
            for failure in imported.failures { printError("error: \(failure)") }
        }
        if oneLine { printJSONLine(report) } else { try printJSON(report) }
        return
    }
    let plan = report.plan
    if report.dryRun {
        for entry in plan.new { print("would import \(entry.file)") }
        for entry in plan.changed { print("would update \(entry.id?.rawValue ?? "?") \"\(entry.title ?? "")\" from \(entry.file)") }
        for entry in plan.removed { print("would trash \(entry.id?.rawValue ?? "?") \"\(entry.title ?? "")\": \(entry.file) is gone") }
    } else {
        if let imported = report.imported {
            var shown = imported
            shown.unchanged = []
            try printImportReport(shown, files: plan.new.count + plan.changed.count, json: false)
        }
        for (entry, trash) in zip(plan.removed, report.trashed) {
            print("trashed \(entry.id?.rawValue ?? "?") \"\(entry.title ?? "")\" (trash entry \(trash)): \(entry.file) is gone")
        }
    }
    for entry in plan.inTrash {
        print("left \(entry.id?.rawValue ?? "?") \"\(entry.title ?? "")\" in the trash: \(entry.file) was imported before (`inkwell trash restore` brings it back)")
    }
    let trashed = report.dryRun ? plan.removed.count : report.trashed.count
    let stopped = report.stopped == true ? " (stopped part way: the rest at the next sync)" : ""
    print("\(report.dryRun ? "plan" : "synced") \(report.folder): \(plan.new.count) new, \(plan.changed.count) changed, \(plan.unchanged.count) unchanged, \(plan.inTrash.count) left in the trash, \(trashed) to the trash\(stopped)")
}
