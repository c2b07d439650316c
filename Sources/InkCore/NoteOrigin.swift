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

    public init(kind: Kind, key: String, hash: String, pages: [OriginPage] = []) {
        self.kind = kind
        self.key = key
        self.hash = hash
        self.pages = pages
    }
}

/// One page of a note's source: its key there (a reMarkable page UUID; else its number from 1) and the
/// hash of the bytes it was read from.
public struct OriginPage: Sendable, Hashable, Codable {
    public var key: String
    public var hash: String

    public init(key: String, hash: String) {
        self.key = key
        self.hash = hash
    }
}

/// The 64-bit FNV-1a hash: cheap, and enough to tell whether bytes changed (not a defence against
/// anyone crafting collisions).
public enum FNV1a {
    /// The hash of `bytes`.
    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The hash of `bytes` as 16 lowercase hex digits.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = String(hash(bytes), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
