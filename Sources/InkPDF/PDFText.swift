import CPoppler
import Foundation

/// The text layer of a PDF page as poppler lays it out: its characters in reading order, each with its
/// box in PDF points (the origin at the page's top-left corner). What lies under a highlighter stroke is
/// read from it (``text(where:)``).
public struct PDFPageText: Sendable, Equatable {
    /// A character's box in PDF points, y down from the top of the page.
    public struct Box: Sendable, Equatable {
        public var x1, y1, x2, y2: Double

        public init(x1: Double, y1: Double, x2: Double, y2: Double) {
            self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        }

        public var midX: Double { (x1 + x2) / 2 }
        public var midY: Double { (y1 + y2) / 2 }
    }

    public var characters: [Character]
    public var boxes: [Box]

    /// `characters` with `boxes`, one each (the longer list is cut to the shorter).
    public init(characters: [Character], boxes: [Box]) {
        let count = min(characters.count, boxes.count)
        self.characters = Array(characters.prefix(count))
        self.boxes = Array(boxes.prefix(count))
    }

    /// The words whose characters `covers` takes (given a character's box): each run of covered
    /// characters widened to whole words, runs that only white space separates joined into one, white
    /// space inside a run collapsed to single spaces; one string per run, in reading order.
    public func text(where covers: (Box) -> Bool) -> [String] {
        let covered = boxes.indices.filter { !characters[$0].isWhitespace && covers(boxes[$0]) }
        guard var start = covered.first else { return [] }
        var runs: [ClosedRange<Int>] = []
        var end = start
        for index in covered.dropFirst() {
            if characters[(end + 1)..<index].allSatisfy(\.isWhitespace) {
                end = index
            } else {
                runs.append(start...end)
                start = index
                end = index
            }
        }
        runs.append(start...end)
        return runs.map { run in
            // Whole words: a highlighter stroke seldom starts and ends exactly at a word's edges.
            var lower = run.lowerBound, upper = run.upperBound
            while lower > 0, !characters[lower - 1].isWhitespace { lower -= 1 }
            while upper + 1 < characters.count, !characters[upper + 1].isWhitespace { upper += 1 }
            return String(characters[lower...upper]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
    }
}

extension PDFPages {
    /// Page `index`'s text layer (0 is the first page); empty when the page has no text or is not there.
    public func text(page index: Int) -> PDFPageText {
        guard sizes.indices.contains(index) else { return PDFPageText(characters: [], boxes: []) }
        return withPage(index) { (page: UnsafeMutableRawPointer) -> PDFPageText in
            guard let raw = ink_poppler_page_get_text(page) else { return PDFPageText(characters: [], boxes: []) }
            defer { ink_poppler_free(raw) }
            let characters = String(cString: raw).unicodeScalars.map(Character.init)
            var rectangles: UnsafeMutablePointer<InkPopplerRectangle>?
            var count: UInt32 = 0
            guard ink_poppler_page_get_text_layout(page, &rectangles, &count) != 0, let rectangles else {
                return PDFPageText(characters: [], boxes: [])
            }
            defer { ink_poppler_free(rectangles) }
            let boxes = UnsafeBufferPointer(start: rectangles, count: Int(count)).map {
                PDFPageText.Box(x1: min($0.x1, $0.x2), y1: min($0.y1, $0.y2), x2: max($0.x1, $0.x2), y2: max($0.y1, $0.y2))
            }
            return PDFPageText(characters: characters, boxes: boxes)
        } ?? PDFPageText(characters: [], boxes: [])
    }
}
