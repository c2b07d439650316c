import Foundation
import InkCore
import InkSamples
import Testing
@testable import InkInterchange

/// A tablet's `xochitl` folder written by a test: `UUID.metadata`, `UUID.content`, `UUID.pagedata` and
/// `UUID/PAGE.rm`, as the tablet keeps them.
struct BackupTree {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xochitl-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    func folderEntry(_ id: String, name: String, parent: String = "", deleted: Bool = false) throws {
        try write("\(id).metadata", #"{"type": "CollectionType", "visibleName": "\#(name)", "parent": "\#(parent)", "deleted": \#(deleted), "lastModified": "1700000000000"}"#)
        try write("\(id).content", "{}")
    }

    func document(_ id: String, name: String, parent: String = "", pinned: Bool = false, deleted: Bool = false,
                  content: String, pages: [String: Data] = [:], pagedata: String? = nil) throws {
        try write("\(id).metadata", #"{"type": "DocumentType", "visibleName": "\#(name)", "parent": "\#(parent)", "pinned": \#(pinned), "deleted": \#(deleted), "createdTime": "1700000000000", "lastModified": "1700000500000"}"#)
        try write("\(id).content", content)
        if let pagedata { try write("\(id).pagedata", pagedata) }
        if !pages.isEmpty { try FileManager.default.createDirectory(at: url(id), withIntermediateDirectories: true) }
        for (page, data) in pages { try data.write(to: url(id).appendingPathComponent(page + ".rm")) }
    }

    func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: url(name)) }

    func decode(_ id: String) throws -> Recording {
        try RemarkableNotebook.decode(try Data(contentsOf: url("\(id).content")), file: url("\(id).content").path)
    }
}

@Suite("reMarkable backups: folders, pins, trash, tags, templates, highlights, damaged pages")
struct RemarkableBackupTests {
    /// Whether a decoded stroke is the highlighter drawn over a text highlight's rectangle: two points
    /// at full pressure along one line (the tablet's own highlighter strokes vary).
    static func isTextHighlight(_ stroke: DecodedStroke) -> Bool {
        stroke.pen.tool == .highlighter && stroke.points.count == 2 && stroke.points.allSatisfy { $0.pressure == 1 }
            && stroke.points[0].y == stroke.points[1].y
    }

    /// A page with one stroke.
    static var strokePage: Data {
        var file = RemarkableFile()
        file.layer(10, item: 11)
        file.line(layer: 10, item: (1, 20), points: [(-100, 300), (100, 300)])
        return file.data
    }

    /// A page whose second block claims more bytes than the file holds, before any stroke.
    static var damagedPage: Data {
        var bytes = Array("reMarkable .lines file, version=6          ".utf8)
        bytes += [0xE8, 0x03, 0, 0, 0, 1, 1, 0x05, 1, 2, 3]
        return Data(bytes)
    }

    /// A page with a highlight of two rectangles over text.
    static var highlightPage: Data {
        var file = RemarkableFile()
        file.layer(10, item: 11)
        file.highlight(layer: 10, item: (1, 30), text: "the tablet uses\nelectronic paper", rects: [(-600, 400, 500, 40), (-600, 450, 300, 40)])
        return file.data
    }

    @Test("a highlight is drawn as highlighter over each of its rectangles and quoted with its page in the typed text")
    func highlight() throws {
        let r = try RemarkableDecoder.decode(Self.highlightPage, file: "h.rm")
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        let strokes = r.strokes
        #expect(strokes.count == 2)
        #expect(strokes.allSatisfy { $0.pen.tool == .highlighter && $0.pen.color.alpha < 255 })
        // x from −702 moved to 0; along each rectangle's middle, as wide as it is high, the round ends
        // (half the width) within it.
        #expect(strokes[0].points.map(\.x) == [122, 582] && strokes[0].points.allSatisfy { $0.y == 420 })
        #expect(strokes[0].pen.width == 40)
        #expect(strokes[1].points.map(\.x) == [122, 382] && strokes[1].points[0].y == 470)
        #expect(r.notes[0].typedText == "> the tablet uses electronic paper (p. 1)")
    }

    @Test("the corpus page of highlights (rmscene's Wikipedia_highlighted_p1) keeps its highlights as ink and quotes",
          .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func corpusHighlights() throws {
        let root = try #require(Corpus.root)
        let r = try RemarkableDecoder.decode(try Data(contentsOf: root.appendingPathComponent("rm/rmscene/Wikipedia_highlighted_p1.rm")), file: "w.rm")
        #expect(!r.warnings.contains { $0.contains("highlight") }, "\(r.warnings)")
        #expect(r.strokes.contains { $0.pen.tool == .highlighter })
        #expect(r.notes[0].typedText.contains("> The reMarkable uses electronic paper (p. 1)"), "\(r.notes[0].typedText)")
        // Firmware 3.14 stores each highlight's colour: six sentences in six hues, all translucent.
        let colors = try RemarkableDecoder.decode(try Data(contentsOf: root.appendingPathComponent("rm/rmscene/Color_and_tool_v3.14.4.rm")), file: "c.rm")
        let highlights = colors.strokes.filter(Self.isTextHighlight)
        #expect(highlights.count == 6 && Set(highlights.map(\.pen.color)).count == 6)
        #expect(highlights.allSatisfy { $0.pen.color.alpha == 100 })
        #expect(highlights.contains { $0.pen.color == RGBA(red: 0xFF, green: 0xED, blue: 0x75, alpha: 100) })
        #expect(colors.notes[0].typedText.components(separatedBy: "> This is a test sentence. (p. 1)").count == 7)
    }

    @Test("a highlight block cut at every length or with any byte changed decodes or is refused, never traps")
    func hostileHighlights() {
        let bytes = [UInt8](Self.highlightPage)
        for length in 0..<bytes.count { _ = try? RemarkableDecoder.decode(Data(bytes.prefix(length)), file: "cut.rm") }
        var generator = SeededGenerator(seed: 30)  // the same mutations on every run
        for _ in 0..<3000 {
            var mutated = bytes
            let at = RemarkableDecoder.headerLength + Int(generator.next() % UInt64(bytes.count - RemarkableDecoder.headerLength))
            mutated[at] = UInt8(truncatingIfNeeded: generator.next())
            _ = try? RemarkableDecoder.decode(Data(mutated), file: "flip.rm")
        }
    }

    @Test("hostile metadata: a title with control characters is cleaned, a parent naming a path outside the backup is not followed")
    func hostileMetadata() throws {
        let tree = try BackupTree()
        defer { tree.remove() }
        try tree.document("d", name: "Line one\\nline two\\u0007", parent: "../etc", content: #"{"fileType": "notebook", "pages": ["x"]}"#)
        let r = try tree.decode("d")
        #expect(r.notes[0].title == "Line one line two")
        #expect(r.notes[0].notebook == nil && r.warnings.contains { $0.contains("../etc") })
    }

    @Test("the tablet's template names map to Inkwell's kinds and spacings; others are unknown")
    func templates() {
        let cases: [(String, TemplateKind?, Float)] = [
            ("Blank", .blank, 60), ("P Lines small", .lined, 50), ("P Lines medium", .lined, 68), ("LS Lines large", .lined, 90),
            ("P Grid small", .grid, 45), ("P Grid medium", .grid, 60), ("P Grid large", .grid, 90),
            ("P Dots S", .dots, 45), ("P Dots", .dots, 60), ("LS Dots large", .dots, 90), ("P Cornell", .cornell, 60),
            ("P Margin medium", .lined, 68), ("P Week", nil, 0), ("P Grid margin large", nil, 0), ("P Dots S bottom", nil, 0),
            ("P Lined heading", nil, 0), ("Perspective1", nil, 0), ("", nil, 0),
        ]
        for (name, kind, spacing) in cases {
            let template = RemarkableTemplates.template(named: name)
            #expect(template?.kind == kind, "\(name)")
            if let template { #expect(template.spacing == spacing, "\(name)") }
        }
    }

    @Test("a backup's documents come with their folders as notebooks, pins, tags, templates, dates and trash; a damaged page becomes a placeholder")
    func backup() throws {
        let tree = try BackupTree()
        defer { tree.remove() }
        try tree.folderEntry("f-work", name: "Work")
        try tree.folderEntry("f-meet", name: "Meetings/Calls", parent: "f-work")
        try tree.folderEntry("f-old", name: "Old stuff", parent: "trash")
        try tree.document("d-main", name: "Standup", parent: "f-meet", pinned: true, content: #"""
            {"fileType": "notebook", "tags": [{"name": "Project X", "timestamp": 1}], "pageTags": [{"name": "urgent", "pageId": "p1", "timestamp": 1}, {"name": "no good!", "pageId": "p1"}],
             "cPages": {"pages": [
               {"id": "p1", "idx": {"value": "ba"}, "template": {"value": "P Lines small"}},
               {"id": "p2", "idx": {"value": "bb"}},
               {"id": "p3", "idx": {"value": "bc"}, "template": {"value": "P Dots S"}}]}}
            """#, pages: ["p1": Self.strokePage, "p2": Self.damagedPage, "p3": Self.highlightPage])
        try tree.document("d-gone", name: "Old list", parent: "trash", content: #"{"fileType": "notebook", "pages": ["a", "b"]}"#,
                          pages: ["a": Self.strokePage], pagedata: "P Grid medium\nFancy Calendar\n")
        try tree.document("d-inold", name: "Inside old", parent: "f-old", content: #"{"fileType": "notebook", "pages": ["a"]}"#)
        try tree.document("d-deleted", name: "Deleted", deleted: true, content: #"{"fileType": "notebook", "pages": ["a"]}"#)

        // The folders are notebooks (the one in the trash is not), outermost first.
        let metadataFiles = ["d-main", "f-meet", "f-old", "f-work"].map { tree.url("\($0).metadata") }
        #expect(RemarkableNotebook.folderNotebooks(metadataFiles).map(\.description) == ["Work", "Work/Meetings-Calls"])

        // Named all at once (`xochitl/*`), a document's parts are left to its .content.
        let named = ["d-main.content", "d-main.metadata", "d-gone.pagedata", "d-gone.content", "d-main/p1.rm", "d-main.thumbnails/p1.png",
                     "f-work.metadata", "other.rm"].map { tree.url($0) }
        #expect(RecordingFormat.importable(named).map(\.lastPathComponent) == ["d-main.content", "d-gone.content", "f-work.metadata", "other.rm"])

        // The folders' .content files are not notes.
        let found = ["d-deleted", "d-gone", "d-inold", "d-main", "f-meet", "f-old", "f-work"].map { tree.url("\($0).content") }
        #expect(RecordingFormat.importable(found).map { $0.deletingPathExtension().lastPathComponent } == ["d-deleted", "d-gone", "d-inold", "d-main"])

        let main = try tree.decode("d-main")
        let note = try #require(main.notes.first)
        #expect(note.title == "Standup")
        #expect(note.notebook?.components == ["Work", "Meetings-Calls"])
        #expect(note.pinned && !note.trashed)
        #expect(note.created == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(note.tags.map(\.name) == ["project-x", "urgent"])
        #expect(main.warnings.contains { $0.contains("1 tag left out") && $0.contains("no good!") }, "\(main.warnings)")
        #expect(main.pagesOfStrokes.map(\.count) == [1, 0, 2])
        #expect(main.pageTemplates.map(\.kind) == [.lined, .blank, .dots])
        #expect(main.pageTemplates.map(\.spacing) == [50, 60, 45])
        let notice = try #require(main.pageTemplates[1].unreadableNotice)
        #expect(notice.hasPrefix("page 2 could not be read: byte 43: block of type 5 claims 1000 bytes"), "\(notice)")
        #expect(main.warnings.contains { $0.contains("p2.rm: page 2: could not be read") }, "\(main.warnings)")
        #expect(note.typedText == "> the tablet uses electronic paper (p. 3)")
        #expect(note.origin?.pages.map(\.key) == ["p1", "p2", "p3"])

        let gone = try tree.decode("d-gone")
        #expect(gone.notes[0].trashed && gone.notes[0].notebook == nil)
        #expect(gone.pageTemplates.map(\.kind) == [.grid, .blank])
        #expect(gone.warnings.contains { $0.contains("template \"Fancy Calendar\" (1 page) is not one Inkwell draws") }, "\(gone.warnings)")
        let inOld = try tree.decode("d-inold")
        #expect(inOld.notes[0].trashed && inOld.notes[0].notebook?.components == ["Old stuff"])
        #expect(try tree.decode("d-deleted").notes[0].trashed)

        // A document's .metadata given directly reads its .content; a folder's is refused, saying why.
        let metadata = try Data(contentsOf: tree.url("d-main.metadata"))
        #expect(RecordingFormat.detect(metadata) == .remarkableNotebook)
        #expect(try RemarkableNotebook.decode(metadata, file: tree.url("d-main.metadata").path) == main)
        let folder = #expect(throws: ImportError.self) {
            try RemarkableNotebook.decode(try Data(contentsOf: tree.url("f-work.metadata")), file: tree.url("f-work.metadata").path)
        }
        #expect(folder?.description.contains("a reMarkable folder (CollectionType), not a document") == true)
    }

    @Test("a document whose every page is damaged still imports, as placeholders; a folder loop or a missing folder is cut with a warning")
    func allDamaged() throws {
        let tree = try BackupTree()
        defer { tree.remove() }
        try tree.folderEntry("f-a", name: "A", parent: "f-b")
        try tree.folderEntry("f-b", name: "B", parent: "f-a")
        try tree.document("d", name: "Loop", parent: "f-a", content: #"{"fileType": "notebook", "pages": ["x", "y"]}"#,
                          pages: ["x": Self.damagedPage, "y": Data("not a page".utf8)])
        let r = try tree.decode("d")
        #expect(r.pageTemplates.compactMap(\.unreadableNotice).count == 2)
        #expect(r.pageTemplates[1].unreadableNotice?.contains("not a reMarkable .rm file") == true)
        #expect(r.notes[0].notebook?.components == ["B", "A"])
        #expect(r.warnings.contains { $0.contains("loop back") }, "\(r.warnings)")
        try tree.document("e", name: "Lost", parent: "f-nowhere", content: #"{"fileType": "notebook", "pages": ["x"]}"#)
        let lost = try tree.decode("e")
        #expect(lost.notes[0].notebook == nil && lost.warnings.contains { $0.contains("f-nowhere") })
    }
}
