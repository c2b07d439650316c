import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import InkCore
import InkInterchange
import InkStore

/// The hashes of source files read before, kept in the library (`LIBRARY/.source-hashes`), so that
/// syncing a folder that has not changed reads none of its bytes again (docs/import-formats.md,
/// "Importing again"): a file whose `stat` — device, inode, size, modification and change time — is
/// what it was when it was hashed has the hash it had.
///
/// Why that is safe: any write to a file sets its change time (ctime) to the clock's now, and no
/// program can set a ctime back (`touch` and `rsync -t` set the modification time, not it); a file
/// replaced by another is another inode. A file that changed less than ``racyInterval`` before it was
/// hashed is not kept, since a second change within the same tick of the file system's clock would
/// leave its stamp as it was (git's "racy" entries); nor is one that changed while it was read.
/// It is only a cache: a file that cannot be read, or was cut short (its checksum is wrong), is
/// taken as empty and costs the hashing it saves.
final class SourceHashes: Sendable {
    /// What `stat` says of a file that a change to it would change.
    struct Stamp: Equatable, Sendable {
        var device: UInt64, inode: UInt64, size: Int64
        var modified: (seconds: Int, nanoseconds: Int), changed: (seconds: Int, nanoseconds: Int)

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
            changed = (Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec))
        }

        init?(_ fields: [Substring]) {
            guard fields.count == 7, let device = UInt64(fields[0]), let inode = UInt64(fields[1]), let size = Int64(fields[2]),
                  let mSeconds = Int(fields[3]), let mNanoseconds = Int(fields[4]),
                  let cSeconds = Int(fields[5]), let cNanoseconds = Int(fields[6]) else { return nil }
            self.device = device
            self.inode = inode
            self.size = size
            modified = (mSeconds, mNanoseconds)
            changed = (cSeconds, cNanoseconds)
        }

        var fields: String {
            "\(device) \(inode) \(size) \(modified.seconds) \(modified.nanoseconds) \(changed.seconds) \(changed.nanoseconds)"
        }

        static func == (a: Stamp, b: Stamp) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size && a.modified == b.modified && a.changed == b.changed
        }

        /// The later of the modification and change times, in seconds since 1970.
        var lastChange: Double {
            max(Double(modified.seconds) + Double(modified.nanoseconds) / 1e9, Double(changed.seconds) + Double(changed.nanoseconds) / 1e9)
        }
    }

    private struct Entry: Sendable {
        var stamp: Stamp
        var hash: String
        /// Looked up or hashed in this run.
        var used: Bool
    }

    /// A file changed less than this many seconds before it was hashed is hashed again next time.
    static let racyInterval: Double = 2
    static let fileName = ".source-hashes"
    private static let header = "inkwell source hashes 1"

    /// Where the hashes are kept (nil: in memory only).
    let url: URL?
    private let entries: Locked<[String: Entry]>
    private let reads = Locked(0)
    /// Whether an entry was added, changed or dropped since the hashes were loaded.
    private let changed = Locked(false)
    /// Files read to be hashed so far (not found with their stamp).
    var filesRead: Int { reads.withLock { $0 } }
    /// The clock, in seconds since 1970 (a test sets it).
    private let now: @Sendable () -> Double

    /// The hashes kept in `library` (none, when there are none yet or they cannot be read).
    init(library: Library, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        url = library.root.appendingPathComponent(SourceHashes.fileName)
        entries = Locked(SourceHashes.load(url!))
        self.now = now
    }

    /// No hashes kept from before, and none written: each file is read once (a source imported
    /// without a library's hashes, such as a document's hash worked out alone).
    init() {
        url = nil
        entries = Locked([:])
        now = { Date().timeIntervalSince1970 }
    }

    /// The hash (``FNV1a/hex(_:)``) of the bytes of the regular file `url`; nil when there is none
    /// there (missing, or a folder). Reads the file only when its stamp is not the one kept.
    func hash(_ url: URL) throws(ImportError) -> String? {
        try hash(atPath: url.path)
    }

    /// ``hash(_:)`` of the file at `path` (an absolute path; a name that is not UTF-8 read with U+FFFD).
    func hash(atPath path: String) throws(ImportError) -> String? {
        guard let before = SourceHashes.stamp(path) else { return nil }
        if let kept = entries.withLock({ entries -> String? in
            guard let entry = entries[path], entry.stamp == before.stamp else { return nil }
            entries[path]?.used = true
            return entry.hash
        }) { return kept }
        guard before.isFile else { return nil }
        let startedAt = now()
        let data: Data
        do {
            data = try RawPath.read(URL(fileURLWithPath: path))
        } catch {
            throw ImportError(file: path, reason: "cannot read: \(error.localizedDescription)")
        }
        // Through its bytes in place: Data's own iterator is a call per byte (42% of a sync that
        // hashed a 62 MB backup).
        let hash = data.withUnsafeBytes { FNV1a.hex($0) }
        reads.withLock { $0 += 1 }
        // Kept only when it did not change while read, nor so shortly before that a change in the
        // same clock tick could follow unseen.
        if let after = SourceHashes.stamp(path), after.stamp == before.stamp, before.stamp.lastChange < startedAt - SourceHashes.racyInterval {
            entries.withLock { $0[path] = Entry(stamp: before.stamp, hash: hash, used: true) }
            changed.withLock { $0 = true }
        } else if entries.withLock({ $0.removeValue(forKey: path) }) != nil {
            changed.withLock { $0 = true }
        }
        return hash
    }

    /// Writes the hashes back when they changed (replacing the file at once, so a reader sees the
    /// old or the new).
    /// With `folder`, the entries inside it not used since they were loaded are dropped: their files
    /// are gone from it. A failure to write costs only the next run's hashing, and is not reported.
    func save(pruning folder: URL? = nil) {
        guard let url else { return }
        let prefix = folder.map { $0.standardizedFileURL.path.hasSuffix("/") ? $0.standardizedFileURL.path : $0.standardizedFileURL.path + "/" }
        func gone(_ path: String, _ entry: Entry) -> Bool { prefix.map { !entry.used && path.hasPrefix($0) } ?? false }
        // Nothing learned and nothing gone: nothing written.
        guard changed.withLock({ $0 }) || entries.withLock({ $0.contains { gone($0.key, $0.value) } }) else { return }
        var body = ""
        entries.withLock { entries in
            for (path, entry) in entries.sorted(by: { $0.key < $1.key }) where !gone(path, entry) {
                body += "\(entry.hash) \(entry.stamp.fields) \(path)\0"
            }
        }
        let bytes = Array("\(SourceHashes.header) \(FNV1a.hex(body.utf8))\n\(body)".utf8)
        // Written beside it and renamed over it, not synced: after a power cut it may be empty or
        // cut short, which its checksum tells (a cache is not worth an fsync per sync).
        let temporary = url.path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        let written = (try? DurableFile.writeAll(fd, bytes)) != nil
        close(fd)
        if written { rename(temporary, url.path) }
    }

    private static func load(_ url: URL) -> [String: Entry] {
        guard let data = try? Data(contentsOf: url), let newline = data.firstIndex(of: 0x0A) else { return [:] }
        let head = String(decoding: data[..<newline], as: UTF8.self)
        let body = data[(newline + 1)...]
        guard head == "\(header) \(body.withUnsafeBytes { FNV1a.hex($0) })" else { return [:] }
        var entries: [String: Entry] = [:]
        entries.reserveCapacity(body.count / 150)
        body.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: 0) ?? bytes.count
                defer { start = end + 1 }
                // hash, 7 numbers, then the path (which may hold spaces): 8 spaces before it.
                var spaces: [Int] = []
                var index = start
                while index < end, spaces.count < 8 {
                    if bytes[index] == 0x20 { spaces.append(index) }
                    index += 1
                }
                guard spaces.count == 8, spaces[0] - start == 16 else { continue }
                func field(_ from: Int, _ to: Int) -> Substring {
                    Substring(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self))
                }
                let numbers = (0..<7).map { field(spaces[$0] + 1, spaces[$0 + 1]) }
                guard let stamp = Stamp(numbers) else { continue }
                let path = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(spaces[7] + 1)..<end]), as: UTF8.self)
                entries[path] = Entry(stamp: stamp, hash: String(field(start, spaces[0])), used: false)
            }
        }
        return entries
    }

    /// `stat` of what `path` names (following links), through ``RawPath`` when its name is not UTF-8.
    private static func stamp(_ path: String) -> (stamp: Stamp, isFile: Bool)? {
        var info = stat()
        // RawPath finds a name that is not UTF-8 (read with U+FFFD); any other path not there is not there.
        guard stat(path, &info) == 0
                || (path.contains("\u{FFFD}") && RawPath.withSystemPath(URL(fileURLWithPath: path), { stat($0, &info) }) == 0)
        else { return nil }
        return (Stamp(info), (info.st_mode & S_IFMT) == S_IFREG)
    }

    /// The names in the folder at `path` (`.` and `..` left out; a name that is not UTF-8 read with
    /// U+FFFD, which ``hash(atPath:)`` finds again); none when it cannot be listed.
    static func names(in path: String) -> [String] {
        guard let stream = opendir(path) ?? (path.contains("\u{FFFD}") ? RawPath.withSystemPath(URL(fileURLWithPath: path), { opendir($0) }) : nil)
        else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
