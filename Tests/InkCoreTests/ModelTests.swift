import Foundation
import Testing
@testable import InkCore

@Suite("Model values")
struct ModelTests {
    @Test("tags are normalised: one leading #, lowercase, letters, digits, - _ /")
    func tags() {
        #expect(Tag("#Meeting")?.name == "meeting")
        #expect(Tag(" q3-plan ")?.name == "q3-plan")
        #expect(Tag("projects/inkwell")?.name == "projects/inkwell")
        #expect(Tag("café")?.name == "café")
        for bad in ["", "#", "two words", "semi;colon", "/leading", "trailing/", "##double", String(repeating: "a", count: 65)] {
            #expect(Tag(bad) == nil, "\(bad)")
        }
    }

    @Test("colours read #rgb, #rrggbb and #rrggbbaa and print as #rrggbbaa")
    func colors() {
        #expect(RGBA(hex: "#f00") == RGBA(red: 255, green: 0, blue: 0))
        #expect(RGBA(hex: "1a2b3c") == RGBA(red: 0x1a, green: 0x2b, blue: 0x3c))
        #expect(RGBA(hex: "#1a2b3c80")?.alpha == 0x80)
        #expect(RGBA(hex: "#1a2b3c80")?.description == "#1a2b3c80")
        for bad in ["", "#12", "#12345", "#gggggg", "#1234567890"] { #expect(RGBA(hex: bad) == nil, "\(bad)") }
    }

    @Test("notebook paths parse, nest and refuse names that are not safe folder names")
    func notebookPaths() throws {
        let path = try NotebookPath("Work//Meetings/")
        #expect(path.components == ["Work", "Meetings"])
        #expect(path.description == "Work/Meetings")
        #expect(path.parent == (try NotebookPath("Work")))
        #expect(try path.isWithin(NotebookPath("Work")) && !path.isWithin(NotebookPath("Home")))
        #expect(NotebookPath.root.isRoot && path.isWithin(.root))
        #expect(throws: NotebookPathError.self) { try NotebookPath("Work/../etc") }
        #expect(throws: NotebookPathError.self) { try NotebookPath("/etc") }
        #expect(throws: NotebookPathError.self) { try NotebookPath("CON\u{7F}") }
    }

    @Test("tools and templates have stable names and raw values (they are stored in files)")
    func stableNames() {
        #expect(Tool.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5])
        #expect(Tool.allCases.allSatisfy { Tool(name: $0.description) == $0 })
        #expect(Tool(name: "Highlighter") == .highlighter)
        #expect(TemplateKind.allCases.allSatisfy { TemplateKind(name: $0.description) == $0 })
    }

    @Test("identifiers are 12 base32 characters, safe as file names")
    func identifiers() {
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<1_000).map { _ in NoteID.random(using: &generator) }
        #expect(Set(ids).count == 1_000)
        #expect(ids.allSatisfy { NoteID.isWellFormed($0.rawValue) })
        #expect(!NoteID.isWellFormed("../../etc/pa"))
    }

    @Test("bounds enclose every point; the null rectangle unions to the other")
    func bounds() {
        let stroke = Stroke(id: StrokeID(1), points: [InkPoint(x: 3, y: -1), InkPoint(x: -2, y: 5)])
        #expect(stroke.bounds == Rect(minX: -2, minY: -1, maxX: 3, maxY: 5))
        #expect(Rect.null.union(stroke.bounds) == stroke.bounds)
        #expect(Stroke(id: StrokeID(2), points: []).bounds.isNull)
        #expect(stroke.bounds.intersects(Rect(minX: 2, minY: 4, maxX: 9, maxY: 9)))
        #expect(!stroke.bounds.intersects(.null))
    }

    @Test("a page's next stroke id follows the highest in use")
    func nextStrokeID() {
        var page = Page(id: PageID(rawValue: "abcdefghjkmn"))
        #expect(page.nextStrokeID == StrokeID(1))
        page.strokes = [Stroke(id: StrokeID(7), points: []), Stroke(id: StrokeID(3), points: [])]
        #expect(page.nextStrokeID == StrokeID(8))
    }
}
