import Foundation
import InkCore
import InkInterchange
import InkWorkspace

/// A file a front end was given could not be imported, and why (the decoder's reason, without the
/// file name it was given under).
public struct ImportRefused: Error, CustomStringConvertible, Sendable {
    public var reason: String
    public var description: String { reason }
}

/// Files handed to a front end (an upload), imported through the same intake as `inkwell import`.
extension Workspace {
    /// Imports `data`, a PDF, as a note titled `title` in `notebook` to write on (a page per PDF page),
    /// marked as coming from `source`; the note, or nil when the PDF gave none. Not recognised: the
    /// pages have no ink yet.
    public func importPDF(_ data: Data, title: String, notebook: NotebookPath, source: String) throws -> NoteEntry? {
        var importer = Importer(library: library)
        importer.title = title
        importer.notebook = notebook
        importer.source = source
        let outcome: Importer.FileOutcome
        do {
            outcome = try importer.importPDF(data, named: title + ".pdf", replayer: NoteReplayer())
        } catch let error as ImportError {
            throw ImportRefused(reason: error.reason)
        }
        guard let note = outcome.file.notes.first else { return nil }
        return try self.note(id: note.id)
    }
}
