import Foundation
import InkCore
import InkInterchange
import InkStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Limits and timing of the drop folder.
public struct DropFolderOptions: Sendable {
    /// How long (seconds) a file's size and modification time must stay the same before it is imported.
    public var settle: TimeInterval = 2
    /// Files larger than this go to `failed/` unread.
    public var maxBytes = 64 << 20
    /// Files holding more points or strokes go to `failed/` (the decoders stop any file at
    /// ``ImportLimits/pointsPerFile`` points on their own).
    public var maxPoints = ImportLimits.pointsPerFile
    public var maxStrokes = 1_000_000
    /// More than `burstFiles` files within `burstWindow` seconds draw one warning.
    public var burstFiles = 50
    public var burstWindow: TimeInterval = 60

    public init() {}
}

/// What happened in the drop folder: one line of `inkwell watch` (`--json`: this, one object a line).
public struct DropEvent: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// The file was imported and moved to `done/`.
        case imported
        /// The file could not be imported and was moved to `failed/` with a reason file; the library is unchanged.
        case failed
        /// The file was left where it is, to try again later: it is still being written, or the library
        /// could not be written just now.
        case waiting
        /// More files arrived within a minute than the drop folder expects.
        case burst
    }

    public var kind: Kind
    /// The file's name in the drop folder.
    public var file: String?
    /// Where it went, relative to the drop folder: `done/NAME` or `failed/NAME`.
    public var movedTo: String?
    public var format: String?
    /// The program or device the file says wrote it, else its format.
    public var claimedSource: String?
    public var notes: [ImportedNote]?
    /// Notes imported before from the same file (same name in the drop folder, same bytes): left alone.
    public var unchanged: [UnchangedSource]?
    /// Notes the routing rules filed out of the Inbox because recognition gave them tags.
    public var routed: [RoutedNote]?
    /// Pages that could not be recognised (the notes are imported; `inkwell index` tries again).
    public var recognitionFailures: [String]?
    public var warnings: [String]?
    public var reason: String?
    /// Burst: how many files arrived within the window, and how many claim each source.
    public var count: Int?
    public var sources: [String: Int]?

    init(kind: Kind, file: String? = nil) {
        self.kind = kind
        self.file = file
    }

    /// The event as one line for people.
    public var line: String {
        let name = file ?? ""
        switch kind {
        case .imported:
            let notes = notes ?? []
            let described = notes.map { note in
                let what = note.changedPages.map { "updated, \($0) of \(note.pages) page\(note.pages == 1 ? "" : "s") changed" }
                    ?? "\(note.pages) page\(note.pages == 1 ? "" : "s")"
                return "\(note.id) \"\(note.title)\" in \(note.notebook) (\(what))"
            } + (unchanged ?? []).map { "\($0.id) \"\($0.title)\" in \($0.notebook) (unchanged: imported before)" }
            return "imported \(name) → \(described.joined(separator: ", ")); moved to \(movedTo ?? "?")"
        case .failed:
            return "failed \(name): \(reason ?? "?"); moved to \(movedTo ?? "?")"
        case .waiting:
            return "waiting \(name): \(reason ?? "?")"
        case .burst:
            let claims = (sources ?? [:]).sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                .map { "\"\($0.key)\" (\($0.value))" }.joined(separator: ", ")
            return "warning: \(count ?? 0) files arrived in the drop folder within a minute; they claim to come from \(claims)"
        }
    }
}

/// Counts arrivals and warns once per burst: when more than `limit` files arrived within `window`,
/// one warning, and no other until the rate has fallen back to `limit` or fewer.
public struct BurstMonitor: Sendable {
    public let limit: Int
    public let window: TimeInterval
    private var arrivals: [(time: Date, source: String)] = []
    private var warned = false

    public init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// Notes that a file claiming `source` arrived at `time`.
    public mutating func record(_ source: String, at time: Date) {
        arrivals.append((time, source))
    }

    /// The count and the sources claimed when a burst has begun since the last warning, else nil.
    public mutating func check(at now: Date) -> (count: Int, sources: [String: Int])? {
        arrivals.removeAll { now.timeIntervalSince($0.time) > window }
        guard arrivals.count > limit else {
            warned = false
            return nil
        }
        guard !warned else { return nil }
        warned = true
        return (arrivals.count, arrivals.reduce(into: [:]) { $0[$1.source, default: 0] += 1 })
    }
}

/// The library's drop folder, `LIBRARY/inbox/`: every recording that appears there (InkML, `.rm`,
/// `.xopp`, replay log; the format is read from the content) is imported into the Inbox notebook and
/// moved to `inbox/done/`; a file that cannot be imported goes to `inbox/failed/` beside a
/// `NAME.reason.txt`, and leaves the library unchanged.
///
/// A file is imported only once its size and modification time have stayed the same for
/// ``DropFolderOptions/settle`` seconds, so a file still being written is left alone; names ending in
/// `.part` (and `.tmp`, `~`, hidden names…) are never touched, so a writer can write `x.inkml.part` and
/// rename it when done. One `inkwell` at a time works in the folder (`inbox/.lock`). Before commit the
/// notes it is about to add are written to `inbox/.importing.json`, so a crash between the import and
/// the move to `done/` is finished on the next look instead of importing the file twice.
public final class DropFolder {
    package let library: Library
    public let options: DropFolderOptions
    public var replayer = NoteReplayer()
    /// Imports each settled file (its `source` is set per file): the same intake as `inkwell import`.
    /// Without recognition, `inkwell index` reads the pages later.
    public var importer: Importer
    private var observed: [String: (signature: FileSignature, since: Date)] = [:]
    private var burst: BurstMonitor

    package init(library: Library, options: DropFolderOptions = DropFolderOptions()) {
        self.library = library
        self.options = options
        importer = Importer(library: library)
        burst = BurstMonitor(limit: options.burstFiles, window: options.burstWindow)
    }

    public var folder: URL { library.dropFolder }
    var doneFolder: URL { folder.appendingPathComponent("done", isDirectory: true) }
    var failedFolder: URL { folder.appendingPathComponent("failed", isDirectory: true) }
    var journal: URL { folder.appendingPathComponent(".importing.json") }

    /// Whether a name in the drop folder is one to import: not hidden, not a partial download or an
    /// editor's temporary file.
    public static func isCandidate(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower.hasPrefix(".") || lower.hasPrefix("~") || lower.hasPrefix("#") { return false }
        let temporary = [".part", ".partial", ".tmp", ".temp", ".crdownload", ".download", ".swp", "~"]
        return !temporary.contains { lower.hasSuffix($0) }
    }

    /// Looks at the folder once: files unchanged since an earlier look at least `settle` seconds ago are
    /// imported (or failed) one by one, each reported to `report`; files seen for the first time or
    /// changed since are remembered for the next look. Stops between files once `shouldStop()` is true.
    /// Returns the names left waiting, or nil (having done nothing) when another process held the
    /// folder's lock for `lockTimeout` seconds.
    @discardableResult
    public func look(now: () -> Date = Date.init, lockTimeout: TimeInterval = 0, shouldStop: () -> Bool = { false },
                     report: (DropEvent) -> Void) throws -> [String]? {
        try makeFolder(folder)
        do {
            return try LibraryLock(url: folder.appendingPathComponent(".lock")).withExclusive(timeout: lockTimeout) {
                try finishInterruptedImport()
                var waiting: [String] = []
                // A burst is counted by when files arrived (first seen), not when they were read: reading
                // a burst can take longer than the burst window on a busy machine.
                var newestArrival: Date?
                var current: [String: FileSignature] = [:]
                for name in try candidates() {
                    if let signature = FileSignature.of(folder.appendingPathComponent(name)) { current[name] = signature }
                }
                observed = observed.filter { current[$0.key] != nil }
                for name in current.keys.sorted() {
                    let signature = current[name]!
                    let time = now()
                    guard let previous = observed[name], previous.signature == signature,
                          time.timeIntervalSince(previous.since) >= options.settle, !signature.isEmpty
                    else {
                        if observed[name]?.signature != signature { observed[name] = (signature, time) }
                        waiting.append(name)
                        continue
                    }
                    if shouldStop() {
                        waiting.append(name)
                        continue
                    }
                    let event = process(name, signature: signature)
                    noticeArrivals(besides: current, at: now())
                    if event.kind == .waiting {
                        observed[name] = nil
                        waiting.append(name)
                    } else {
                        observed[name] = nil
                        burst.record(event.claimedSource ?? "unknown", at: previous.since)
                        newestArrival = max(newestArrival ?? previous.since, previous.since)
                    }
                    report(event)
                }
                // Files that arrived while this look was importing wait for the next.
                waiting += observed.keys.filter { current[$0] == nil }.sorted()
                if let (count, sources) = burst.check(at: newestArrival ?? now()) {
                    var warning = DropEvent(kind: .burst)
                    warning.count = count
                    warning.sources = sources
                    report(warning)
                }
                return waiting
            }
        } catch StoreError.locked {
            return nil
        }
    }

    /// Notes when files that arrived during a look were first seen. Importing a file can take seconds
    /// (recognition), so a look through many files would otherwise see the newcomers only at its end,
    /// and a burst written in one go would look spread over minutes.
    private func noticeArrivals(besides looked: [String: FileSignature], at time: Date) {
        guard let names = try? candidates() else { return }
        for name in names where looked[name] == nil && observed[name] == nil {
            if let signature = FileSignature.of(folder.appendingPathComponent(name)) { observed[name] = (signature, time) }
        }
    }

    /// The regular files in the drop folder worth looking at, by name.
    private func candidates() throws -> [String] {
        // Names that are not UTF-8 come with U+FFFD; RawPath finds their files again.
        try RawPath.names(in: folder).filter(DropFolder.isCandidate).sorted()
    }

    /// Imports one settled file, or moves it to `failed/`.
    private func process(_ name: String, signature: FileSignature) -> DropEvent {
        let url = folder.appendingPathComponent(name)
        let label = "inbox/" + name
        var event = DropEvent(kind: .imported, file: name)
        func fail(_ error: ImportError) -> DropEvent {
            event.kind = .failed
            event.reason = [error.position, error.reason].compactMap { $0 }.joined(separator: ": ")
            do {
                event.movedTo = try moveAside(name, reason: error)
            } catch {
                event.kind = .waiting
                event.reason = "\(event.reason ?? ""); and it could not be moved to failed/: \(error)"
            }
            return event
        }
        func wait(_ reason: String) -> DropEvent {
            event.kind = .waiting
            event.reason = reason
            return event
        }

        guard signature.size <= options.maxBytes else {
            event.claimedSource = "unread (too large)"
            return fail(ImportError(file: label, reason: "the file is \(signature.size) bytes; the drop folder takes files of at most \(options.maxBytes) bytes (--max-bytes)"))
        }
        let data: Data
        do {
            data = try RawPath.read(url)
        } catch {
            return wait("cannot read it: \(error.localizedDescription)")
        }
        // Read what was settled, or nothing: a writer that came back meanwhile gets another settle period.
        guard FileSignature.of(url) == signature, data.count == signature.size else { return wait("it changed while being read") }
        guard let format = RecordingFormat.detect(data) else {
            event.claimedSource = "unrecognised content"
            return fail(ImportError(file: label, reason: RecordingFormat.notARecording))
        }
        event.format = format.rawValue
        event.claimedSource = DropFolder.formatName(format)
        guard format != .remarkableNotebook else {
            return fail(ImportError(file: label, reason: "a reMarkable notebook's .content file needs its page folder beside it; import the notebook with `inkwell import`"))
        }
        let recording: Recording
        do {
            recording = try format.decode(data, file: label, readingBeside: false).reportingInkOutsidePages(file: label)
        } catch {
            return fail(error)
        }
        event.claimedSource = recording.claimedSource ?? event.claimedSource
        if recording.pointCount > options.maxPoints {
            return fail(ImportError(file: label, reason: "the file holds \(recording.pointCount) points; the drop folder takes at most \(options.maxPoints) a file (--max-points)"))
        }
        if recording.strokeCount > options.maxStrokes {
            return fail(ImportError(file: label, reason: "the file holds \(recording.strokeCount) strokes; the drop folder takes at most \(options.maxStrokes) a file (--max-strokes)"))
        }

        var importer = self.importer
        importer.source = "drop:" + label
        importer.beforeCommit = { [self] staged in
            try writeJournal(JournalEntry(file: name, notes: staged.map(\.note.id.rawValue)))
        }
        let outcome: Importer.FileOutcome
        do {
            // Its identity is its name in the drop folder with its bytes: the same file dropped again
            // is the note it made, not a second one. The bytes are part of the key (not only its
            // hash): a drop folder's files are used up, and scanners reuse names for other pages, so
            // another file under a used name is a new note, never an update of an unrelated one.
            let path = url.standardizedFileURL.path, hash = data.withUnsafeBytes { FNV1a.hex($0) }
            let identity = NoteOrigin(kind: .file, key: path + "#" + hash, hash: hash, location: path)
            outcome = try importer.importRecording(recording, from: url, identity: identity, replayer: replayer)
            if let failure = outcome.failures.first { throw ImportError(file: label, reason: failure) }
        } catch let error as ImportError {
            try? FileManager.default.removeItem(at: journal)
            return fail(error)
        } catch let error as StoreError where error.isTransient || error.isUnsupportedLibrary {
            try? FileManager.default.removeItem(at: journal)
            return wait("the library could not be written (\(error)); trying again later")
        } catch {
            try? FileManager.default.removeItem(at: journal)
            return fail(ImportError(file: label, reason: "\(error)"))
        }
        do {
            event.movedTo = try moveToDone(name)
            try? FileManager.default.removeItem(at: journal)
        } catch {
            // The journal stays: the next look finishes the move instead of importing the file again.
            return wait("imported, but it could not be moved to done/ yet: \(error)")
        }
        event.warnings = recording.warnings.isEmpty ? nil : recording.warnings
        event.notes = outcome.file.notes
        event.unchanged = outcome.unchanged.isEmpty ? nil : outcome.unchanged
        event.routed = outcome.routed.isEmpty ? nil : outcome.routed
        event.recognitionFailures = outcome.recognitionFailures.isEmpty ? nil : outcome.recognitionFailures
        return event
    }

    /// A format as the burst warning names it when the file itself claims nothing.
    static func formatName(_ format: RecordingFormat) -> String {
        switch format {
        case .replayLog: "replay log"
        case .inkml: "InkML"
        case .remarkable: "reMarkable .rm"
        case .remarkableNotebook: "reMarkable notebook"
        case .xournal: "Xournal++"
        case .rnote: "Rnote"
        }
    }

    // MARK: Moving files out of the way, never over another

    /// Moves the file into `done/`, returning where (relative to the drop folder).
    private func moveToDone(_ name: String) throws -> String {
        try makeFolder(doneFolder)
        let target = DropFolder.freeName(name, in: doneFolder)
        try DurableFile.move(folder.appendingPathComponent(name), to: doneFolder.appendingPathComponent(target))
        return "done/" + target
    }

    /// Moves the file into `failed/` and writes `NAME.reason.txt` beside it.
    private func moveAside(_ name: String, reason: ImportError) throws -> String {
        try makeFolder(failedFolder)
        let target = DropFolder.freeName(name, in: failedFolder, alsoFree: ".reason.txt")
        let text = """
            file: \(reason.file)
            position: \(reason.position ?? "-")
            reason: \(reason.reason)
            failed at: \(ISO8601DateFormatter().string(from: Date()))

            """
        try DurableFile.replace(failedFolder.appendingPathComponent(target + ".reason.txt"), with: Array(text.utf8))
        try DurableFile.move(folder.appendingPathComponent(name), to: failedFolder.appendingPathComponent(target))
        return "failed/" + target
    }

    /// `name`, or `stem-2.ext`, `stem-3.ext` … : the first name not taken in `folder` (nor with `alsoFree` appended).
    static func freeName(_ name: String, in folder: URL, alsoFree suffix: String? = nil) -> String {
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        func taken(_ candidate: String) -> Bool {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(candidate).path)
                || suffix.map { FileManager.default.fileExists(atPath: folder.appendingPathComponent(candidate + $0).path) } ?? false
        }
        return FreeName.first(stem, suffix: ext, isTaken: taken)
    }

    private func makeFolder(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw StoreError.io(url, "cannot create folder: \(error.localizedDescription)")
        }
    }

    // MARK: The journal of the import in progress

    /// The file being imported and the notes its import adds.
    struct JournalEntry: Codable {
        var file: String
        var notes: [String]
    }

    private func writeJournal(_ entry: JournalEntry) throws {
        try DurableFile.replace(journal, with: Array(try JSONEncoder().encode(entry)))
    }

    /// A look that was interrupted after its commit moved the notes in but before the file reached
    /// `done/`: the file is moved now (its notes are in the library). Interrupted before the commit,
    /// the file stays and is imported again.
    private func finishInterruptedImport() throws {
        guard FileManager.default.fileExists(atPath: journal.path) else { return }
        if let entry = try? JSONDecoder().decode(JournalEntry.self, from: Data(contentsOf: journal)) {
            let present = Set(try library.notes().map(\.note.id.rawValue))
            if !entry.notes.isEmpty, entry.notes.contains(where: present.contains),
               FileManager.default.fileExists(atPath: folder.appendingPathComponent(entry.file).path) {
                _ = try moveToDone(entry.file)
            }
        }
        try? FileManager.default.removeItem(at: journal)
    }
}

/// What identifies one version of a file without reading it: device, inode, size, modification time.
struct FileSignature: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modified: Int64
    var modifiedNanoseconds: Int

    var isEmpty: Bool { size == 0 }

    /// The file's signature, or nil when it is not a regular file (folders, links, sockets are left alone).
    static func of(_ url: URL) -> FileSignature? {
        var found = stat()
        // Through RawPath (which finds a name that is not UTF-8) only when the plain path is not there.
        guard let info = lstat(url.path, &found) == 0 ? found : RawPath.linkStatus(of: url), (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Glibc)
        let time = info.st_mtim
        #else
        let time = info.st_mtimespec
        #endif
        return FileSignature(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size),
                             modified: Int64(time.tv_sec), modifiedNanoseconds: Int(time.tv_nsec))
    }
}
