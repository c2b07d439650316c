import Foundation
import InkwellKit

/// Page thumbnails (the first page's for the library's cards, a matching page's for search), kept in
/// memory by the note's content version (its pages and modification time), so each is rendered once.
final class ThumbnailCache: Sendable {
    private let cache = Locked<[String: [UInt8]]>([:])

    static func version(of entry: NoteEntry) -> String {
        var hasher = Hasher()
        hasher.combine(entry.note.pages)
        let pages = UInt64(bitPattern: Int64(hasher.finalize())) % 1_000_000
        return "\(Int(entry.note.modified.timeIntervalSince1970))-\(pages)"
    }

    /// The thumbnail of page `page` (1-based) of `entry` as it is now, made by `make` (nil: the note has
    /// no such page) unless kept.
    func thumbnail(of entry: NoteEntry, page: Int, make: () throws -> [UInt8]?) throws -> [UInt8]? {
        let key = "\(entry.note.id.rawValue)/\(page)/\(Self.version(of: entry))"
        if let hit = cache.withLock({ $0[key] }) { return hit }
        guard let png = try make() else { return nil }
        cache.withLock { cache in
            if cache.count > 5000 { cache.removeAll() }
            cache[key] = png
        }
        return png
    }
}
