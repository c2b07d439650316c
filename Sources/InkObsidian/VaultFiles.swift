import Foundation
import InkExport
import InkStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files one push writes into a vault, and how to take back those not yet in use: page images
/// written for daily notes that were not replaced, and folders created for them.
struct VaultFiles {
    let root: URL
    private var createdFolders: [URL] = []
    /// Images written this run, by day, until that day's daily note has been replaced.
    private var pendingImages: [Int: [URL]] = [:]

    init(root: URL) { self.root = root }

    /// Creates the missing folders of `relative` (a path inside the vault), remembering them.
    mutating func createFolders(_ relative: String) throws(ExportError) {
        var url = root
        for component in relative.split(separator: "/") {
            url = url.appendingPathComponent(String(component))
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
                guard isFolder.boolValue else { throw ExportError(path: url.path, reason: "is not a folder") }
                continue
            }
            guard mkdir(url.path, 0o755) == 0 else {
                throw ExportError(path: url.path, reason: "cannot create the folder: \(String(cString: strerror(errno)))")
            }
            createdFolders.append(url)
        }
    }

    /// Writes `bytes` as `relative` unless a file of that name exists (image names carry the page's
    /// content hash: the same name is the same image). True when written.
    mutating func writeNew(_ relative: String, _ bytes: [UInt8], day: Int) throws -> Bool {
        let url = root.appendingPathComponent(relative)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
            guard !isFolder.boolValue else { throw ExportError(path: url.path, reason: "is a folder, not an image") }
            return false
        }
        try createFolders(relative.split(separator: "/").dropLast().joined(separator: "/"))
        try DurableFile.replace(url, with: bytes)
        pendingImages[day, default: []].append(url)
        return true
    }

    /// The daily note of `day` was replaced: its images are in use.
    mutating func committed(day: Int) {
        pendingImages[day] = nil
    }

    /// Removes the images not in use and the folders created for them (those left empty).
    func rollBack() {
        for url in pendingImages.values.joined() { unlink(url.path) }
        for folder in createdFolders.reversed() { rmdir(folder.path) }
    }

    /// Throws unless the folder `relative` (inside the vault) exists and is writable, or can be
    /// created: every part of it that exists is a folder, and the deepest one is writable.
    static func checkWritable(_ relative: String, in root: URL) throws(ExportError) {
        var url = root
        for component in relative.split(separator: "/") {
            let next = url.appendingPathComponent(String(component))
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: next.path, isDirectory: &isFolder) else { break }
            guard isFolder.boolValue else { throw ExportError(path: next.path, reason: "is not a folder") }
            url = next
        }
        guard access(url.path, W_OK | X_OK) == 0 else {
            throw ExportError(path: url.path, reason: "cannot write into this folder: \(String(cString: strerror(errno)))")
        }
    }

    /// Replaces `url` with `bytes` if it still holds `expected` (nil: does not exist): a temporary
    /// file beside it, synced, then renamed over it. Throws, leaving `url` as it was, when the
    /// file changed meanwhile.
    static func replace(_ url: URL, expecting expected: [UInt8]?, with bytes: [UInt8],
                        beforeRename: (URL) -> Void = { _ in }) throws(ExportError) {
        let folder = url.deletingLastPathComponent()
        // A vault folder (or a link in it) that leads into an Inkwell library is no place to write.
        if let library = OutputFile.library(containing: folder) {
            throw ExportError(path: url.path, reason: "cannot write: it is inside the Inkwell library at \(library.path); give a vault outside it")
        }
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).inkwell-\(UInt32.random(in: 0...UInt32.max)).tmp")
        var info = stat()
        let mode = stat(url.path, &info) == 0 ? mode_t(info.st_mode) & 0o7777 : 0o644
        func fail(_ what: String, _ reason: String = String(cString: strerror(errno))) -> ExportError {
            unlink(temporary.path)
            return ExportError(path: url.path, reason: "\(what): \(reason); the file was left as it was")
        }
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw fail("cannot create a temporary file beside it") }
        do throws(DurableFile.WriteFailure) {
            try DurableFile.writeAndSync(fd, bytes, mode: mode)
        } catch {
            close(fd)
            throw fail(error.step == .write ? "cannot write" : "cannot sync", error.reason)
        }
        close(fd)
        beforeRename(url)
        let changed = ExportError(path: url.path, reason: "changed while inkwell was adding to it (is it open in an editor?); it was left as it is: run the push again")
        if expected == nil {
            // Creating: link(2) refuses to replace a file that appeared meanwhile, atomically.
            if link(temporary.path, url.path) == 0 {
                unlink(temporary.path)
                try sync(folder)
                return
            }
            if errno == EEXIST {
                unlink(temporary.path)
                throw changed
            }
            // No hard links on this file system: check, then rename.
        }
        let current = try? DurableFile.read(url)
        guard current == expected else {
            unlink(temporary.path)
            throw changed
        }
        guard rename(temporary.path, url.path) == 0 else { throw fail("cannot rename the temporary file over it") }
        try sync(folder)
    }

    /// Removes `url` if it still holds `expected`.
    static func remove(_ url: URL, expecting expected: [UInt8]) throws(ExportError) {
        guard (try? DurableFile.read(url)) == expected else {
            throw ExportError(path: url.path, reason: "changed meanwhile; left as it is")
        }
        guard unlink(url.path) == 0 else {
            throw ExportError(path: url.path, reason: "cannot remove: \(String(cString: strerror(errno)))")
        }
        try sync(url.deletingLastPathComponent())
    }

    private static func sync(_ folder: URL) throws(ExportError) {
        do {
            try DurableFile.syncFolder(folder)
        } catch {
            throw ExportError(path: folder.path, reason: "\(error)")
        }
    }
}

/// An advisory lock on a vault (`flock` on the folder itself, so no lock file is left in it):
/// two pushes into one vault never interleave. It waits as the library's lock does (``LibraryLock/acquire(_:_:timeout:pause:)``).
enum VaultLock {
    static func withExclusive<T>(_ root: URL, timeout: Double = 30, _ body: () throws -> T) throws -> T {
        let fd = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw ExportError(path: root.path, reason: "cannot open the vault: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        do throws(LibraryLock.Failure) {
            try LibraryLock.acquire(fd, LOCK_EX, timeout: timeout, pause: 0.01)
        } catch {
            switch error {
            case .busy: throw ExportError(path: root.path, reason: "another inkwell push into this vault is running")
            case .failed(let reason): throw ExportError(path: root.path, reason: "cannot lock the vault: \(reason)")
            }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
