import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files whose names are not UTF-8. A Linux file name is any bytes; Swift's strings (the command
/// line's arguments included) and Foundation's URLs hold such a name with U+FFFD in place of each
/// byte that is not UTF-8, and Foundation then finds no such file, even listing the folder it is in.
/// Here such a URL is taken back to the bytes it stands for, by reading each folder's entries as
/// bytes, and the file is read through those. The one place Inkwell reads names below Foundation.
public enum RawPath {
    /// What is at the path `url` stands for.
    public enum Kind: Sendable, Equatable {
        case missing, file, folder
    }

    /// What `url` names: each component as written when it exists, else the one entry of the folder
    /// so far whose name, decoded with replacement, reads as the component (nil when none does).
    public static func bytes(of url: URL) -> [UInt8]? {
        var resolved: [UInt8] = []
        for component in url.standardizedFileURL.path.split(separator: "/") {
            let written = resolved + [0x2F] + Array(component.utf8)
            if exists(written) {
                resolved = written
                continue
            }
            guard component.contains("\u{FFFD}"),
                  let entry = entries(of: resolved.isEmpty ? [0x2F] : resolved).first(where: { String(decoding: $0, as: UTF8.self) == component })
            else { return nil }
            resolved += [0x2F] + entry
        }
        return resolved.isEmpty ? [0x2F] : resolved
    }

    /// Whether `url` names a file or a folder (following symbolic links), found as ``bytes(of:)`` finds it.
    public static func kind(of url: URL) -> Kind {
        guard let path = bytes(of: url) else { return .missing }
        var info = stat()
        guard withCString(path, { stat($0, &info) }) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .folder : .file
    }

    /// The contents of the file `url` names, found as ``bytes(of:)`` finds it.
    public static func read(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            guard let path = bytes(of: url), path != Array(url.standardizedFileURL.path.utf8) else { throw error }
            let fd = withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
            guard fd >= 0 else { throw error }
            defer { close(fd) }
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = Glibc.read(fd, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { throw error }
                if count == 0 { return data }
                data.append(contentsOf: buffer[..<count])
            }
        }
    }

    /// Every regular file under `folder` (in any folder inside it; a symbolic link to a file counts,
    /// one to a folder is not followed),
    /// sorted by path, names that are not UTF-8 included: their URLs read them through ``read(_:)``.
    public static func files(under folder: URL) -> [URL] {
        guard let root = bytes(of: folder) else { return [] }
        var found: [String] = []
        func walk(_ path: [UInt8]) {
            for entry in entries(of: path) {
                let child = path + [0x2F] + entry
                var info = stat()
                guard withCString(child, { lstat($0, &info) }) == 0 else { continue }
                var isFile = (info.st_mode & S_IFMT) == S_IFREG
                if (info.st_mode & S_IFMT) == S_IFLNK {
                    isFile = withCString(child, { stat($0, &info) }) == 0 && (info.st_mode & S_IFMT) == S_IFREG
                } else if (info.st_mode & S_IFMT) == S_IFDIR {
                    walk(child)
                }
                if isFile { found.append(String(decoding: child, as: UTF8.self)) }
            }
        }
        walk(root)
        // Sorted as strings, before they are URLs: a URL's path is worked out again at each call.
        return found.sorted().map { URL(fileURLWithPath: $0) }
    }

    /// The names in `folder`, each decoded as UTF-8 with replacement: a name that is not UTF-8 reads
    /// with U+FFFD, and ``bytes(of:)`` finds its file again.
    public static func names(in folder: URL) throws(StoreError) -> [String] {
        guard let path = bytes(of: folder), let stream = withCString(path, { opendir($0) }) else {
            throw StoreError.io(folder, "cannot list: \(String(cString: strerror(errno)))")
        }
        closedir(stream)
        return entries(of: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `lstat` of what `url` names, found as ``bytes(of:)`` finds it; nil when there is nothing.
    public static func linkStatus(of url: URL) -> stat? {
        guard let path = bytes(of: url) else { return nil }
        var info = stat()
        return withCString(path, { lstat($0, &info) }) == 0 ? info : nil
    }

    /// Runs `body` with the path `url` names as the system takes it: its bytes (``bytes(of:)``), or
    /// the URL's own path when nothing is there yet.
    public static func withSystemPath<T>(_ url: URL, _ body: (UnsafePointer<CChar>) -> T) -> T {
        withCString(bytes(of: url) ?? Array(url.standardizedFileURL.path.utf8), body)
    }

    private static func exists(_ path: [UInt8]) -> Bool {
        var info = stat()
        return withCString(path) { stat($0, &info) } == 0
    }

    /// The names in `folder`, as bytes (`.` and `..` left out).
    private static func entries(of folder: [UInt8]) -> [[UInt8]] {
        guard let stream = withCString(folder, { opendir($0) }) else { return [] }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E], name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }

    private static func withCString<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }
}
