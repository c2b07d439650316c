import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file or folder an interrupted write left in the library: a temporary file of
/// ``DurableFile/replace(_:with:)`` whose writer is gone, the staging area of an import whose
/// process died, a trash entry a delete or restore left empty, or one an emptying of the trash was
/// removing. Nothing in it is part of the
/// library: the write it belonged to either completed under the real name or never happened.
public struct Leftover: Sendable, Equatable, Codable {
    public var path: String
    public var bytes: Int
}

extension Library {
    /// A temporary file whose name does not say who wrote it (written by a release before the pid
    /// was in the name) is a leftover once it is this old: no write takes anywhere near as long.
    static let unnamedWriterAge: TimeInterval = 3600

    /// The leftovers of interrupted writes, anywhere in the library except the drop folder (whose
    /// files belong to whoever is writing them there).
    public func leftovers() -> [Leftover] {
        var found: [Leftover] = []
        let fm = FileManager.default
        if let areas = try? fm.contentsOfDirectory(atPath: stagingFolder.path) {
            for area in areas where Library.processIsGone(stagingArea: area) {
                let url = stagingFolder.appendingPathComponent(area)
                found.append(Leftover(path: url.path, bytes: Library.size(of: url)))
            }
        }
        for entry in emptyTrashEntries() + emptyingTrashEntries() {
            found.append(Leftover(path: entry.path, bytes: Library.size(of: entry)))
        }
        let skipped = Set([dropFolder.standardizedFileURL.path, stagingFolder.standardizedFileURL.path])
        guard let walk = fm.enumerator(at: root, includingPropertiesForKeys: [.contentModificationDateKey, .fileSizeKey]) else {
            return found
        }
        for case let url as URL in walk {
            if skipped.contains(url.standardizedFileURL.path) {
                walk.skipDescendants()
                continue
            }
            if Library.isStaleTemporary(url) {
                found.append(Leftover(path: url.path, bytes: Library.size(of: url)))
            }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// Removes the leftovers of interrupted writes (under the write lock, so no write of this
    /// library is under way) and says what went.
    @discardableResult
    public func removeLeftovers() throws -> [Leftover] {
        try withWriteLock {
            let found = leftovers()
            for leftover in found { try? FileManager.default.removeItem(atPath: leftover.path) }
            return found
        }
    }

    /// Removes stale temporary files from one folder (a note's, before it is written again).
    static func removeStaleTemporaries(in folder: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasSuffix(".tmp") {
            let url = folder.appendingPathComponent(name)
            if isStaleTemporary(url) { try? FileManager.default.removeItem(at: url) }
        }
    }

    /// True for a temporary file of ``DurableFile`` whose writer no longer runs (or, unnamed, is old).
    static func isStaleTemporary(_ url: URL) -> Bool {
        guard let writer = DurableFile.writer(ofTemporary: url.lastPathComponent) else { return false }
        if let pid = writer { return pid != getpid() && processIsGone(pid) }
        let modified = (try? url.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? Date()
        return Date().timeIntervalSince(modified) > unnamedWriterAge
    }

    /// Staging areas are named `PID-ID`: the area of a process that no longer runs is abandoned.
    static func processIsGone(stagingArea name: String) -> Bool {
        guard let pid = Int32(name.split(separator: "-").first ?? "") else { return false }
        return pid != getpid() && processIsGone(pid)
    }

    static func processIsGone(_ pid: Int32) -> Bool {
        kill(pid, 0) != 0 && errno == ESRCH
    }

    private static func size(of url: URL) -> Int {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isFolder) else { return 0 }
        guard isFolder.boolValue else { return (try? fm.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0 }
        var total = 0
        for case let file as URL in fm.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey]) ?? FileManager.DirectoryEnumerator() {
            let values = try? file.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
            if values?.isRegularFile == true { total += values?.fileSize ?? 0 }
        }
        return total
    }
}
