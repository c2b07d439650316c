import Foundation
import InkCore
import InkStore
import InkText

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
