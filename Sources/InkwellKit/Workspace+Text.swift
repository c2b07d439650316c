import Foundation
import InkCore
import InkStore
import InkText
import InkWorkspace

extension Workspace.TextEdit {
    /// The note after the change (new modification date, new tags).
    public var note: NoteEntry { NoteEntry(change.stored) }
    /// The whole text after the change.
    public var text: TypedText { change.text }
    /// Hashtags of the text that became tags now (not ones the note had, nor ones removed by hand).
    public var addedTags: [Tag] { change.addedTags }
}

/// A note's typed text: reading it, where it is, ticking its checkboxes.
extension Workspace {
    /// The typed text of `note` (empty when it has none).
    public func typedText(of note: NoteEntry) throws -> TypedText {
        try library.typedText(of: note.stored)
    }

    /// The file that holds the typed text of `note` (body.md in its folder; it may not exist yet).
    public func typedTextFile(of note: NoteEntry) -> URL {
        library.typedTextURL(of: note.stored)
    }

    /// Ticks (or unticks) the checkbox on `line` (from 1) of the typed text of `note`, saved at once:
    /// the text after, and the line's marker before and after.
    public func toggleCheckbox(line: Int, of note: NoteID) throws -> CheckboxToggle {
        try library.toggleCheckbox(line: line, of: note).toggle
    }
}

/// Editing a note's typed text and tags, then the after-change policy.
extension Workspace {
    /// What a change of typed text did: the change, and where the routing rules filed the note when
    /// the text gave it new tags.
    public struct TextEdit: Sendable {
        var change: TypedTextChange
        public var routed: [RoutedNote]
    }

    /// Replaces the typed text of a note; hashtags in it become tags (``NoteTags``), then ``AfterChange``.
    public func setTypedText(_ text: String, of note: NoteID) throws -> TextEdit {
        try edited(library.setTypedText(text, of: note))
    }

    /// Appends to the typed text of a note; as ``setTypedText(_:of:)``.
    public func appendTypedText(_ text: String, to note: NoteID) throws -> TextEdit {
        try edited(library.appendTypedText(text, to: note))
    }

    private func edited(_ change: TypedTextChange) throws -> TextEdit {
        let routed = change.addedTags.isEmpty ? [] : try afterChange().tagsChanged([change.stored.note.id])
        return TextEdit(change: change, routed: routed)
    }

    /// Tags a note by hand (`add`) and removes tags by hand (`remove`, remembered so recognition
    /// does not add them back), then ``AfterChange``. Returns the note as it ends up and where the
    /// routing rules filed it.
    func tag(_ note: NoteID, add: Set<Tag>, remove: Set<Tag>) throws -> (note: StoredNote, routed: [RoutedNote]) {
        var stored = try library.updateNote(note) { note in
            note.tag(add)
            note.untag(remove)
        }
        let routed = try afterChange().tagsChanged([note])
        if !routed.isEmpty { stored = try library.note(matching: note.rawValue) }
        return (stored, routed)
    }
}
