import Foundation

/// Where an imported note came from: the identity a later import of the same source matches, so that
/// importing again updates the note (pages added, replaced or removed) instead of adding a second one.
public struct NoteOrigin: Sendable, Hashable, Codable {
    /// What the key names.
    public enum Kind: String, Sendable, Codable {
        /// A reMarkable document, keyed by its UUID (the same in every backup of the tablet).
        case remarkable
        /// A file, keyed by its absolute path.
        case file
    }

    public var kind: Kind
    public var key: String
    /// The hash of everything the source was read from (``FNV1a/hex(_:)``): equal means unchanged.
    public var hash: String
    /// The source's pages in reading order, each with its own key and hash, so that an update replaces
    /// only the pages that changed. Empty where the source cannot tell its pages apart.
    public var pages: [OriginPage]
    /// Where the source was last read from (an absolute path; for a file, its key), so that
    /// `inkwell sync DIR` can tell which notes came from DIR and which of those are gone from it.
    public var location: String?
    /// The tags the source gave the note when it was last imported (a reMarkable document's and
    /// pages' tags), so that an update removes those the source has dropped and no other (nil:
    /// imported before this was kept, and then nothing is removed).
    public var tags: [String]?
    /// ``FNV1a/hex(_:)`` of the typed text the last import wrote (the source's: a reMarkable document's
    /// typed text and highlighted quotes), so that an update refreshes the text only when it was not
    /// edited in Inkwell since (nil: imported before this was kept).
    public var text: String?
    /// What the last import from the source did not keep (skipped, mapped to something else, clipped,
    /// not placed), each with its file, page and reason: the note's own list, which `note show` prints
    /// (nil: nothing, or imported before this was kept).
    public var notKept: [NotKept]?

    public init(kind: Kind, key: String, hash: String, pages: [OriginPage] = [], location: String? = nil) {
        self.kind = kind
        self.key = key
        self.hash = hash
        self.pages = pages
        self.location = location
    }

    /// True when `other` names the same source (kind and key; hashes may differ).
    public func isSameSource(as other: NoteOrigin) -> Bool { kind == other.kind && key == other.key }
}

/// One page of a note's source: its key there (a reMarkable page UUID; else its number from 1) and the
/// hash of the bytes it was read from. Once imported, it also names the note's page the import made
/// of it and the hash of that page's file as the import wrote it: a page file that no longer has that
/// hash was changed in Inkwell since, so an update must not drop it.
public struct OriginPage: Sendable, Hashable, Codable {
    public var key: String
    public var hash: String
    /// The note's page made of this source page (set by the importer).
    public var page: PageID?
    /// ``FNV1a/hex(_:)`` of that page's file as the import wrote it (set by the importer).
    public var imported: String?

    public init(key: String, hash: String, page: PageID? = nil, imported: String? = nil) {
        self.key = key
        self.hash = hash
        self.page = page
        self.imported = imported
    }
}

/// The 64-bit FNV-1a hash: cheap, and enough to tell whether bytes changed (not a defence against
/// anyone crafting collisions). Inlinable, so that a caller's `Data` or `[UInt8]` is hashed by a loop
/// specialised for it, at memory speed (an unchanged import source costs its hash and nothing else).
public enum FNV1a {
    /// The hash of `bytes`.
    @inlinable
    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The hash of `bytes` as 16 lowercase hex digits.
    @inlinable
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = String(hash(bytes), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
