import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Crash-safe file operations: a reader sees either the old file or the new one, never half of one.
public enum DurableFile {
    /// Writes `bytes` to a temporary file beside `url`, syncs it, renames it over `url`, syncs the folder.
    public static func replace(_ url: URL, with bytes: [UInt8]) throws(StoreError) {
        try replace([(url, bytes)])
    }

    /// Replaces several files all or nothing: every file is written and synced under a temporary
    /// name first, and only when all are complete are they renamed into place (then their folders
    /// synced). A failure before the renames leaves none of them changed.
    public static func replace(_ files: [(url: URL, bytes: [UInt8])]) throws(StoreError) {
        var temporaries: [URL] = []
        func discard() { for temporary in temporaries { unlink(temporary.path) } }
        for (url, bytes) in files {
            let temporary = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp")
            do throws(StoreError) {
                let fd = try open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL)
                temporaries.append(temporary)
                defer { close(fd) }
                try writeAndSync(fd, bytes, url: temporary)
            } catch {
                discard()
                throw error
            }
        }
        for (index, (url, _)) in files.enumerated() {
            guard rename(temporaries[index].path, url.path) == 0 else {
                let reason = errnoText()
                for temporary in temporaries[index...] { unlink(temporary.path) }
                throw StoreError.io(url, "rename failed: \(reason)")
            }
        }
        var synced = Set<String>()
        for (url, _) in files where synced.insert(url.deletingLastPathComponent().path).inserted {
            try syncFolder(url.deletingLastPathComponent())
        }
    }

    /// For the name of one of ``replace(_:with:)``'s temporary files (`.NAME.PID-RANDOM.tmp`), the
    /// process that wrote it: `.some(nil)` for a temporary file named before the pid was part of the
    /// name, nil for any other name.
    public static func writer(ofTemporary name: String) -> Int32?? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.dropLast(".tmp".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, let tag = parts.last, !tag.isEmpty else { return nil }
        let fields = tag.split(separator: "-")
        if fields.count == 2, let pid = Int32(fields[0]), UInt32(fields[1]) != nil { return .some(pid) }
        if fields.count == 1, UInt32(fields[0]) != nil { return .some(nil) }
        return nil
    }

    /// Appends `bytes` at the end of `url`, then syncs it. Creates nothing. `whole` says how many of
    /// the file's bytes are whole records (a page's chunks): anything after that, left by an append
    /// that a crash cut short, is cut off before writing. An append that fails (a full disk) is cut
    /// back too, so the file is as it was and the caller's retry writes onto whole records.
    /// With `sync` false the append is not synced (a staged file, which ``syncTree(_:)`` syncs later).
    public static func append(_ url: URL, _ bytes: [UInt8], whole: (Int32, Int) -> Int = { _, size in size },
                              sync: Bool = true) throws(StoreError) {
        try append(url, bytes, whole: whole, sync: sync, writer: writeAll)
    }

    /// Cuts off what follows the whole records of `url` (`whole`, as for ``append(_:_:whole:sync:)``):
    /// the torn tail an append a crash cut short left. Returns whether anything was cut.
    public static func cutTornTail(_ url: URL, whole: (Int32, Int) -> Int) throws(StoreError) -> Bool {
        let fd = try open(url, flags: O_RDWR)
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw StoreError.io(url, "cannot read its size: \(errnoText())") }
        let end = whole(fd, Int(status.st_size))
        guard end < Int(status.st_size) else { return false }
        guard ftruncate(fd, off_t(end)) == 0, fsync(fd) == 0 else { throw StoreError.io(url, "cannot cut off a torn append: \(errnoText())") }
        return true
    }

    /// ``append(_:_:whole:sync:)`` with the write loop given: a test hands it one that fails part way.
    static func append(_ url: URL, _ bytes: [UInt8], whole: (Int32, Int) -> Int, sync: Bool = true,
                       writer: (Int32, [UInt8]) throws(WriteFailure) -> Void) throws(StoreError) {
        let fd = try open(url, flags: O_RDWR)
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw StoreError.io(url, "cannot read its size: \(errnoText())") }
        let end = whole(fd, Int(status.st_size))
        if end < Int(status.st_size) {
            guard ftruncate(fd, off_t(end)) == 0 else { throw StoreError.io(url, "cannot cut off a torn append: \(errnoText())") }
        }
        guard lseek(fd, off_t(end), SEEK_SET) >= 0 else { throw StoreError.io(url, "cannot seek: \(errnoText())") }
        do throws(WriteFailure) {
            try writer(fd, bytes)
            guard !sync || fsync(fd) == 0 else { throw WriteFailure(step: .sync, reason: errnoText(), code: errno) }
        } catch {
            // What was written of a failed append is taken back; were even that to fail, the next
            // append's `whole` finds the torn bytes.
            if ftruncate(fd, off_t(end)) == 0 { _ = fsync(fd) }
            throw StoreError.io(url, error.text)
        }
    }

    /// Writes `bytes` as `url` (created, or emptied first), without syncing: for a file no reader
    /// sees before ``syncTree(_:)`` has synced it (a staged note's, in its private folder). A write
    /// that fails removes the file.
    public static func writeUnsynced(_ url: URL, _ bytes: [UInt8]) throws(StoreError) {
        let fd = try open(url, flags: O_WRONLY | O_CREAT | O_TRUNC)
        defer { close(fd) }
        do throws(WriteFailure) {
            try writeAll(fd, bytes)
        } catch {
            unlink(url.path)
            throw StoreError.io(url, error.text)
        }
    }

    /// Syncs every file and folder in `folder`, and `folder` itself: what ``writeUnsynced(_:_:)`` and
    /// unsynced appends wrote there is on disk when it returns. A few files are synced one by one; more
    /// (past ``filesSyncedOneByOne``) with one `syncfs` of their file system, which costs one flush of
    /// the disk instead of one a file (2,000 `fsync`s took 2.4–7 s here, `syncfs` 0.1 s), at the price of
    /// also writing out what other programs have not yet written to that file system.
    public static func syncTree(_ folder: URL) throws(StoreError) {
        var files: [URL] = [], folders: [URL] = []
        try collect(folder, files: &files, folders: &folders)
        if files.count > filesSyncedOneByOne, let syncfs = syncFileSystem {
            let fd = try open(folder, flags: O_RDONLY | O_DIRECTORY)
            defer { close(fd) }
            guard syncfs(fd) == 0 else { throw StoreError.io(folder, "syncfs failed: \(errnoText())") }
            return
        }
        for url in files {
            let fd = try open(url, flags: O_RDONLY)
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw StoreError.io(url, "fsync failed: \(errnoText())") }
        }
        for url in folders.reversed() { try syncFolder(url) }
    }

    /// Above this many files, ``syncTree(_:)`` syncs the whole file system at once.
    static let filesSyncedOneByOne = 32

    /// `syncfs(2)` (Linux), which the Glibc module does not declare; nil where the C library lacks it.
    private static let syncFileSystem: (@convention(c) (Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()

    /// The regular files and the folders in `folder` and below (`folder` first among the folders).
    private static func collect(_ folder: URL, files: inout [URL], folders: inout [URL]) throws(StoreError) {
        folders.append(folder)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw StoreError.io(folder, "cannot list: \(error.localizedDescription)")
        }
        for name in names {
            let url = folder.appendingPathComponent(name)
            var status = stat()
            guard lstat(url.path, &status) == 0 else { throw StoreError.io(url, "cannot read: \(errnoText())") }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: try collect(url, files: &files, folders: &folders)
            case S_IFREG: files.append(url)
            default: break
            }
        }
    }

    /// Reads the whole file.
    public static func read(_ url: URL) throws(StoreError) -> [UInt8] {
        do {
            return [UInt8](try Data(contentsOf: url))
        } catch {
            throw StoreError.io(url, "cannot read: \(error.localizedDescription)")
        }
    }

    /// Makes a rename or creation inside `folder` durable.
    public static func syncFolder(_ folder: URL) throws(StoreError) {
        let fd = try open(folder, flags: O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw StoreError.io(folder, "fsync failed: \(errnoText())") }
    }

    /// Renames `source` to `destination` (same file system) and syncs both folders.
    public static func move(_ source: URL, to destination: URL) throws(StoreError) {
        // The source may be named by bytes that are not UTF-8 (a file dropped in by another program).
        guard RawPath.withSystemPath(source, { rename($0, destination.path) }) == 0 else {
            throw StoreError.io(source, "cannot move to \(destination.path): \(errnoText())")
        }
        try syncFolder(destination.deletingLastPathComponent())
        if source.deletingLastPathComponent().path != destination.deletingLastPathComponent().path {
            try syncFolder(source.deletingLastPathComponent())
        }
    }

    private static func open(_ url: URL, flags: Int32) throws(StoreError) -> Int32 {
        let fd = url.path.withCString { systemOpen($0, flags | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw StoreError.io(url, "cannot open: \(errnoText())") }
        return fd
    }

    /// Why ``writeAndSync(_:_:mode:)`` failed: the step and the system's reason (`strerror`).
    public struct WriteFailure: Error, Sendable, Equatable {
        public enum Step: Sendable, Equatable {
            case write
            /// Setting the file's mode (`fchmod`).
            case mode
            case sync
        }
        public let step: Step
        public let reason: String
        /// The system's error number, when there was one.
        public var code: Int32 = 0

        /// The failed step and why, leading with "disk full" when the file system has no room left
        /// (the words a user sees on a retried save).
        public var text: String {
            let full = code == ENOSPC || code == EDQUOT
            return "\(full ? "disk full: " : "")\(step == .write ? "write" : step == .mode ? "chmod" : "fsync") failed: \(reason)"
        }
    }

    /// Writes all of `bytes` to `fd` (again after interrupted or short writes), sets the file's mode
    /// when `mode` is given, then syncs it: Inkwell's one write-and-fsync loop (this type's files, a
    /// vault's files and its push journal). Stops at the first step that fails; the caller decides
    /// what to clean up.
    public static func writeAndSync(_ fd: Int32, _ bytes: [UInt8], mode: mode_t? = nil) throws(WriteFailure) {
        try writeAll(fd, bytes)
        if let mode, fchmod(fd, mode) != 0 { throw WriteFailure(step: .mode, reason: errnoText(), code: errno) }
        guard fsync(fd) == 0 else { throw WriteFailure(step: .sync, reason: errnoText(), code: errno) }
    }

    /// Writes all of `bytes` to `fd`, again after interrupted or short writes, without syncing (a
    /// pipe or a terminal cannot be synced): the loop ``writeAndSync(_:_:mode:)`` and outputs that
    /// stream (``OutputFile``) share.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(WriteFailure) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw WriteFailure(step: .write, reason: errnoText(), code: n < 0 ? errno : ENOSPC) }
            written += n
        }
    }

    /// ``writeAndSync(_:_:mode:)`` with the library's error for `url`.
    private static func writeAndSync(_ fd: Int32, _ bytes: [UInt8], url: URL) throws(StoreError) {
        do throws(WriteFailure) {
            try writeAndSync(fd, bytes)
        } catch {
            throw StoreError.io(url, error.text)
        }
    }
}

func errnoText() -> String { String(cString: strerror(errno)) }

/// `open(2)` with a mode, under one name on Linux and macOS.
func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(path, flags, mode)
    #else
    Darwin.open(path, flags, mode)
    #endif
}
