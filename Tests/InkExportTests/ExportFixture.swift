// Shared by InkExportTests and InkObsidianTests (a symlink there): a library with an index to export from.
import Foundation
import TestSupport
import InkCore
import InkIndex
import InkStore
@testable import InkwellKit

/// Reads every page as fixed lines of text, so exports have recognised words to carry.
struct FixedRecognizer: PageRecognizer {
    let lines: [String]
    func recognize(_ page: Page) throws -> PageRecognition {
        var words: [RecognizedWord] = []
        for (number, line) in lines.enumerated() {
            for (column, word) in line.split(separator: " ").enumerated() {
                let x = 100 + Double(column) * 160, y = 200 + Double(number) * 120
                words.append(RecognizedWord(text: String(word), box: Rect(minX: x, minY: y, maxX: x + 140, maxY: y + 60),
                                            confidence: 0.9, line: number))
            }
        }
        return PageRecognition(words: words, hashtags: [])
    }
}

let popplerInstalled = (try? tool(["pdftotext", "-v"]).status) == 0
let pythonYAML = (try? tool(["python3", "-c", "import yaml"]).status) == 0

/// A library, its index and an output folder in a temporary folder, removed with this value.
final class ExportFixture {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-export-\(UUID().uuidString)")
    let library: Library
    let index: SearchIndex
    let out: URL

    init() throws {
        library = try Library.create(at: root.appendingPathComponent("library"))
        index = try SearchIndex(library: library)
        out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    @discardableResult
    func note(_ title: String, in notebook: String = "Inbox", pages: Int = 1, tags: Set<InkCore.Tag> = []) throws -> StoredNote {
        let stored = try library.createNote(title: title, in: try NotebookPath(notebook), tags: tags)
        for page in 0..<pages {
            let stroke = Stroke(id: StrokeID(1), width: 3, points: (0..<20).map {
                InkPoint(x: 100 + Float($0) * 10, y: 300 + Float(page * 50), pressure: 0.6, time: Float($0 * 8))
            })
            try library.save([PageDelta(pageID: PageID.random(), size: .remarkable, isNew: true, addedStrokes: [stroke])], to: stored.note.id)
        }
        return try library.note(matching: stored.note.id.rawValue)
    }

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    }
}
