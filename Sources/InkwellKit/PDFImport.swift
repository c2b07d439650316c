import Foundation
import InkCore
import InkInterchange
import InkPDF

/// A PDF to write on, as a recording: one note with a page per PDF page, each the PDF page's size (PDF
/// points, as Xournal++ pages) and drawn on it. The note keeps the PDF (``RecordedNote/background``);
/// exports draw it under the ink (as vectors in PDFs), recognition reads the ink only.
enum PDFImport {
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

    /// reMarkable's pixels per PDF point: the tablet lays a PDF page out at its true size at 226 dpi.
    static let remarkableUnitsPerPoint: Float = 226.0 / 72.0

    /// `recording`'s notes made ready for their background PDFs, each PDF opened once: a note whose PDF
    /// poppler cannot open keeps it (nothing the author had is lost) with a warning, its pages drawn on
    /// plain paper until it can be read; a reMarkable document's pages are placed on their PDF pages
    /// (``placingOnPDF(_:document:)``).
    static func preparingBackgrounds(_ recording: Recording, file: String) -> Recording {
        var prepared = recording
        for (n, note) in recording.notes.enumerated() {
            guard let background = note.background else { continue }
            do {
                let document = try PDFPages(background)
                if recording.format == "rm" { prepared.notes[n] = placingOnPDF(note, document: document) }
            } catch {
                prepared.warnings.append("\(file): the PDF the pages of \"\(note.title ?? "the note")\" are drawn on cannot be read (\(error.reason)): kept, drawn as plain paper")
            }
        }
        return prepared
    }

    /// A reMarkable document on a PDF (`.content` beside `UUID.pdf`) placed on its PDF pages: each page
    /// on a PDF page takes that page's size in points (as an imported PDF's pages do), and its ink, in
    /// tablet pixels with x = 0 at the middle of the PDF page and y = 0 at its top, is scaled to points
    /// (72/226) and moved by half the page's width; widths, printed text and template spacing alike.
    /// A page inserted on the tablet between PDF pages (none under it) takes the size of the PDF page
    /// before it (the first PDF page's, before the first) and is placed the same way.
    static func placingOnPDF(_ note: RecordedNote, document: PDFPages) -> RecordedNote {
        var placed = note
        let k = 1 / remarkableUnitsPerPoint
        // The transform of the current page: nil while the page is not on a PDF page.
        var shift: Float?
        // The PDF page of the last page placed on one.
        var lastPDFPage: Int?
        func place(_ point: RecordedPoint) -> RecordedPoint {
            guard let shift else { return point }
            var moved = point
            moved.x = (point.x - RemarkableDecoder.xOffset) * k + shift
            moved.y = point.y * k
            return moved
        }
        placed.events = note.events.map { event in
            switch event {
            case .newPage(let size, var template, let at):
                let pdfSize: (width: Double, height: Double)
                if let background = template.background {
                    guard document.sizes.indices.contains(background.page) else {
                        shift = nil
                        return event
                    }
                    pdfSize = document.sizes[background.page]
                    lastPDFPage = background.page
                } else {
                    // An inserted page: the size of the PDF page beside it.
                    guard let beside = lastPDFPage ?? document.sizes.indices.first, size == .remarkable else {
                        shift = nil
                        return event
                    }
                    pdfSize = document.sizes[beside]
                }
                let half = Float(pdfSize.width) / 2
                shift = half
                for i in template.printed.indices {
                    template.printed[i].x = (template.printed[i].x - RemarkableDecoder.xOffset) * k + half
                    template.printed[i].baseline *= k
                    template.printed[i].size *= k
                }
                template.spacing *= k
                return .newPage(size: PageSize(width: Float(pdfSize.width), height: Float(pdfSize.height)), template: template, at: at)
            case .penDown(let point, var pen, let at):
                if shift != nil { pen.width *= k }
                return .penDown(place(point), pen: pen, at: at)
            case .penMove(let point, let at): return .penMove(place(point), at: at)
            case .penUp(let point, let at): return .penUp(point.map(place), at: at)
            default: return event
            }
        }
        return placed
    }
}
