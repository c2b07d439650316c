import Foundation
import InkCore
import InkStore

/// Cheap identity of a page file's current version, as the index records it: size and modification time.
public enum PageFileSignature {
    /// The signature of the file at `url` (`missing` when it cannot be read).
    public static func of(_ url: URL) -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return "missing" }
        let size = attributes[.size] as? Int ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(size):\(modified)"
    }
}

/// A 64-bit FNV-1a hash: enough to tell whether a page's (or an export's) content changed.
public enum ContentHash {
    /// The hash of `bytes`.
    public static func of(_ bytes: [UInt8]) -> UInt64 {
        FNV1a.hash(bytes)
    }

    /// The hash of a page's canonical encoding: the same whatever appends and compactions made the file.
    public static func of(page: Page) -> String {
        let canonical = (try? PageCodec.encodeFile(page)) ?? []
        return String(of(canonical), radix: 16)
    }
}
