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
            var template = PageTemplate(background: PageBackground(document: RecordedNote.backgroundDocument, page: index))
            template.unitsPerInch = 72 // PDF points
            return RecordedEvent.newPage(size: PageSize(width: Float(size.width), height: Float(size.height)), template: template,
                                         at: Double(index) / 1000)
        }
        return Recording(notes: [RecordedNote(events: events, background: data)], format: "pdf")
    }

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
                prepared.notKept.append(NotKept(file: file, reason: "the PDF the pages of \"\(note.title ?? "the note")\" are drawn on cannot be read (\(error.reason)): kept, drawn as plain paper"))
            }
        }
        return prepared
    }

    /// A reMarkable document on a PDF (`.content` beside `UUID.pdf`) placed on its PDF pages: each page
    /// on a PDF page takes that page's size in points (as an imported PDF's pages do), and its ink, in
    /// tablet pixels, is placed by its page's ``RemarkablePDFLayout`` (the software generation that wrote
    /// it): widths, printed text and template spacing alike. A page inserted on the tablet between PDF
    /// pages (none under it) takes the size of the PDF page before it (the first PDF page's, before the
    /// first) and is placed the same way. The freehand highlighter strokes of pages written before
    /// software 3.0 quote the words under them from the PDF's text layer (``highlightQuotes(_:document:)``),
    /// after the note's typed text, as the tablet's own text highlights are quoted.
    static func placingOnPDF(_ note: RecordedNote, document: PDFPages) -> RecordedNote {
        var placed = note
        // The transform of the current page: nil while the page is not on a PDF page.
        var transform: (scale: Float, dx: Float, dy: Float)?
        // The PDF page of the last page placed on one.
        var lastPDFPage: Int?
        var pageIndex = -1
        func place(_ point: RecordedPoint) -> RecordedPoint {
            guard let transform else { return point }
            var moved = point
            moved.x = point.x * transform.scale + transform.dx
            moved.y = point.y * transform.scale + transform.dy
            return moved
        }
        placed.events = note.events.map { event in
            switch event {
            case .newPage(let size, var template, let at):
                pageIndex += 1
                let pdfSize: (width: Double, height: Double)
                if let background = template.background {
                    guard document.sizes.indices.contains(background.page) else {
                        transform = nil
                        return event
                    }
                    pdfSize = document.sizes[background.page]
                    lastPDFPage = background.page
                } else {
                    // An inserted page: the size of the PDF page beside it.
                    guard let beside = lastPDFPage ?? document.sizes.indices.first, size == .remarkable else {
                        transform = nil
                        return event
                    }
                    pdfSize = document.sizes[beside]
                }
                let layout = note.pdfLayouts.indices.contains(pageIndex) ? note.pdfLayouts[pageIndex] : .trueSize
                let page = layout.placement(width: Float(pdfSize.width), height: Float(pdfSize.height))
                transform = page
                for i in template.printed.indices {
                    template.printed[i].x = template.printed[i].x * page.scale + page.dx
                    template.printed[i].baseline = template.printed[i].baseline * page.scale + page.dy
                    template.printed[i].size *= page.scale
                }
                template.spacing *= page.scale
                template.unitsPerInch = 72 // now in the PDF page's points
                return .newPage(size: PageSize(width: Float(pdfSize.width), height: Float(pdfSize.height)), template: template, at: at)
            case .penDown(let point, var pen, let at):
                if let transform { pen.width *= transform.scale }
                return .penDown(place(point), pen: pen, at: at)
            case .penMove(let point, let at): return .penMove(place(point), at: at)
            case .penUp(let point, let at): return .penUp(point.map(place), at: at)
            default: return event
            }
        }
        let quotes = highlightQuotes(placed, document: document)
        if !quotes.isEmpty {
            placed.typedText = ([placed.typedText] + quotes).filter { !$0.isEmpty }.joined(separator: "\n\n")
        }
        return placed
    }

    /// The words under the highlighter strokes of `note`'s pages written before software 3.0 (placed on
    /// their PDF pages), read from the PDF's text layer, as Markdown quotes with the page number:
    /// `> text (p. 3)`. A character is under a stroke when its box's centre lies within half the stroke's
    /// width of the stroke's line; runs of words are widened to whole words and joined across strokes
    /// where only white space lies between them (a highlight over two lines is one quote). Pages of
    /// software 3.0 and later need none of this: the tablet stores their text highlights with the text.
    static func highlightQuotes(_ note: RecordedNote, document: PDFPages) -> [String] {
        var quotes: [String] = []
        var pageIndex = -1
        var pdfPage: Int?
        // The highlighter strokes of the current page: each its points and half its width.
        var strokes: [(points: [RecordedPoint], reach: Float)] = []
        var drawing: (points: [RecordedPoint], reach: Float)?
        func finishPage() {
            defer { strokes = [] }
            guard let pdfPage, !strokes.isEmpty else { return }
            let text = document.text(page: pdfPage)
            for quote in text.text(where: { box in strokes.contains { Self.reaches($0.points, within: $0.reach, x: Float(box.midX), y: Float(box.midY)) } }) {
                quotes.append("> \(quote) (p. \(pageIndex + 1))")
            }
        }
        for event in note.events {
            switch event {
            case .newPage(_, let template, _):
                finishPage()
                pageIndex += 1
                let fitted = note.pdfLayouts.indices.contains(pageIndex) && note.pdfLayouts[pageIndex] == .fittedToScreen
                pdfPage = fitted ? template.background?.page : nil
            case .penDown(let point, let pen, _):
                drawing = pen.tool == .highlighter && pdfPage != nil ? ([point], pen.width / 2) : nil
            case .penMove(let point, _):
                drawing?.points.append(point)
            case .penUp(let point, _):
                if var stroke = drawing {
                    if let point { stroke.points.append(point) }
                    strokes.append(stroke)
                }
                drawing = nil
            default: break
            }
        }
        finishPage()
        return quotes
    }

    /// Whether (`x`, `y`) lies within `reach` of the polyline through `points`.
    static func reaches(_ points: [RecordedPoint], within reach: Float, x: Float, y: Float) -> Bool {
        guard let first = points.first else { return false }
        func distance(_ dx: Float, _ dy: Float) -> Float { (dx * dx + dy * dy).squareRoot() }
        if points.count == 1 { return distance(first.x - x, first.y - y) <= reach }
        for (a, b) in zip(points, points.dropFirst()) {
            let dx = b.x - a.x, dy = b.y - a.y
            let length = dx * dx + dy * dy
            let t = length > 0 ? min(max(((x - a.x) * dx + (y - a.y) * dy) / length, 0), 1) : 0
            if distance(a.x + t * dx - x, a.y + t * dy - y) <= reach { return true }
        }
        return false
    }
}
