import Foundation
import InkCore
import InkInterchange
import InkPDF

/// The pages of a pen file read straight from it, replayed through the editor session as
/// `inkwell import` would store them, with nothing written anywhere: `inkwell render FILE` converts
/// `.rm`, `.xopp`, `.inkml`, `.rnote` and replay logs without a library, as `rmc` and
/// `xournalpp --create-pdf` do.
public struct ConvertedFile {
    /// The first note's title, else the file's name without its extension.
    public var title: String
    /// Every page of every note the file holds, in order.
    public var pages: [Page]
    /// What was mended or left out while decoding (as `inkwell import` prints them).
    public var warnings: [String]
    /// The PDFs the pages are drawn on (a `.xopp` annotating a PDF, a PDF), for the renderer.
    public var backgrounds: BackgroundDocuments

    /// Decodes `url` and replays its notes in memory. Errors name the file, the position and the reason.
    public static func read(_ url: URL, replayer: NoteReplayer = NoteReplayer()) throws -> ConvertedFile {
        let recording = try Importer.decode(url)
        let fallback = url.deletingPathExtension().lastPathComponent
        var pages: [Page] = []
        var documents: [String: Data] = [:]
        for var recorded in recording.notes {
            if let background = recorded.background {
                let id = PDFPages.documentID(of: background)
                documents[id] = background
                recorded = recorded.namingBackground(id)
            }
            var note = ScratchNote(title: recorded.title ?? fallback, created: recorded.created ?? Date())
            try replayer.replay(recorded, into: &note)
            pages += try note.pages()
        }
        return ConvertedFile(title: recording.notes.first?.title ?? fallback, pages: pages, warnings: recording.warnings,
                             backgrounds: BackgroundDocuments(documents))
    }
}
