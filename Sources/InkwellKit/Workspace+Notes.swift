import Foundation
import InkCore
import InkIndex
import InkStore
import InkWorkspace

/// A note and the notebook it is in, as front ends see it (where it lies on disk is the library's
/// business).
public struct NoteEntry: Sendable, Equatable {
    let stored: StoredNote

    public var note: Note { stored.note }
    public var notebook: NotebookPath { stored.notebook }

    init(_ stored: StoredNote) { self.stored = stored }
}

/// Where a note goes in its notebook's manual order.
public enum NotePlace: Sendable, Equatable {
    case first
    case last
    /// Just above this note.
    case before(NoteID)
    /// Just below this note.
    case after(NoteID)

    var placement: NotePlacement {
        switch self {
        case .first: .first
        case .last: .last
        case .before(let other): .before(other)
        case .after(let other): .after(other)
        }
    }
}

/// What went wrong in the library, as a front end answers it.
public enum LibraryFailure: Sendable, Equatable {
    /// No such note, notebook or trash entry.
    case notFound
    /// The notebook exists already, or a reference names several notes.
    case conflict
    /// Another process holds the library's lock.
    case busy
    /// The request itself is wrong (a bad title, a move into itself…).
    case invalid
    /// Anything else the library refused (damage, I/O).
    case other

    /// The kind of `error` when it is the library's, else nil.
    public init?(_ error: any Error) {
        guard let error = error as? StoreError else { return nil }
        switch error {
        case .noSuchNote, .noSuchNotebook, .noSuchTrashItem: self = .notFound
        case .notebookExists, .ambiguousNote, .noteOpen: self = .conflict
        case .locked: self = .busy
        case .invalid: self = .invalid
        default: self = .other
        }
    }
}

/// Notes, notebooks and the trash: reading and organising them.
extension Workspace {
    /// Notes in `notebook` and the notebooks inside it, in listing order.
    public func notes(in notebook: NotebookPath = .root) throws -> [NoteEntry] {
        try library.notes(in: notebook).map(NoteEntry.init)
    }

    /// The note a reference names: its id, a unique id prefix (4+ characters) or its exact title.
    public func note(matching reference: String) throws -> NoteEntry {
        NoteEntry(try library.note(matching: reference))
    }

    /// The note with exactly this id (never a title or prefix: for ids that come from URLs).
    public func note(id: NoteID) throws -> NoteEntry {
        NoteEntry(try stored(id))
    }

    func stored(_ id: NoteID) throws -> StoredNote {
        guard let stored = try library.notes().first(where: { $0.note.id == id }) else { throw StoreError.noSuchNote(id.rawValue) }
        return stored
    }

    /// Every notebook, in listing order.
    public func notebooks() throws -> [NotebookPath] { try library.notebooks() }

    /// Nil when the notebook `path` exists (the Inbox and the root always do); else the notebooks
    /// whose paths are near it by the search's typo rule (case aside), closest first, for "did you mean".
    public func notebookSuggestions(for path: NotebookPath) throws -> [NotebookPath]? {
        let existing = try library.notebooks()
        guard path != .root, path != .inbox, !existing.contains(path) else { return nil }
        let byName = Dictionary(existing.map { ($0.description.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        if let sameButCase = byName[path.description.lowercased()] { return [sameButCase] }
        return SearchPlan.nearest(to: path.description.lowercased(), among: byName.keys.map { (term: $0, uses: 1) }).compactMap { byName[$0] }
    }

    /// `title` as a note's title (trimmed), or the reason it cannot be one.
    public static func validTitle(_ title: String) throws -> String { try Library.validTitle(title) }

    /// A new empty note.
    public func createNote(title: String, in notebook: NotebookPath = .inbox, tags: Set<Tag> = [], pinned: Bool = false) throws -> NoteEntry {
        NoteEntry(try library.createNote(title: title, in: notebook, tags: tags, pinned: pinned))
    }

    /// Changes a note's title and whether it is pinned (nil: as it is).
    public func updateNote(_ id: NoteID, title: String? = nil, pinned: Bool? = nil) throws -> NoteEntry {
        NoteEntry(try library.updateNote(id) { note in
            if let title { note.title = title }
            if let pinned { note.pinned = pinned }
        })
    }

    /// Tags a note by hand and removes tags by hand (remembered, so recognition does not add them back),
    /// then files it by the routing rules: the note as it ends up and where it was filed.
    public func tagNote(_ id: NoteID, add: Set<Tag>, remove: Set<Tag>) throws -> (note: NoteEntry, routed: [Routing]) {
        let (stored, routed) = try tag(id, add: add, remove: remove)
        return (NoteEntry(stored), routed)
    }

    /// Moves a note to another notebook (created if missing), to a place in its notebook's order, or both.
    /// Moving a note a server has open for writing to another notebook is refused unless `force`.
    public func moveNote(_ id: NoteID, to notebook: NotebookPath?, place: NotePlace?, force: Bool = false) throws -> NoteEntry {
        NoteEntry(try library.moveNote(id, to: notebook, placement: place?.placement, force: force))
    }

    /// Moves a note to the trash, with its journal. A note a server has open for writing is refused
    /// (naming the server's pid) unless `force`.
    public func deleteNote(_ id: NoteID, force: Bool = false) throws -> TrashItem {
        try library.deleteNote(id, force: force)
    }

    public func createNotebook(_ path: NotebookPath) throws { try library.createNotebook(path) }

    /// Renames a notebook in place; its new path. Refused while a server has one of its notes open
    /// for writing (the server's own included: the note's pages would move from under it).
    public func renameNotebook(_ path: NotebookPath, to name: String, force: Bool = false) throws -> NotebookPath {
        try library.renameNotebook(path, to: name, force: force)
    }

    /// Moves a notebook, with its notes, to a new path; its new path. Refused as a rename is.
    public func moveNotebook(_ path: NotebookPath, to destination: NotebookPath, force: Bool = false) throws -> NotebookPath {
        try library.moveNotebook(path, to: destination, force: force)
    }

    /// Moves a notebook and everything in it to the trash; refused while a server has one of its
    /// notes open for writing, unless `force`.
    public func deleteNotebook(_ path: NotebookPath, force: Bool = false) throws -> TrashItem {
        try library.deleteNotebook(path, force: force)
    }

    /// The trash, newest first.
    public func trash() throws -> [TrashItem] { try library.trashItems() }

    /// Puts a deleted note or notebook back: `reference` is a trash entry id, a note id or the name it had.
    public func restore(_ reference: String) throws -> TrashItem { try library.restore(reference) }

    /// Deletes everything in the trash for good, with the trashed notes' journals; how many entries.
    /// Refused while a server still has a trashed note open for writing, unless `force`.
    public func emptyTrash(force: Bool = false) throws -> Int { try library.emptyTrash(force: force) }
}
