import Foundation
import Testing
@testable import InkExport

@Suite("Export file names")
struct NamingTests {
    let created = Date(timeIntervalSince1970: 1_795_219_200 + 86_399)  // 2026-11-21 23:59:59 UTC

    @Test("names are the UTC creation date and a kebab-case slug of the title", arguments: [
        ("Weekly planning", "20261121-weekly-planning"),
        ("Q3 plan: budget & hiring!", "20261121-q3-plan-budget-hiring"),
        ("Café Ünïcödé", "20261121-cafe-unicode"),
        ("会议记录 2026", "20261121-会议记录-2026"),
        ("Заметки о встрече", "20261121-заметки-о-встрече"),
        ("../../etc/passwd", "20261121-etc-passwd"),
        ("CON", "20261121-con-note"),
        ("lpt1", "20261121-lpt1-note"),
        ("", "20261121-untitled"),
        ("???", "20261121-untitled"),
        ("a/b\\c:d*e?f\"g<h>i|j", "20261121-a-b-c-d-e-f-g-h-i-j"),
    ])
    func names(title: String, expected: String) {
        #expect(ExportNaming.baseName(title: title, created: created) == expected)
    }

    @Test("long titles are cut at a word, within 60 characters")
    func longTitles() {
        let slug = ExportNaming.slug(String(repeating: "minutes of the meeting ", count: 250))
        #expect(slug.count <= 60 && !slug.hasSuffix("-") && slug.hasPrefix("minutes-of-the"))
        let oneWord = ExportNaming.slug(String(repeating: "x", count: 5_000))
        #expect(oneWord.count == 60)
    }

    @Test("pages get -p02, and collisions -2, -3, case-insensitively and around existing files")
    func collisions() {
        var naming = ExportNaming()
        #expect(ExportNaming.baseName(title: "Notes", created: created, page: 2) == "20261121-notes-p02")
        #expect(naming.unique("20261121-notes", extension: "pdf") == "20261121-notes.pdf")
        #expect(naming.unique("20261121-Notes", extension: "pdf") == "20261121-Notes-2.pdf")
        #expect(naming.unique("20261121-notes", extension: "pdf", avoiding: { $0 == "20261121-notes-3.pdf" }) == "20261121-notes-4.pdf")
        #expect(naming.unique("20261121-notes", extension: "png") == "20261121-notes.png")
    }
}
