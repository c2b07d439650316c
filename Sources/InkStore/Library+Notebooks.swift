import Foundation
import InkCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Library {
    /// Every notebook, parents before children, in name order.
    public func notebooks() throws -> [NotebookPath] {
        var found: [NotebookPath] = []
        func walk(_ path: NotebookPath) throws {
            for name in try subfolders(of: folder(of: path)) where !name.hasSuffix(Library.noteSuffix) {
                guard let child = try? path.appending(name) else { continue }
                found.append(child)
                try walk(child)
            }
        }
        try walk(.root)
        return found
    }

    /// Creates a notebook and any missing parents. Creating one that exists is an error.
    public func createNotebook(_ path: NotebookPath) throws {
        guard !path.isRoot else { throw StoreError.invalid("the library root is not a notebook") }
        try withWriteLock {
            let url = folder(of: path)
            guard !FileManager.default.fileExists(atPath: url.path) else { throw StoreError.notebookExists(path) }
            try makeFolders(url)
        }
    }

    /// Gives a notebook a new name in the same parent (refused, as ``moveNotebook(_:to:force:)`` is,
    /// while a server has one of its notes open for writing, unless `force`).
    public func renameNotebook(_ path: NotebookPath, to name: String, force: Bool = false) throws -> NotebookPath {
        try moveNotebook(path, to: path.parent.appending(name), force: force)
    }

    /// Moves a notebook (with everything in it) to `destination`, a full path. Moving the folder of a
    /// note a server has open for writing would take its pages from under it: refused unless `force`.
    public func moveNotebook(_ path: NotebookPath, to destination: NotebookPath, force: Bool = false) throws -> NotebookPath {
        guard !path.isRoot, !destination.isRoot else { throw StoreError.invalid("the library root cannot be moved") }
        guard !destination.isWithin(path) else {
            throw StoreError.invalid("cannot move notebook \"\(path)\" into itself (\"\(destination)\")")
        }
        try withWriteLock {
            try requireNotebook(path)
            for stored in try notesUnlocked(in: path, recursive: true) {
                try requireNotOpen(stored.note.id, title: stored.note.title, force: force)
            }
            guard !FileManager.default.fileExists(atPath: folder(of: destination).path) else {
                throw StoreError.notebookExists(destination)
            }
            try makeFolders(folder(of: destination.parent))
            try DurableFile.move(folder(of: path), to: folder(of: destination))
        }
        return destination
    }

    /// Moves a notebook and all its notes to the trash.
    @discardableResult
    public func deleteNotebook(_ path: NotebookPath, force: Bool = false) throws -> TrashItem {
        guard !path.isRoot else { throw StoreError.invalid("the library root cannot be deleted") }
        return try withWriteLock {
            try requireNotebook(path)
            let notes = try notesUnlocked(in: path, recursive: true)
            for stored in notes { try requireNotOpen(stored.note.id, title: stored.note.title, force: force) }
            return try moveToTrash(folder(of: path), kind: .notebook, name: path.name, notebook: path.parent, noteCount: notes.count,
                                   journals: notes.map(\.note.id))
        }
    }

    func requireNotebook(_ path: NotebookPath) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder(of: path).path, isDirectory: &isFolder), isFolder.boolValue else {
            throw StoreError.noSuchNotebook(path)
        }
    }

    func subfolders(of url: URL) throws -> [String] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            // Folders only, never a symbolic link to one: a link could lead out of the library (to `/`)
            // or round in a loop; `check` reports them (``problems()``).
            return try FileManager.default.contentsOfDirectory(atPath: url.path)
                .filter { !$0.hasPrefix(".") && Library.isFolder(url.appendingPathComponent($0)) }
                .sorted()
        } catch {
            throw StoreError.io(url, "cannot list: \(error.localizedDescription)")
        }
    }

    /// True when `url` is a folder itself, not a symbolic link (to a folder or anything else).
    static func isFolder(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// True when `url` is a symbolic link.
    static func isSymbolicLink(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    func makeFolders(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw StoreError.io(url, "cannot create folder: \(error.localizedDescription)")
        }
    }
}
