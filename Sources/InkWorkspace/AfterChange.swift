import InkCore
import InkIndex
import InkStore

/// What follows a change of notes' tags, the same on every path (import, ingest, `index`,
/// `note text`, `note tag`): the routing rules file the notes out of the Inbox
/// (``Library/applyRoutes(to:dryRun:)``), and the search index, when there is one, learns the notes'
/// new tags and places.
package struct AfterChange {
    package let library: Library
    /// The index to keep up to date (nil: none yet; it catches up when next opened).
    package let index: (any IndexBackend)?

    package init(library: Library, index: (any IndexBackend)?) {
        self.library = library
        self.index = index
    }

    /// Applies the policy to `notes`, whose tags just changed; returns the notes the rules moved.
    @discardableResult
    package func tagsChanged(_ notes: Set<NoteID>) throws -> [RoutedNote] {
        guard !notes.isEmpty else { return [] }
        let routed = try library.applyRoutes(to: notes)
        if let index {
            try index.update(try library.notes().filter { notes.contains($0.note.id) }, library: library, complete: false)
        }
        return routed
    }
}

extension Library {
    /// The words the library's owner writes — in titles, tags and typed text — as the
    /// ``RecognitionContext`` counts them.
    package func vocabulary() throws -> Set<String> {
        RecognitionContext.vocabulary(of: try notes().map { stored in
            NoteWords(title: stored.note.title, tags: stored.note.tags, typedText: (try? typedTextSource(of: stored)) ?? "")
        })
    }
}
