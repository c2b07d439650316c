import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files a command writes for its user (`-o`, exports), which may be anything a path names: a regular
/// file is replaced atomically (``DurableFile/replace(_:)``); a symbolic link keeps being a link, its
/// target replaced atomically; a FIFO or a character device (`/dev/stdout`, a pipe) is written into,
/// never replaced by a file; a folder is refused. Errors name the path given, never a temporary file.
///
/// Inside the library, links are never followed (see `Library.problems()`): this is for outputs only.
public enum OutputFile {
    /// Writes each file's bytes to its path as described above: the regular files (and links'
    /// targets) all or none, as ``DurableFile/replace(_:)``, then the FIFOs and devices.
    public static func write(_ files: [(url: URL, bytes: [UInt8])]) throws(StoreError) {
        var replaced: [(url: URL, bytes: [UInt8])] = [], streamed: [(url: URL, bytes: [UInt8])] = []
        for (url, bytes) in files {
            switch try destination(of: url) {
            case .file(let target): replaced.append((target, bytes))
            case .stream: streamed.append((url, bytes))
            }
        }
        try DurableFile.replace(replaced)
        for (url, bytes) in streamed {
            let fd = url.path.withCString { systemOpen($0, O_WRONLY | O_CLOEXEC, 0) }
            guard fd >= 0 else { throw StoreError.io(url, "cannot open: \(errnoText())") }
            defer { close(fd) }
            do throws(DurableFile.WriteFailure) {
                try DurableFile.writeAll(fd, bytes)
            } catch {
                throw StoreError.io(url, "write failed: \(error.reason)")
            }
        }
    }

    /// Writes one file (see ``write(_:)``).
    public static func write(_ url: URL, _ bytes: [UInt8]) throws(StoreError) {
        try write([(url, bytes)])
    }

    /// The folder a command puts its outputs in when given `url` as a folder (a path ending in `/`), or
    /// as the one path for `count` files: several outputs mean a folder, created when missing (with its
    /// parents), so no two outputs ever land on one path. Refused naming `url` when it is a file, a FIFO
    /// or a device (standard output takes one file).
    public static func folder(_ url: URL, holding count: Int? = nil) throws(StoreError) -> URL {
        let several = count.map { "\($0) files would be written and " } ?? ""
        try requireOutsideLibraries(url, given: url)
        var info = stat()
        if stat(url.path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return url
            case S_IFCHR, S_IFIFO: throw StoreError.io(url, "\(several)this takes one file: give a folder or --zip")
            default: throw StoreError.io(url, "\(several)this is a file, not a folder: give a folder (ending in /) or --zip")
            }
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw StoreError.io(url, "cannot create the folder: \(error.localizedDescription)")
        }
        return url
    }

    /// True when `url` is written into rather than replaced (a FIFO or a character device such as
    /// `/dev/stdout`, directly or through links): writing there overwrites no file.
    public static func isStream(_ url: URL) -> Bool {
        (try? destination(of: url)) == .stream
    }

    /// Where an output given as `url` really goes.
    public enum Destination: Equatable {
        /// A regular file at this path, replaced atomically (a link's target, or the path itself).
        case file(URL)
        /// A FIFO or a character device, written into.
        case stream
    }

    /// Where writing `url` goes: links followed (to their final target), FIFOs and devices streamed
    /// into; a folder, or a missing folder to write in, refused naming `url`.
    public static func destination(of url: URL) throws(StoreError) -> Destination {
        let destination = try destination(of: url, links: 0)
        if case .file(let target) = destination { try requireOutsideLibraries(target, given: url) }
        return destination
    }

    /// Refuses, naming `given`, an output at `url` that is inside an Inkwell library (a folder holding
    /// its marker, at `url` or above it once links are resolved): a page file, the lock or a note's
    /// metadata replaced by an export would damage the library. Vault folders are checked too.
    public static func requireOutsideLibraries(_ url: URL, given: URL) throws(StoreError) {
        guard let library = library(containing: url) else { return }
        throw StoreError.io(given, "cannot write: it is inside the Inkwell library at \(library.path); give a path outside it")
    }

    /// The Inkwell library holding `url` (a file or folder, existing or not), if any: the nearest
    /// existing folder at or above it is resolved (`realpath`, links followed), then it and each
    /// folder above it are looked at for the library's marker.
    public static func library(containing url: URL) -> URL? {
        var existing = url.standardizedFileURL
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            existing.deleteLastPathComponent()
        }
        guard let real = realpath(existing.path, nil) else { return nil }
        defer { free(real) }
        var folder = URL(fileURLWithPath: String(cString: real))
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), !isFolder.boolValue {
            folder.deleteLastPathComponent()
        }
        while true {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(Library.markerName).path) { return folder }
            guard folder.path != "/" else { return nil }
            folder.deleteLastPathComponent()
        }
    }

    private static func destination(of url: URL, links: Int) throws(StoreError) -> Destination {
        var info = stat()
        guard lstat(url.path, &info) == 0 else {
            let folder = url.deletingLastPathComponent()
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw StoreError.io(url, "cannot write: the folder \(folder.path) does not exist")
            }
            return .file(url)
        }
        switch info.st_mode & S_IFMT {
        case S_IFLNK:
            // The link stays. Where it leads now decides: a pipe or terminal behind `/dev/stdout` is
            // written into; an existing file is replaced where it really is; a link to nothing yet
            // makes its target.
            var followed = stat()
            if stat(url.path, &followed) == 0 {
                switch followed.st_mode & S_IFMT {
                case S_IFREG:
                    guard let real = realpath(url.path, nil) else { throw StoreError.io(url, "cannot write: \(errnoText())") }
                    defer { free(real) }
                    return .file(URL(fileURLWithPath: String(cString: real)))
                case S_IFCHR, S_IFIFO: return .stream
                case S_IFDIR: throw StoreError.io(url, "cannot write: it leads to a folder (give a file name, or a folder ending in /)")
                default: throw StoreError.io(url, "cannot write: it leads to something that is not a regular file, a FIFO or a device")
                }
            }
            guard links < 32, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) else {
                throw StoreError.io(url, "cannot write: a symbolic link that leads round in a loop")
            }
            return try destination(of: URL(fileURLWithPath: target, relativeTo: url.deletingLastPathComponent()).standardizedFileURL,
                                   links: links + 1)
        case S_IFCHR, S_IFIFO: return .stream
        case S_IFDIR: throw StoreError.io(url, "cannot write: it is a folder (give a file name, or a folder ending in /)")
        case S_IFREG: return .file(url)
        default: throw StoreError.io(url, "cannot write: not a regular file, a FIFO or a device")
        }
    }
}

