import Foundation
import InkCore
import InkIndex
import InkInterchange
import InkSamples
import InkStore
import Testing
@testable import InkIntake
@testable import InkwellKit

/// What a library says about one note after recognition: its tags, where it was filed, and the text
/// read on each page.
private struct Answer: Equatable, CustomStringConvertible {
    var tags: [String]
    var notebook: String
    var pages: [String]

    var description: String { "tags \(tags) in \(notebook), text \(pages)" }
}

/// One generated case: two notes, each a page written in a Hershey font with jitter from seeded
/// words and hashtags the rest of the suite does not write, arriving in a library that has other
/// notes already (their titles, tags and typed text are part of the recognition context) or none.
/// Each note's page writes words of the other note's title that no word list has, so what it reads
/// depends on whether the other note is in the context; and hashtags a letter apart (`health`,
/// `healthy`), so what a reading snaps to depends on the tags known.
private struct Case: CustomStringConvertible, Sendable {
    var style: HandwritingStyle
    var jitter: JitterLevel
    var seed: UInt64
    var othersFirst: Bool

    var description: String { "\(style) \(jitter) seed \(seed)\(othersFirst ? " after other notes" : "")" }

    static let invented = ["zorvex", "quindle", "brantaw", "melkory", "tavisham", "plovric", "gandrel", "wemsick"]
    static let words = ["harbour", "lantern", "meadow", "copper", "violet", "saddle", "orchard", "pebble", "thistle", "walnut"]
    static let tags = ["health", "healthy", "urgent", "q3-plan", "yo-plan", "errands"]

    /// The two notes: titles of invented words, and two lines each, ending with a hashtag.
    func notes() -> [(title: String, lines: [String])] {
        var rng = SeededGenerator(seed: seed &* 7919)
        func pick(_ list: [String]) -> String { list[Int(rng.next() % UInt64(list.count))] }
        let titles = (0..<2).map { _ in pick(Self.invented).capitalized + " " + pick(Self.invented) }
        return (0..<2).map { i in
            let other = titles[1 - i].lowercased().split(separator: " ").map(String.init)
            return (titles[i], [pick(Self.words) + " " + other[0] + " " + pick(Self.words) + " #" + pick(Self.tags),
                                other[1] + " " + pick(Self.words) + " " + pick(Self.invented) + " #" + pick(Self.tags)])
        }
    }

    /// The other notes of the library before these arrive: titles, tags and typed text only.
    func others() -> [(title: String, tags: [String], text: String)] {
        guard othersFirst else { return [] }
        var rng = SeededGenerator(seed: seed &* 104_729)
        func pick(_ list: [String]) -> String { list[Int(rng.next() % UInt64(list.count))] }
        return (0..<2).map { _ in
            (pick(Self.invented).capitalized + " notes", [pick(Self.tags)], "- [ ] \(pick(Self.invented)) \(pick(Self.words)) #\(pick(Self.tags))\n")
        }
    }
}

@Suite("Every path gives the same answers", .enabled(if: tesseractAvailable, "needs Tesseract's English model (tesseract-ocr-eng)"))
struct SameAnswersTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-paths-\(UUID().uuidString)")

    /// Both fonts, both jitter levels, with and without other notes first: four cases of two notes.
    fileprivate static let cases: [Case] = [
        Case(style: .print, jitter: .mild, seed: 501, othersFirst: false),
        Case(style: .script, jitter: .mild, seed: 511, othersFirst: true),
        Case(style: .print, jitter: .strong, seed: 521, othersFirst: true),
        Case(style: .script, jitter: .strong, seed: 531, othersFirst: false),
    ]

    /// The recordings of a case's two notes.
    private func samples(_ item: Case) throws -> [URL] {
        try item.notes().enumerated().map { index, note in
            var request = SampleRequest()
            request.style = item.style
            request.jitter = item.jitter
            request.seed = item.seed &+ UInt64(index)
            request.text = NoteText(pages: [note.lines])
            request.title = note.title
            request.notebook = .inbox
            request.name = "case-\(item.seed)-\(index)"
            let urls = try SampleWriter().write(request, to: root.appendingPathComponent("samples"))
            return try #require(urls.first { !$0.lastPathComponent.hasSuffix(".truth.json") })
        }
    }

    /// A new library in the state the case starts from: routing rules for half the tags, and the
    /// case's other notes.
    private func library(_ item: Case, _ path: String) throws -> Workspace {
        let library = try Library.create(at: root.appendingPathComponent("\(item.seed)-\(path)"))
        for tag in Case.tags.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) {
            _ = try library.addRouteRule(try RouteRule(pattern: "#" + tag, notebook: try NotebookPath("Filed/" + tag)))
        }
        for other in item.others() {
            let stored = try library.createNote(title: other.title, tags: Set(other.tags.compactMap { InkCore.Tag($0) }))
            _ = try library.setTypedText(other.text, of: stored.note.id)
        }
        return Workspace(library: library)
    }

    /// Every note's answer, by title.
    private func answers(_ workspace: Workspace) throws -> [String: Answer] {
        let index = try workspace.index()
        var answers: [String: Answer] = [:]
        for stored in try workspace.library.notes() {
            let texts = try index.pageTexts(of: stored.note.id)
            answers[stored.note.title] = Answer(tags: stored.note.tags.map(\.name).sorted(), notebook: stored.notebook.description,
                                                pages: stored.note.pages.map { texts[$0] ?? "" })
        }
        return answers
    }

    // MARK: The paths

    /// `inkwell import FILES`, recognising as the session asks.
    private func imported(_ files: [URL], into workspace: Workspace) {
        let report = workspace.importer(recognize: true, jobs: 1).run(files, replayer: NoteReplayer(), keepGoing: false)
        #expect(report.failures.isEmpty && report.recognitionFailures.isEmpty, "\(report.failures) \(report.recognitionFailures)")
    }

    /// `inkwell import --no-recognize FILES`, then `inkwell index`.
    private func indexed(_ files: [URL], into workspace: Workspace) throws {
        #expect(workspace.importer(recognize: false, jobs: 1).run(files, replayer: NoteReplayer(), keepGoing: false).failures.isEmpty)
        let report = try workspace.indexer().run(jobs: 1)
        #expect(report.failed.isEmpty && report.recognized == files.count, "\(report)")
    }

    /// The drop folder, the files dropped together: one look imports them one after the other.
    private func dropped(_ files: [URL], into workspace: Workspace) throws {
        let drop = workspace.dropFolder(options: DropFolderOptions(), recognize: true, jobs: 1)
        try FileManager.default.createDirectory(at: drop.folder, withIntermediateDirectories: true)
        for file in files {
            try FileManager.default.copyItem(at: file, to: drop.folder.appendingPathComponent(file.lastPathComponent))
        }
        var events: [DropEvent] = []
        let start = Date()
        try drop.look(now: { start }) { events.append($0) }
        try drop.look(now: { start.addingTimeInterval(10) }) { events.append($0) }
        #expect(events.map(\.kind) == files.map { _ in .imported }, "\(events.map(\.line))")
    }

    /// The live note, fed the recording's pen events at their times on a test clock, then closed: the
    /// note exists with its title and an empty page of the recording's size, as the web notebook makes one.
    private func written(_ file: URL, into workspace: Workspace) async throws {
        let recorded = try #require(try Importer.decode(file).notes.first)
        let stored = try workspace.library.createNote(title: try #require(recorded.title), tags: Set(recorded.tags))
        guard case let .newPage(size, template, _) = recorded.events.first else { throw StoreError.invalid("the recording starts with no page") }
        let page = PageID.random()
        try workspace.library.save([PageDelta(pageID: page, size: size, template: template, isNew: true)], to: stored.note.id)
        let clock = TestClock()
        let note = try LiveNote(stored.note.id, in: workspace, recognition: LiveRecognition(workspace: workspace), clock: clock)
        await note.start()
        let start = recorded.events.first?.time ?? 0
        var strokes = 0
        for event in recorded.events.dropFirst() {
            clock.advance(by: max(0, event.time - start - clock.now))
            let key = "k:\(strokes)"
            switch event {
            case let .penDown(point, pen, _):
                strokes += 1
                await note.pen(.down(key: "k:\(strokes)", page: page, InkPoint(point), tool: pen.tool, color: pen.color, width: pen.width), from: "w")
            case .penMove(let point, _):
                await note.pen(.move(key: key, [InkPoint(point)]), from: "w")
            case .penUp(let point, _):
                if let point { await note.pen(.move(key: key, [InkPoint(point)]), from: "w") }
                await note.pen(.up(key: key), from: "w")
            case .newPage, .undo, .redo, .tap:
                Issue.record("a generated page has only pen events: \(event)")
            }
        }
        clock.advance(by: SessionConfig().autosaveDelay)
        await note.settled()
        await note.close()
        #expect(await note.isClosed)
    }

    /// Compares every path's answers with the first's.
    private func expectSame(_ item: Case, _ paths: [(name: String, workspace: Workspace)]) throws -> [String: Answer] {
        let first = try answers(paths[0].workspace)
        for (name, workspace) in paths.dropFirst() {
            let other = try answers(workspace)
            for title in Set(first.keys).union(other.keys).sorted() where other[title] != first[title] {
                Issue.record("\(item), \"\(title)\": \(name) gave \(other[title].map(\.description) ?? "nothing"), \(paths[0].name) gave \(first[title].map(\.description) ?? "nothing")")
            }
        }
        return first
    }

    /// A case of two generated notes (two pages; ten page readings), the cases side by side.
    /// Two notes that arrive together (one import) are read in one context, which holds both; notes
    /// that arrive one after the other (the drop folder, the live note, or an import and an index run
    /// each) are each read in the library as it is then, with the notes before them.
    @Test("import, import --no-recognize then index, the drop folder and the live note give identical tags, text and routing, on generated pages",
          arguments: Self.cases)
    fileprivate func identicalOnEveryPath(_ item: Case) async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let files = try samples(item)
        // Together: one import, or one import without recognition and one index run.
        let together = [("import", try library(item, "import")), ("import --no-recognize + index", try library(item, "index"))]
        imported(files, into: together[0].1)
        try indexed(files, into: together[1].1)
        let titles = Set(item.notes().map(\.title))
        let answers = try expectSame(item, together).filter { titles.contains($0.key) }
        // One after the other.
        let inTurn = [("the drop folder", try library(item, "drop")), ("the live note", try library(item, "live")),
                      ("import --no-recognize + index, a note at a time", try library(item, "index-each"))]
        try dropped(files, into: inTurn[0].1)
        for file in files {
            try await written(file, into: inTurn[1].1)
            try indexed([file], into: inTurn[2].1)
        }
        _ = try expectSame(item, inTurn)
        // The answers compared are answers: both notes read, with text on their page and a tag; a
        // note whose hashtag has a routing rule (every other tag) filed by it.
        #expect(answers.count == 2)
        #expect(answers.values.allSatisfy { !$0.tags.isEmpty && $0.pages.allSatisfy { !$0.isEmpty } }, "\(answers)")
        let routed = Set(Case.tags.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        for answer in answers.values where !Set(answer.tags).isDisjoint(with: routed) {
            #expect(answer.notebook.hasPrefix("Filed/"), "\(answer)")
        }
    }

    // MARK: Notes that arrive one at a time

    /// Eight notes the suite reads nowhere else (seeds 601–608), in both fonts at both jitter levels, each
    /// a page of two lines ending with a hashtag a letter or two from another (`health`, `healthy`).
    private static let arrivals: [Case] = (0..<8).map { (i: Int) -> Case in
        let style: HandwritingStyle = i % 2 == 0 ? .print : .script
        let jitter: JitterLevel = i % 4 < 2 ? .mild : .strong
        return Case(style: style, jitter: jitter, seed: 601 + UInt64(i), othersFirst: false)
    }

    /// The recording of one arriving note: its first note's page, titled by its seed.
    private func arrival(_ item: Case) throws -> URL {
        let note = item.notes()[0]
        var request = SampleRequest()
        request.style = item.style
        request.jitter = item.jitter
        request.seed = item.seed
        request.text = NoteText(pages: [note.lines])
        request.title = "Arrival \(item.seed)"
        request.notebook = .inbox
        request.name = "arrival-\(item.seed)"
        let urls = try SampleWriter().write(request, to: root.appendingPathComponent("arrivals"))
        return try #require(urls.first { !$0.lastPathComponent.hasSuffix(".truth.json") })
    }

    /// Each note's tags and notebook, by title.
    private func tagging(_ workspace: Workspace) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try workspace.library.notes().map {
            ($0.note.title, "\($0.note.tags.map(\.name).sorted()) in \($0.notebook)")
        })
    }

    /// The tags a hashtag snaps to are the tags people gave (by hand, in the source, typed, asked for by a
    /// routing rule), not those recognition read on other notes: a note read after others had their
    /// hashtags adopted reads as one read before them. Eight notes imported one at a time into one
    /// library (forwards and backwards), imported without recognition one at a time and indexed once,
    /// and dropped into the drop folder one at a time get the same tags.
    @Test("notes arriving one at a time get the same tags by import (in either order), by import --no-recognize then index, and by the drop folder")
    func sameTagsWhateverTheOrder() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let files = try Self.arrivals.map(arrival)
        func fresh(_ name: String) throws -> Workspace {
            Workspace(library: try Library.create(at: root.appendingPathComponent("arrivals-\(name)")))
        }
        let forwards = try fresh("import"), backwards = try fresh("import-backwards"), indexed = try fresh("index"), drop = try fresh("drop")
        for file in files { imported([file], into: forwards) }
        for file in files.reversed() { imported([file], into: backwards) }
        for file in files {
            #expect(indexed.importer(recognize: false, jobs: 1).run([file], replayer: NoteReplayer(), keepGoing: false).failures.isEmpty)
            try dropped([file], into: drop)
        }
        let report = try indexed.indexer().run(jobs: 1)
        #expect(report.failed.isEmpty && report.recognized == files.count, "\(report)")

        let first = try tagging(forwards)
        #expect(first.count == files.count)
        #expect(first.values.filter { !$0.hasPrefix("[]") }.count >= files.count / 2, "most notes get a tag: \(first)")
        for (name, workspace) in [("import, backwards", backwards), ("import --no-recognize + index", indexed), ("the drop folder", drop)] {
            let other = try tagging(workspace)
            for title in first.keys.sorted() where other[title] != first[title] {
                Issue.record("\"\(title)\": \(name) gave \(other[title] ?? "nothing"), import gave \(first[title]!)")
            }
        }
    }
}
