import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import InkCore
import InkText

/// What changing a note's typed text did.
public struct TypedTextChange: Sendable {
    /// The note after the change (new modification date, new tags).
    public var stored: StoredNote
    public var text: TypedText
    /// Hashtags of the text that became tags now (not ones the note had, nor ones removed by hand).
    public var addedTags: [Tag]
}

/// A note whose typed text cannot be read, as `check` reports it.
public struct TypedTextReport: Sendable, Equatable {
    public var note: NoteID
    public var noteTitle: String
    public var file: URL
    public var problem: String
}

extension Library {
    /// The typed text of a note lives beside its `note.json`, as plain Markdown.
    static let typedTextName = "body.md"

    /// The file of a note's typed text (missing when the note has none).
    public func typedTextURL(of stored: StoredNote) -> URL {
        stored.folder.appendingPathComponent(Library.typedTextName)
    }

    /// A note's typed text, parsed, empty when it has none. Text that is not UTF-8 throws, naming
    /// the file and the byte.
    public func typedText(of stored: StoredNote) throws -> TypedText {
        TypedText(try typedTextSource(of: stored))
    }

    /// A note's typed text as stored, not parsed (for indexing), "" when it has none; checked like
    /// ``typedText(of:)``.
    public func typedTextSource(of stored: StoredNote) throws -> String {
        try readingNote(stored) { try readTypedText(typedTextURL(of: $0)) }
    }

    /// Replaces a note's typed text and saves it at once (an empty text removes the file). Hashtags
    /// in it become tags, except tags removed by hand.
    @discardableResult
    public func setTypedText(_ text: String, of id: NoteID) throws -> TypedTextChange {
        try changeTypedText(id) { _ in TypedText(text) }
    }

    /// Adds `text` at the end of a note's typed text, on a line of its own.
    @discardableResult
    public func appendTypedText(_ text: String, to id: NoteID) throws -> TypedTextChange {
        try changeTypedText(id) { $0.appending(text) }
    }

    /// Ticks or opens the checkbox on line `line` (1-based) and saves at once. A line that is not a
    /// checkbox throws and changes nothing.
    @discardableResult
    public func toggleCheckbox(line: Int, of id: NoteID) throws -> (change: TypedTextChange, toggle: CheckboxToggle) {
        var toggle: CheckboxToggle?
        let change = try changeTypedText(id) { current in
            let done = try current.togglingCheckbox(line: line)
            toggle = done
            return done.text
        }
        guard let toggle else { throw StoreError.invalid("line \(line) was not changed") }
        return (change, toggle)
    }

    /// Every note whose typed text is not UTF-8 (or cannot be read).
    public func checkTypedTexts() throws -> [TypedTextReport] {
        try notes().compactMap { stored in
            do {
                _ = try typedTextSource(of: stored)
                return nil
            } catch let error as StoreError {
                let problem = switch error {
                case .badText(_, let reason), .io(_, let reason): reason
                default: "\(error)"
                }
                return TypedTextReport(note: stored.note.id, noteTitle: stored.note.title,
                                       file: typedTextURL(of: stored), problem: problem)
            }
        }
    }

    /// Reads, changes and writes a note's typed text under the lock, then its tags and date.
    private func changeTypedText(_ id: NoteID, _ change: (TypedText) throws -> TypedText) throws -> TypedTextChange {
        try withWriteLock {
            var stored = try locateNote(id)
            let url = typedTextURL(of: stored)
            let current = TypedText(try readTypedText(url))
            let text: TypedText
            do {
                text = try change(current)
            } catch let error as TypedTextError {
                throw StoreError.invalid("note \(id) \"\(stored.note.title)\": \(error)")
            }
            let writer = NoteFolderWriter(folder: stored.folder)
            let new = stored.note.adopt(hashtags: text.hashtags)
            let added = text.hashtags.filter(new.contains)
            stored.note.modified = Date().wholeSeconds
            // The metadata first, then the text: a crash between the two leaves the new tags beside the
            // old text (a tag without its hashtag, as one added by hand), never a hashtag in the text
            // that is not a tag. `scripts/crash-states.py` checks this at every point.
            try writer.writeMetadata(stored.note)
            try writer.writeTypedText(text)
            return TypedTextChange(stored: stored, text: text, addedTags: added)
        }
    }

    func readTypedText(_ url: URL) throws -> String {
        guard FileManager.default.fileExists(atPath: url.path) else { return "" }
        do {
            return try TypedText.decode(try DurableFile.read(url))
        } catch let error as TypedTextError {
            throw StoreError.badText(url, error.description)
        }
    }
}
