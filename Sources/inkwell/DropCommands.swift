import ArgumentParser
import Foundation
import InkwellKit

/// The options `ingest` and `watch` share: how long a file must settle and how big it may be.
struct DropOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Seconds a file's size and modification time must stay unchanged before it is imported.", valueName: "seconds"))
    var settle: Double = DropFolderOptions().settle
    @Option(help: ArgumentHelp("Largest file imported; bigger ones go to failed/.", valueName: "bytes"))
    var maxBytes: Int = DropFolderOptions().maxBytes
    @Option(help: ArgumentHelp("Most points a file may hold.", valueName: "n"))
    var maxPoints: Int = DropFolderOptions().maxPoints
    @Option(help: ArgumentHelp("Most strokes a file may hold.", valueName: "n"))
    var maxStrokes: Int = DropFolderOptions().maxStrokes
    @Flag(inversion: .prefixedNo, help: "Recognise the handwriting as it is imported, as `inkwell import` does (hashtags become tags; routing rules apply).")
    var recognize = true
    @Option(help: "Pages recognised at once (default: the number of cores).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard settle >= 0, settle.isFinite else { throw ValidationError("--settle must be a number of seconds, 0 or more") }
        guard maxBytes > 0, maxPoints > 0, maxStrokes > 0 else {
            throw ValidationError("--max-bytes, --max-points and --max-strokes must be at least 1")
        }
    }

    /// The library's drop folder, importing through the workspace's intake.
    func dropFolder(_ workspace: Workspace) -> DropFolder {
        workspace.dropFolder(options: folderOptions, recognize: recognize, jobs: jobs)
    }

    var folderOptions: DropFolderOptions {
        var options = DropFolderOptions()
        options.settle = settle
        options.maxBytes = maxBytes
        options.maxPoints = maxPoints
        options.maxStrokes = maxStrokes
        return options
    }

    /// Prints an event: a line for people (warnings to standard error), or a JSON line; flushed at once
    /// so that a program reading the output sees each file as it is done.
    /// Prints one event: a line for people, or with `json` one JSON object a line.
    func emit(_ event: DropEvent, json: Bool) {
        if json {
            printJSONLine(event)
            return
        }
        if event.kind == .burst {
            printNote(event.line)
        } else {
            print(event.line)
        }
        fflush(nil) // all output streams: standard output is not line-buffered in a pipe
    }
}

private let dropDiscussion = """
    The drop folder is LIBRARY/inbox/. Any file put there (InkML, reMarkable .rm, Xournal++ .xopp/.xoj, \
    replay log; the format is read from the content) is imported into the Inbox notebook (or the \
    notebook the recording names) with source drop:inbox/NAME, then moved to inbox/done/. A file that \
    cannot be imported goes to inbox/failed/ with NAME.reason.txt (file, position, reason) and leaves the \
    library unchanged. A file is imported only when its size and modification time have not changed for \
    --settle seconds; names ending in .part, .tmp or ~ and hidden names are ignored, so write NAME.part \
    and rename it when it is complete. Names already in done/ or failed/ get -2, -3… rather than being \
    overwritten. More than 50 files within a minute draw one warning naming how many and where they \
    claim to come from. As with `inkwell import`, each page is recognised as the file is imported \
    (--no-recognize leaves that to `inkwell index`): hashtags become tags and routing rules file the notes.
    """

struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Import every settled file in the drop folder once.",
        discussion: dropDiscussion + " Exits 1 when a file failed."
    )
    @OptionGroup var library: LibraryOptions
    @OptionGroup var drop: DropOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let opened = try library.open()
        // Files would wait in the drop folder forever: say so at once.
        try opened.checkWritable()
        let dropFolder = drop.dropFolder(opened)
        var failed = 0, imported = 0
        let report = { (event: DropEvent) in
            if event.kind == .failed { failed += 1 }
            if event.kind == .imported { imported += 1 }
            drop.emit(event, json: output.json)
        }
        // Two looks --settle apart: the first notes each file's size and time, the second imports the unchanged.
        guard try dropFolder.look(lockTimeout: 30, report: report) != nil else { throw busy(dropFolder) }
        Thread.sleep(forTimeInterval: drop.settle)
        guard let waiting = try dropFolder.look(lockTimeout: 30, report: report) else { throw busy(dropFolder) }
        if !waiting.isEmpty, !output.json {
            printNote("left \(waiting.count) file\(waiting.count == 1 ? "" : "s") still being written (or empty): \(waiting.joined(separator: ", "))")
        }
        try finish(done: imported, failed: failed)
    }

    private func busy(_ dropFolder: DropFolder) -> Error {
        Workspace.lockedError(dropFolder.folder)
    }
}

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Import files from the drop folder as they appear, until interrupted.",
        discussion: dropDiscussion + " Looks at the folder every --settle/2 seconds (at most every second); "
            + "SIGINT or SIGTERM ends it after the file in hand. One line per file, or --json lines. "
            + "With --source DIR, keeps the library in step with DIR instead, as `inkwell sync DIR` does, "
            + "each time no file in DIR has changed for --settle seconds (one sync report each time, or a --json line)."
    )
    @OptionGroup var library: LibraryOptions
    @OptionGroup var drop: DropOptions
    @Option(help: ArgumentHelp("A folder of sources to keep the library in step with (as `inkwell sync DIR`), instead of the drop folder.", valueName: "dir"),
            completion: .directory)
    var source: String?
    @OptionGroup var output: OutputOptions

    func run() throws {
        let opened = try library.open()
        // Files would wait in the drop folder forever: say so at once.
        try opened.checkWritable()
        if let source { return try watch(source: source, opened) }
        let dropFolder = drop.dropFolder(opened)
        let json = output.json
        let stop = StopSignal(signals: [SIGINT, SIGTERM])
        if !json { printNote("watching \(dropFolder.folder.path) (Ctrl-C to stop)") }
        let interval = min(max(drop.settle / 2, 0.05), 1)
        while !stop.isSet {
            try dropFolder.look(shouldStop: { stop.isSet }, report: { drop.emit($0, json: json) })
            stop.wait(seconds: interval)
        }
    }

    /// Syncs `folder` each time it settles, until SIGINT or SIGTERM (which stop a sync between sources).
    private func watch(source folder: String, _ workspace: Workspace) throws {
        let watch = SourceFolderWatch(workspace: workspace, folder: URL(fileURLWithPath: folder), settle: drop.settle,
                                      importer: workspace.importer(recognize: drop.recognize, jobs: drop.jobs, quality: .standard))
        let stop = StopSignal(signals: [SIGINT, SIGTERM])
        if !output.json { printNote("keeping the library in step with \(watch.folder.path) (Ctrl-C to stop)") }
        let interval = min(max(drop.settle / 2, 0.05), 1)
        var lastError: String?, wasEmpty = false
        while !stop.isSet {
            do {
                let outcome = try watch.look(shouldStop: { stop.isSet })
                lastError = nil
                if case .synced(let report) = outcome { try printSyncReport(report, json: output.json, oneLine: true) }
                if case .empty = outcome, !wasEmpty { printNote("\(watch.folder.path) holds no file: not synced (a drive not mounted looks so)") }
                wasEmpty = if case .empty = outcome { true } else { false }
                fflush(nil)
            } catch {
                // The folder may come back (a drive mounted again): said once, and watched on.
                if "\(error)" != lastError { printError("error: \(error)") }
                lastError = "\(error)"
            }
            stop.wait(seconds: interval)
        }
    }
}

/// Turns SIGINT and SIGTERM into a flag the loop checks and a wake-up for its sleep (a byte down a
/// pipe, the one thing a signal handler may safely do), so the command finishes the file in hand and
/// exits cleanly. The handler is installed with `sigaction`, whatever the disposition the command
/// inherited (a shell starts background jobs with SIGINT ignored) and unblocked on this thread.
final class StopSignal: Sendable {
    init(signals: [Int32]) {
        var fds: [Int32] = [0, 0]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            stopPipe = (fds[0], fds[1])
        }
        for number in signals {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { _ in
                stopRequested = 1
                if stopPipe.write >= 0 { var byte: UInt8 = 1; _ = write(stopPipe.write, &byte, 1) }
            }
            #else
            action.__sigaction_u.__sa_handler = { _ in
                stopRequested = 1
                if stopPipe.write >= 0 { var byte: UInt8 = 1; _ = write(stopPipe.write, &byte, 1) }
            }
            #endif
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
            // A parent may have started us with these signals blocked (they would stay pending forever).
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, number)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
    }

    var isSet: Bool { stopRequested != 0 }

    /// Sleeps `seconds`, or less when a signal arrives.
    func wait(seconds: Double) {
        guard stopPipe.read >= 0 else { return Thread.sleep(forTimeInterval: seconds) }
        var descriptor = pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(seconds * 1000))
    }
}

/// Written only by the signal handler (set once, never cleared) and read by the loop.
nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0
/// The pipe the handler writes a byte to, to wake the loop from its sleep.
nonisolated(unsafe) private var stopPipe: (read: Int32, write: Int32) = (-1, -1)
