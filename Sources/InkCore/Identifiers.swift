/// Identifiers for notes and pages: 12 characters of lowercase Crockford base32 (60 random bits),
/// short enough to type, long enough never to collide in one library.
public protocol InkIdentifier: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    var rawValue: String { get }
    init(rawValue: String)
}

extension InkIdentifier {
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// A new random identifier.
    public static func random() -> Self {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A new identifier drawn from `generator` (tests pass a seeded one).
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> Self {
        let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")
        let bits = generator.next() as UInt64
        let text = (0..<12).map { alphabet[Int((bits >> (UInt64($0) * 5)) & 31)] }
        return Self(rawValue: String(text))
    }

    /// True when `text` is a well-formed identifier (safe to use as a file name).
    public static func isWellFormed(_ text: String) -> Bool {
        text.count == 12 && text.allSatisfy { "0123456789abcdefghjkmnpqrstvwxyz".contains($0) }
    }
}

/// Identifies a note in a library.
public struct NoteID: InkIdentifier {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(from decoder: Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Identifies a page within a library.
public struct PageID: InkIdentifier {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(from decoder: Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
