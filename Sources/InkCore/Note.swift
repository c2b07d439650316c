import Foundation

/// A tag on a note: lowercase letters, digits, `-`, `_` and `/`, without the leading `#`.
public struct Tag: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public let name: String

    /// Normalises `text` (drops one leading `#`, lowercases); nil when nothing valid remains.
    public init?(_ text: String) {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        if body.hasPrefix("#") { body = body.dropFirst() }
        let lowered = body.lowercased()
        guard !lowered.isEmpty, lowered.count <= 64,
              lowered.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || "-_/".unicodeScalars.contains($0) }),
              lowered.first != "/", lowered.last != "/"
        else { return nil }
        name = lowered
    }

    public var description: String { name }
    public static func < (lhs: Tag, rhs: Tag) -> Bool { lhs.name < rhs.name }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let tag = Tag(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a tag: \(text)"))
        }
        self = tag
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// Where a notebook sits in the library: `Work/Meetings` is `["Work", "Meetings"]`.
/// The empty path is the library's root.
public struct NotebookPath: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public let components: [String]

    /// The library's root, which holds the top-level notebooks.
    public static let root = NotebookPath(validated: [])
    /// The notebook that receives new notes and imports unless told otherwise.
    public static let inbox = NotebookPath(validated: ["Inbox"])

    private init(validated: [String]) { components = validated }

    /// Parses `Work/Meetings` (doubled and trailing `/` are forgiven, as a shell does); throws ``NotebookPathError`` naming the
    /// bad component. A path starting with `/` is refused rather than quietly read as relative:
    /// notebooks live inside the library, and `/etc` is not what it looks like there.
    public init(_ text: String) throws {
        if text.hasPrefix("/") {
            throw NotebookPathError(name: text, reason: "starts with '/': notebook paths start inside the library (\"Work/Meetings\")")
        }
        try self.init(components: text.split(separator: "/").map(String.init))
    }

    public init(components: [String]) throws {
        for name in components { try NotebookPath.validate(name: name) }
        self.components = components
    }

    public var description: String { components.joined(separator: "/") }
    public var name: String { components.last ?? "" }
    public var isRoot: Bool { components.isEmpty }
    public var parent: NotebookPath { NotebookPath(validated: Array(components.dropLast())) }

    public func appending(_ name: String) throws -> NotebookPath {
        try NotebookPath(components: components + [name])
    }

    /// True when `self` is `other` or lies inside it.
    public func isWithin(_ other: NotebookPath) -> Bool {
        components.starts(with: other.components)
    }

    public static func < (lhs: NotebookPath, rhs: NotebookPath) -> Bool {
        lhs.components.lexicographicallyPrecedes(rhs.components)
    }

    /// A notebook name becomes a folder name, so it must be safe as one on every platform we run on.
    public static func validate(name: String) throws {
        func fail(_ reason: String) -> NotebookPathError { NotebookPathError(name: name, reason: reason) }
        if name.isEmpty { throw fail("is empty") }
        if name == "." || name == ".." { throw fail("is a relative path component") }
        if name.hasPrefix(".") { throw fail("starts with '.', which would hide it") }
        if name.hasSuffix(".note") { throw fail("ends with '.note', which marks note folders") }
        if name.utf8.count > 200 { throw fail("is longer than 200 bytes") }
        if name.contains("/") || name.contains("\\") { throw fail("contains a path separator") }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw fail("contains a control character")
        }
        if name != name.trimmingCharacters(in: .whitespaces) { throw fail("starts or ends with a space") }
    }
}

/// Why a notebook name was refused.
public struct NotebookPathError: Error, CustomStringConvertible, Sendable {
    public let name: String
    public let reason: String
    public var description: String { "notebook name \"\(name)\" \(reason)" }
}

/// A note's metadata: what `note.json` holds. Its pages are stored one file each.
public struct Note: Sendable, Hashable, Codable, Identifiable {
    public var id: NoteID
    public var title: String
    public var created: Date
    public var modified: Date
    public var pinned: Bool
    public var tags: Set<Tag>
    /// Tags the user removed by hand; recognition must not add them back.
    public var removedTags: Set<Tag>
    /// Pages in reading order.
    public var pages: [PageID]
    /// Where the note came from: `user`, `import:jsonl`, `import:rm`, …
    public var source: String
    /// The source an imported note was read from, which importing it again updates it from; nil for
    /// notes written in Inkwell (and notes imported before origins were kept).
    public var origin: NoteOrigin?

    public init(id: NoteID, title: String, created: Date, modified: Date? = nil, pinned: Bool = false,
                tags: Set<Tag> = [], removedTags: Set<Tag> = [], pages: [PageID] = [], source: String = "user",
                origin: NoteOrigin? = nil) {
        self.id = id
        self.title = title
        self.created = created
        self.modified = modified ?? created
        self.pinned = pinned
        self.tags = tags
        self.removedTags = removedTags
        self.pages = pages
        self.source = source
        self.origin = origin
    }
}

/// A note's tags with the tags the user removed by hand, and the rules every path follows: hashtags
/// (recognised in the handwriting or typed in the text) are adopted unless removed by hand; a tag
/// added by hand is no longer "removed"; a tag removed by hand is remembered, so no later
/// recognition adds it back.
public struct NoteTags: Sendable, Hashable {
    public private(set) var tags: Set<Tag>
    /// Tags the user removed by hand.
    public private(set) var removedByHand: Set<Tag>

    public init(tags: Set<Tag> = [], removedByHand: Set<Tag> = []) {
        self.tags = tags
        self.removedByHand = removedByHand
    }

    /// Adds the hashtags not removed by hand; returns those that were new.
    @discardableResult
    public mutating func adopt(hashtags: some Sequence<Tag>) -> Set<Tag> {
        let added = Set(hashtags).subtracting(tags).subtracting(removedByHand)
        tags.formUnion(added)
        return added
    }

    /// Adds tags by hand (they stop counting as removed).
    public mutating func tag(_ added: some Sequence<Tag>) {
        tags.formUnion(added)
        removedByHand.subtract(added)
    }

    /// Removes tags by hand (remembered, so recognition does not add them back).
    public mutating func untag(_ removed: some Sequence<Tag>) {
        tags.subtract(removed)
        removedByHand.formUnion(removed)
    }

    /// Removes tags a note's source no longer gives it: not by hand, so not remembered (the source
    /// may give them again).
    public mutating func drop(_ removed: some Sequence<Tag>) {
        tags.subtract(removed)
    }
}

extension Note {
    /// The note's tags under the tag rules (``NoteTags``).
    public var tagging: NoteTags {
        get { NoteTags(tags: tags, removedByHand: removedTags) }
        set {
            tags = newValue.tags
            removedTags = newValue.removedByHand
        }
    }

    /// Adds hashtags found in the note, except those removed by hand; returns the tags that were new.
    @discardableResult
    public mutating func adopt(hashtags: some Sequence<Tag>) -> Set<Tag> { tagging.adopt(hashtags: hashtags) }

    /// Adds tags by hand.
    public mutating func tag(_ added: some Sequence<Tag>) { tagging.tag(added) }

    /// Removes tags by hand, remembering them.
    public mutating func untag(_ removed: some Sequence<Tag>) { tagging.untag(removed) }

    /// Removes tags its source no longer gives, not remembering them (``NoteTags/drop(_:)``).
    public mutating func drop(tags removed: some Sequence<Tag>) { tagging.drop(removed) }
}
