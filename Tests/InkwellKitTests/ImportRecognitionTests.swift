import Foundation
import InkCore
import InkIndex
import InkInterchange
import InkRecognize
import InkStore
import Testing
@testable import InkwellKit

/// The repository's Samples/ folder.
let samplesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Samples").standardizedFileURL

/// True when Tesseract's English model is installed (the tests that read real handwriting need it).
let tesseractAvailable = (try? TessdataLocator.folder(for: "eng")) != nil

/// A recogniser for tests: reads each page as the hashtags `tags` gives for its number of strokes,
/// or fails; remembers every page it was asked to read.
final class ScriptedRecognizer: PageRecognizer, Sendable {
    let tags: @Sendable (Page) throws -> [String]
    private let seen = Locked<[Page]>([])

    init(tags: @escaping @Sendable (Page) throws -> [String]) { self.tags = tags }

    var pagesRead: [Page] { seen.withLock { $0 } }

    func recognize(_ page: Page) throws -> PageRecognition {
        seen.withLock { $0.append(page) }
        let words = try tags(page).enumerated().map { index, tag in
            RecognizedWord(text: "#" + tag, box: Rect(minX: Double(index) * 100, minY: 0, maxX: Double(index) * 100 + 90, maxY: 60),
                           confidence: 0.9, line: 0)
        }
        return PageRecognition(words: words, hashtags: words.compactMap { InkCore.Tag($0.text) })
    }
}

/// A scratch library that removes itself.
final class ScratchLibrary {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-kit-\(UUID().uuidString)")
    let library: Library

    init() throws { library = try Library.create(at: root) }
    deinit { try? FileManager.default.removeItem(at: root) }

    /// Writes a replay log beside the library and returns its URL.
    func write(_ name: String, _ lines: [String]) throws -> URL {
        let url = root.appendingPathComponent(name)
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        return url
    }
}

/// A stroke as replay log lines: down at `t`, ten moves 8 ms apart, up.
func stroke(at t: Double, x: Double = 100, y: Double = 300) -> [String] {
    var lines = [#"{"type":"down","t":\#(t),"x":\#(x),"y":\#(y),"p":0.4}"#]
    for i in 1...10 {
        lines.append(#"{"type":"move","t":\#(t + Double(i) * 0.008),"x":\#(x + Double(i) * 3),"y":\#(y + Double(i)),"p":0.6}"#)
    }
    lines.append(#"{"type":"up","t":\#(t + 0.088)}"#)
    return lines
}

@Suite("Recognition during import")
struct ImportRecognitionTests {
    /// Page 1: strokes at 0 s, 10 s and 20 s (three autosaves); page 2: strokes at 30 s and 40 s (two).
    let twoPages = [#"{"type":"note","title":"Bursts"}"#, #"{"type":"page"}"#]
        + stroke(at: 0) + stroke(at: 10, y: 400) + stroke(at: 20, y: 500)
        + [#"{"type":"page"}"#] + stroke(at: 30) + stroke(at: 40, y: 400)

    @Test("each page is read once, from its final content, however many autosaves asked; hashtags become tags")
    func onceFromFinalContent() throws {
        let scratch = try ScratchLibrary()
        let recognizer = ScriptedRecognizer { $0.strokes.count == 3 ? ["budget"] : ["q3-plan"] }
        let kept = Locked<[NoteID: Int]>([:])
        var importer = Importer(library: scratch.library)
        importer.recognition = ImportRecognition(jobs: 2, makeRecognizer: { _ in recognizer },
                                                 keep: { note, pages in kept.withLock { $0[note.note.id, default: 0] += pages.count } })
        let trace = Locked<[TraceRecord]>([])
        let report = importer.run([try scratch.write("bursts.jsonl", twoPages)],
                                  replayer: NoteReplayer(trace: { record in trace.withLock { $0.append(record) } }), keepGoing: false)
        #expect(report.failures.isEmpty && report.recognitionFailures.isEmpty)

        let records = trace.withLock { $0 }
        #expect(records.filter { $0.effect == "recognize" }.count == 5)
        #expect(recognizer.pagesRead.map(\.strokes.count).sorted() == [2, 3])
        let stored = try scratch.library.notes()
        #expect(stored.count == 1)
        #expect(stored[0].note.tags == [InkCore.Tag("budget")!, InkCore.Tag("q3-plan")!])
        #expect(report.imported.first?.notes.first?.tags == ["budget", "q3-plan"])
        #expect(report.imported.first?.notes.first?.recognized == 2)
        // What was read is exactly what was committed, and it is handed on to be kept.
        #expect(Set(recognizer.pagesRead) == Set(try scratch.library.pages(of: stored[0])))
        #expect(kept.withLock { $0 } == [stored[0].note.id: 2])

        // The outcomes come back after the last save, each page once, before the session lets go.
        let effects = records.map(\.effect)
        let finished = records.filter { $0.effect == "recognitionFinished" }
        #expect(finished.map(\.pages) == [[1], [2]])
        #expect(effects.lastIndex(of: "save")! < effects.firstIndex(of: "recognitionFinished")!)
        #expect(effects.last == "leave")
        #expect(finished.allSatisfy { $0.t == records.last!.t })
    }

    @Test("a tag removed by hand is not added back by recognition; the others are", .enabled(if: tesseractAvailable))
    func removedTagStaysRemoved() throws {
        let scratch = try ScratchLibrary()
        let recording = try Importer.decode(samplesFolder.appendingPathComponent("sprint-retro-hashtags.jsonl"))
        let recognizer = try TesseractRecognizer()

        func replay(removing removed: Set<InkCore.Tag>) throws -> Set<InkCore.Tag> {
            var staged = try scratch.library.stage(title: "Sprint retro", in: .inbox, created: Date(), source: "test")
            defer { scratch.library.discard([staged]) }
            try staged.update { $0.removedTags = removed }
            var replay = try NoteReplayer().start(recording.notes[0], into: staged)
            var outcomes: [PageID: Result<[InkCore.Tag], any Error>] = [:]
            for page in replay.pagesToRecognize {
                outcomes[page] = .success(try recognizer.recognize(try replay.staged.page(page)).hashtags)
            }
            staged = try replay.finish(outcomes)
            return staged.note.tags
        }

        let retro = InkCore.Tag("retro")!
        #expect(try replay(removing: []).isSuperset(of: [retro, InkCore.Tag("process")!, InkCore.Tag("wins")!]))
        let tags = try replay(removing: [retro])
        #expect(!tags.contains(retro))
        #expect(tags.isSuperset(of: [InkCore.Tag("process")!, InkCore.Tag("wins")!]))
    }

    @Test("a page that cannot be read is reported, and the note is imported all the same")
    func failureDoesNotStopTheImport() throws {
        let scratch = try ScratchLibrary()
        var importer = Importer(library: scratch.library)
        importer.recognition = ImportRecognition(jobs: 1, makeRecognizer: { _ in
            ScriptedRecognizer { page in
                if page.strokes.count == 2 { throw StoreError.invalid("smudged") }
                return ["kept"]
            }
        }, keep: { _, _ in })
        let report = importer.run([try scratch.write("bursts.jsonl", twoPages)], replayer: NoteReplayer(), keepGoing: false)
        #expect(report.failures.isEmpty)
        #expect(report.recognitionFailures.count == 1)
        #expect(report.recognitionFailures.first?.contains("\"Bursts\" page 2: smudged") == true)
        #expect(try scratch.library.notes().map(\.note.tags) == [[InkCore.Tag("kept")!]])
    }

    @Test("files are committed in order while later ones are read; a file that fails stops the ones after it")
    func order() throws {
        let scratch = try ScratchLibrary()
        var importer = Importer(library: scratch.library)
        importer.recognition = ImportRecognition(jobs: 2, makeRecognizer: { _ in
            ScriptedRecognizer { _ in Thread.sleep(forTimeInterval: 0.02); return [] }
        }, keep: { _, _ in })
        var files: [URL] = []
        for index in 0..<6 {
            files.append(try scratch.write("n\(index).jsonl", [#"{"type":"note","title":"N\#(index)"}"#] + stroke(at: 0)))
        }
        let report = importer.run(files, replayer: NoteReplayer(), keepGoing: false)
        #expect(report.imported.flatMap(\.notes).map(\.title) == ["N0", "N1", "N2", "N3", "N4", "N5"])
        #expect(report.imported.flatMap(\.notes).allSatisfy { $0.recognized == 1 })

        // A file that decodes but cannot be staged (a blank title) is reported; the file before it is
        // committed, the one after it is not.
        let bad = try scratch.write("bad.jsonl", [#"{"type":"note","title":"   "}"#] + stroke(at: 0))
        importer.asNew = true // files[0] again as a new note, not as "unchanged"
        let second = importer.run([files[0], bad, files[1]], replayer: NoteReplayer(), keepGoing: false)
        #expect(second.imported.flatMap(\.notes).map(\.title) == ["N0"])
        #expect(second.failures.count == 1)
        #expect(try scratch.library.notes().count == 7)
    }
}

@Suite("The library's own words")
struct VocabularyTests {
    @Test("titles, tag parts and typed text become words recognition counts, besides the system list")
    func vocabulary() throws {
        let scratch = try ScratchLibrary()
        let stored = try scratch.library.createNote(title: "Kubernetes rollout: Q3", tags: [InkCore.Tag("okr-review")!])
        _ = try scratch.library.setTypedText("- [ ] ask Ingrid about the PgBouncer pool\n", of: stored.note.id)
        let words = try scratch.library.vocabulary()
        for word in ["kubernetes", "rollout", "q3", "okr", "review", "ingrid", "pgbouncer", "pool"] {
            #expect(words.contains(word), "\(word)")
        }
        #expect(!words.contains("a") && !words.contains("-"))
        let lexicon = try Workspace.lexicon(of: scratch.library, index: nil)
        #expect(lexicon.accepts("PgBouncer") && lexicon.accepts("notebook"))
    }

    @Test("words recognition read surely on two pages or more count too")
    func recognizedWords() throws {
        let scratch = try ScratchLibrary()
        let workspace = Workspace(library: scratch.library)
        let stored = try scratch.library.createNote(title: "Sketches", in: try NotebookPath("Inbox"))
        let box = Rect(minX: 0, minY: 0, maxX: 10, maxY: 10)
        func page(_ words: [(String, Float)]) throws -> (page: Page, recognition: PageRecognition) {
            let stroke = Stroke(id: StrokeID(1), points: [InkPoint(x: Float.random(in: 1...500), y: 10), InkPoint(x: 600, y: 12)])
            let id = PageID.random()
            try scratch.library.save([PageDelta(pageID: id, size: .remarkable, isNew: true, addedStrokes: [stroke])], to: stored.note.id)
            let saved = try scratch.library.pages(of: try scratch.library.note(matching: stored.note.id.rawValue)).first { $0.id == id }!
            return (saved, PageRecognition(words: words.map { RecognizedWord(text: $0.0, box: box, confidence: $0.1, line: 0) }, hashtags: []))
        }
        let pages = [try page([("Rnote", 0.95), ("Xopp", 0.95), ("qzv", 0.3), ("html5", 0.95)]),
                     try page([("Rnote,", 0.9), ("Xopp", 0.5), ("qzv", 0.3), ("Zork", 0.95), ("html5", 0.95)]),
                     try page([("rnote", 0.92), ("qzv", 0.3)])]
        try workspace.index().record([(try scratch.library.note(matching: stored.note.id.rawValue), pages)], in: scratch.library)
        // Read surely on 2+ pages: "Rnote" (pages 1 and 3, case aside). Not: "Xopp" (surely on one
        // page only), "qzv" (never surely), "Zork" (one page), "html5" (not letters only).
        #expect(try workspace.index().recognizedVocabulary() == ["rnote"])
        let lexicon = try Workspace.lexicon(of: scratch.library, index: try workspace.existingIndex())
        #expect(lexicon.accepts("Rnote") && !lexicon.accepts("Xopp") && !lexicon.accepts("Zork"))
    }
}

@Suite("Known tags")
struct KnownTagsTests {
    @Test("known tags are the tags people gave (by hand, typed, a routing rule's), not those recognition read in a note's handwriting")
    func givenNotRead() throws {
        let scratch = try ScratchLibrary()
        let workspace = Workspace(library: scratch.library)
        let stored = try scratch.library.createNote(title: "Errands", tags: Set(["urgent", "budget", "by-hand"].map { InkCore.Tag($0)! }))
        _ = try scratch.library.setTypedText("- [ ] pay the #budget\n", of: stored.note.id)
        _ = try scratch.library.addRouteRule(try RouteRule(pattern: "#filed", notebook: try NotebookPath("Filed")))
        let stroke = Stroke(id: StrokeID(1), points: [InkPoint(x: 10, y: 10), InkPoint(x: 60, y: 12)])
        try scratch.library.save([PageDelta(pageID: PageID.random(), size: .remarkable, isNew: true, addedStrokes: [stroke])], to: stored.note.id)
        let note = try scratch.library.note(matching: stored.note.id.rawValue)
        // The handwriting held #urgent and #budget: urgent was adopted from it; budget is typed too.
        let read = PageRecognition(words: [], hashtags: ["urgent", "budget"].map { InkCore.Tag($0)! })
        try workspace.index().record([(note, [(try scratch.library.pages(of: note)[0], read)])], in: scratch.library)
        let known = try workspace.recognitionContext(importing: [NoteWords(title: "New", tags: [InkCore.Tag("recorded")!], typedText: "")]).knownTags
        #expect(known == Set(["budget", "by-hand", "filed", "recorded"].map { InkCore.Tag($0)! }))
    }
}
