import InkCore
import InkIndex
import InkStore

/// What follows a change of notes' tags, the same on every path (import, ingest, `index`,
/// `note text`, `note tag`): the routing rules file the notes out of the Inbox
/// (``Library/applyRoutes(to:dryRun:)``), and the search index, when there is one, learns the notes'
/// new tags and places.
public struct AfterChange {
    public let library: Library
    /// The index to keep up to date (nil: none yet; it catches up when next opened).
    public let index: (any IndexBackend)?

    public init(library: Library, index: (any IndexBackend)?) {
        self.library = library
        self.index = index
    }

    /// Applies the policy to `notes`, whose tags just changed; returns the notes the rules moved.
    @discardableResult
    public func tagsChanged(_ notes: Set<NoteID>) throws -> [RoutedNote] {
        guard !notes.isEmpty else { return [] }
        let routed = try library.applyRoutes(to: notes)
        if let index {
            try index.update(try library.notes().filter { notes.contains($0.note.id) }, library: library, complete: false)
        }
        return routed
    }
}

extension Library {
    /// The tags recognition snaps a hashtag reading to, on every path: every tag in the library,
    /// every tag a routing rule asks for (so `#work` in a rule helps `#work` in the handwriting to be
    /// read right), and `extra` (the tags of recordings being imported).
    public func knownTags(adding extra: some Sequence<Tag> = [Tag]()) throws -> Set<Tag> {
        Set(try notes().flatMap(\.note.tags)).union(try routeRules().flatMap(\.tags)).union(extra)
    }

    /// The words the library's owner writes — in titles, tags and typed text — which recognition
    /// counts as words besides the system word list: names, jargon and abbreviations a dictionary
    /// lacks. Words of two or more letters, case folded.
    public func vocabulary() throws -> Set<String> {
        var words = Set<String>()
        func add(_ text: String) {
            for word in text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "'") }) where word.count >= 2 {
                words.insert(word.lowercased())
            }
        }
        for stored in try notes() {
            add(stored.note.title)
            for tag in stored.note.tags { add(tag.name.replacingOccurrences(of: "-", with: " ")) }
            add((try? typedTextSource(of: stored)) ?? "")
        }
        return words
    }
}
