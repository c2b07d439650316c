import Foundation
import InkCore

/// What ``Library/upgrade()`` did.
public struct LibraryUpgrade: Sendable, Codable, Equatable {
    /// The format before and after.
    public var from: Int
    public var to: Int
    /// The copy of the marker it replaced (nil when nothing changed).
    public var backup: String?
    /// What changed, one line each.
    public var changes: [String]
}

extension Library {
    /// Brings a library in an older format to this build's (``LibraryFormat``), explicitly: nothing is
    /// migrated silently. Format 1 → 2 changes only the marker (format-1 pages are valid format-2 pages);
    /// the old marker is kept beside it as `inkwell-library.json.format-N`. A library already in this
    /// build's format is left alone; a newer one is refused. Returns what was done; open the library
    /// again to write into it.
    public func upgrade() throws -> LibraryUpgrade {
        guard !format.isWritable else {
            return LibraryUpgrade(from: format.format, to: format.format, backup: nil, changes: [])
        }
        guard format.needsUpgrade else {
            throw StoreError.unsupportedLibrary(root, "this library is in format \(format.format), newer than this Inkwell writes "
                + "(format \(LibraryFormat.current)): it cannot be upgraded, only read")
        }
        guard Library.held == .none else {
            throw StoreError.invalid("an upgrade was attempted inside another library operation (a bug: please report it)")
        }
        return try lock.withExclusive {
            let marker = root.appendingPathComponent(Library.markerName)
            let before = try DurableFile.read(marker)
            // Read again under the lock: another process may have upgraded it meanwhile.
            let current = try LibraryFormat.read(libraryAt: root)
            guard current.needsUpgrade else {
                return LibraryUpgrade(from: current.format, to: current.format, backup: nil, changes: [])
            }
            // A backup from an earlier upgrade of a restored library is kept too: the next free name.
            let name = FreeName.first("\(Library.markerName).format-\(current.format)", suffix: "") {
                FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
            }
            let backup = root.appendingPathComponent(name)
            try DurableFile.replace(backup, with: before)
            var upgraded = LibraryFormat.new(created: Date())
            upgraded.created = current.created
            try JSONFile.write(upgraded, to: marker)
            return LibraryUpgrade(from: current.format, to: upgraded.format, backup: backup.path, changes: [
                "\(Library.markerName): format \(current.format) → \(upgraded.format) (pages and notes are read as they are; "
                    + "Inkwell 0.1.0 still reads the library, and no longer writes into it, so it cannot drop layers, printed text, "
                    + "fills, dashes or PDF backgrounds when it rewrites a page)",
            ])
        }
    }
}
