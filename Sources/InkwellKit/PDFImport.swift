import Foundation
import InkCore
import InkInterchange
import InkPDF

/// A PDF to write on, as a recording: one note with a page per PDF page, each the PDF page's size (PDF
/// points, as Xournal++ pages) and drawn on it. The note keeps the PDF (``RecordedNote/background``);
/// exports draw it under the ink (as vectors in PDFs), recognition reads the ink only.
enum PDFImport {
    /// Whether `data` starts like a PDF: `%PDF-` within its first 1,024 bytes, as PDF readers accept.
    static func looksLikePDF(_ data: Data) -> Bool {
        data.prefix(1024).firstRange(of: Data("%PDF-".utf8)) != nil
    }

    static func decode(_ data: Data, file: String) throws(ImportError) -> Recording {
        let document: PDFPages
        do {
            document = try PDFPages(data)
        } catch {
            throw ImportError(file: file, reason: error.reason)
        }
        // One page every millisecond: a recording is in time order, and nothing is drawn.
        let events = document.sizes.enumerated().map { index, size in
            RecordedEvent.newPage(size: PageSize(width: Float(size.width), height: Float(size.height)),
                                  template: PageTemplate(background: PageBackground(document: RecordedNote.backgroundDocument, page: index)),
                                  at: Double(index) / 1000)
        }
        return Recording(notes: [RecordedNote(events: events, background: data)], format: "pdf")
    }

    /// `recording` with a warning for each note whose background PDF poppler cannot open: it is kept
    /// (nothing the author had is lost), and its pages are drawn on plain paper until it can be read.
    static func checkingBackgrounds(_ recording: Recording, file: String) -> Recording {
        var checked = recording
        for note in recording.notes {
            guard let background = note.background else { continue }
            do {
                _ = try PDFPages(background)
            } catch {
                checked.warnings.append("\(file): the PDF the pages of \"\(note.title ?? "the note")\" are drawn on cannot be read (\(error.reason)): kept, drawn as plain paper")
            }
        }
        return checked
    }
}
