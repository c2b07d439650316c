import Foundation
import InkCore

/// A note as found in a library: its metadata, its notebook and its folder.
public struct StoredNote: Sendable, Equatable {
    public var note: Note
    public var notebook: NotebookPath
    public var folder: URL
}

/// A note folder that cannot be read as a note: its `note.json` is missing, not JSON, or names ids
/// that are not Inkwell's (a path, a separator). Listings skip it, `inkwell check` names it, and
/// nothing writes into it.
public struct DamagedNote: Sendable, Equatable {
    public var folder: URL
    public var notebook: NotebookPath
    /// Why it cannot be read, naming the file.
    public var reason: String
}

/// The notes of a library or notebook in listing order, and the note folders that could not be read.
public struct NoteListing: Sendable, Equatable {
    public var notes: [StoredNote]
    public var damaged: [DamagedNote]
}

/// A library of notebooks, notes and pages in one folder, safe to share between processes.
///
/// ```text
/// LIBRARY/
///   inkwell-library.json       what this folder is (format version)
///   notebooks/Work/Meetings/   a notebook is a folder; notebooks nest
///     .order                   its manual order of notes (a hint: see docs/library.md)
///     k3m9x2q7a1bc.note/       a note: note.json + one .inkpage file per page
///   trash/                     deleted notes and notebooks, restorable
///   routes.json                rules that file notes out of the Inbox by hashtag
///   inbox/                     the drop folder: files put here are imported (done/, failed/)
/// ```
/// Every change takes the library's lock and is written atomically: an interrupted command leaves
/// either the old state or the new one.
public final class Library: Sendable {
    public let root: URL
    /// What the library's marker says: its format and who may read it.
    public let format: LibraryFormat
    let lock: LibraryLock
    /// Note folders that listings skipped because their metadata cannot be read, with the reason,
    /// by path: what a front end warns about once (``listing(in:recursive:)`` adds to it).
    public let damageSeen = Locked<[String: String]>([:])

    public static let markerName = "inkwell-library.json"
    static let noteSuffix = ".note"
    static let pageSuffix = ".inkpage"

    var notebooksFolder: URL { root.appendingPathComponent("notebooks", isDirectory: true) }
    var trashFolder: URL { root.appendingPathComponent("trash", isDirectory: true) }
    var stagingFolder: URL { root.appendingPathComponent(".staging", isDirectory: true) }
    /// The drop folder: recordings put here are imported by `inkwell ingest` and `inkwell watch`.
    public var dropFolder: URL { root.appendingPathComponent("inbox", isDirectory: true) }

    /// Opens the library at `root`, which must have been created with ``create(at:)``; a library
    /// whose marker this build cannot read (damaged, or from a newer Inkwell) is refused.
    public init(opening root: URL) throws {
        self.root = root.standardizedFileURL
        lock = LibraryLock(url: self.root.appendingPathComponent(".lock"))
        format = try LibraryFormat.read(libraryAt: self.root)
    }

    /// Creates a library at `root` (or opens the one already there) with an `Inbox` notebook and
    /// the `inbox/` drop folder.
    @discardableResult
    public static func create(at root: URL) throws -> Library {
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: root, withIntermediateDirectories: true)
        } catch {
            throw StoreError.io(root, "cannot create the library folder: \(error.localizedDescription)")
        }
        let marker = root.appendingPathComponent(markerName)
        if !fm.fileExists(atPath: marker.path) {
            try JSONFile.write(LibraryFormat.new(created: Date().wholeSeconds), to: marker)
        }
        let library = try Library(opening: root)
        try library.withWriteLock {
            for folder in [library.notebooksFolder, library.trashFolder, library.dropFolder] {
                try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            try fm.createDirectory(at: library.folder(of: .inbox), withIntermediateDirectories: true)
        }
        return library
    }

    /// Where the library lives when `--library` is not given: `$INKWELL_LIBRARY`, else
    /// `$XDG_DATA_HOME/inkwell`, else `~/.local/share/inkwell`.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["INKWELL_LIBRARY"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("inkwell", isDirectory: true)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share/inkwell", isDirectory: true)
    }

    /// Runs `body` holding the library's write lock. Public operations take it themselves. A
    /// library in a newer format than this build writes is refused before anything is written.
    public func withWriteLock<T>(_ body: () throws -> T) throws -> T {
        try Library.requireWritable(format, root: root)
        switch Library.held {
        case .exclusive: return try body()
        case .shared: throw StoreError.invalid("a change was attempted while reading the library (a bug: please report it)")
        case .none:
            return try lock.withExclusive {
                // The marker as it is now: a long-running process (serve, watch) may have opened the
                // library before another process upgraded it, or before a newer Inkwell wrote into it.
                try Library.requireWritable(try LibraryFormat.read(libraryAt: root), root: root)
                return try Library.$held.withValue(.exclusive, operation: body)
            }
        }
    }

    /// Throws unless this build may write into the library (its format is this build's), saying what to do.
    public func checkWritable() throws {
        try Library.requireWritable(format, root: root)
    }

    /// Throws unless this build may write a library in `format`, saying what to do.
    static func requireWritable(_ format: LibraryFormat, root: URL) throws {
        guard !format.isWritable else { return }
        if format.needsUpgrade {
            throw StoreError.unsupportedLibrary(root, "this library is in format \(format.format), older than this Inkwell writes "
                + "(format \(LibraryFormat.current)): it can be read here; run `inkwell upgrade` to change it (a copy of its marker is kept)")
        }
        throw StoreError.unsupportedLibrary(root, "this library is in format \(format.format), newer than this Inkwell writes "
            + "(format \(LibraryFormat.current)): it can be read here, but changed only by the Inkwell that wrote it or a newer one")
    }

    /// Runs `body` while no other process changes the library: readers that must see notes whole
    /// (a listing, a note's pages) take the lock shared, writers wait for them, and they for writers.
    public func withReadLock<T>(_ body: () throws -> T) throws -> T {
        if Library.held != .none { return try body() }
        return try lock.withShared { try Library.$held.withValue(.shared, operation: body) }
    }

    /// How this thread holds the library's lock: taking it again on another descriptor would wait
    /// for ourselves, so nested operations run under the lock already held.
    enum HeldLock: Sendable { case none, shared, exclusive }
    @TaskLocal static var held = HeldLock.none

    func folder(of notebook: NotebookPath) -> URL {
        notebook.components.reduce(notebooksFolder) { $0.appendingPathComponent($1, isDirectory: true) }
    }

    /// The file of page `page` in the note folder `noteFolder`.
    public func pageURL(_ page: PageID, in noteFolder: URL) -> URL {
        noteFolder.appendingPathComponent(page.rawValue + Library.pageSuffix)
    }

    static func noteFolderName(_ id: NoteID) -> String { id.rawValue + noteSuffix }
}
