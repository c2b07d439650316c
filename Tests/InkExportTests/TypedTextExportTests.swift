import Foundation
import TestSupport
import InkCore
import InkStore
import Testing
@testable import InkExport

/// Dark pixels on page `page` of a PDF, rendered at 36 dpi in grey by pdftoppm.
private func darkPixels(_ pdf: String, page: Int) throws -> Int {
    let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-page-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: prefix + ".pgm") }
    let result = try tool(["pdftoppm", "-gray", "-r", "36", "-f", "\(page)", "-l", "\(page)", "-singlefile", pdf, prefix])
    #expect(result.status == 0, "\(result.output)")
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: prefix + ".pgm")))
    // P5 header: four whitespace-separated fields (magic, width, height, maximum), then the pixels.
    var fields = 0, index = 0
    while fields < 4, index < bytes.count {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
        while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x0A { index += 1 }
        fields += 1
    }
    return bytes[(index + 1)...].filter { $0 < 128 }.count
}

/// The page count pdfinfo reports.
private func pageCount(_ pdf: String) throws -> Int {
    let line = try tool(["pdfinfo", pdf]).output.split(separator: "\n").first { $0.hasPrefix("Pages:") }
    return Int(line?.split(separator: " ").last ?? "") ?? -1
}

@Suite("Typed text in exports")
struct TypedTextExportTests {
    let body = """
        # Sprint retro
        - [ ] book the quarterly offsite
        - [x] archive the wombat tickets
        1. numbered walrus
        ---
        A paragraph about marmalade that is long enough to wrap onto a second line of the page, \
        because it keeps going with more words about toast, butter and tea.

        """

    @Test("a PDF has the typed text after the ink: drawn as vector paths, in the invisible layer, no images",
          .enabled(if: popplerInstalled, "needs poppler-utils"))
    func pdf() throws {
        let fixture = try ExportFixture()
        let stored = try fixture.note("Retro", pages: 2)
        try fixture.library.setTypedText(body, of: stored.note.id)
        var exporter = Exporter(library: fixture.library, index: fixture.index, format: .pdf)
        exporter.textLayer = false  // the recognised text's layer; the typed text's stays
        let report = try exporter.run([try fixture.library.note(matching: "Retro")], to: .folder(fixture.out))
        let pdf = try #require(report.written.first)

        #expect(try pageCount(pdf) == 3)
        let text = try tool(["pdftotext", "-f", "3", "-l", "3", pdf, "-"]).output
        for word in ["Sprint", "retro", "quarterly", "offsite", "wombat", "walrus", "marmalade", "tea."] {
            #expect(text.contains(word), "\(word) not in \(text)")
        }
        #expect(text.contains("[ ] book the quarterly offsite") && text.contains("[x] archive the wombat tickets"))
        #expect(try tool(["pdftotext", "-f", "1", "-l", "2", pdf, "-"]).output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        // Vector: no image at all, and the text page is visibly inked (not only invisible text).
        #expect(try tool(["pdfimages", "-list", pdf]).output.split(separator: "\n").count == 2)
        #expect(!(try Data(contentsOf: URL(fileURLWithPath: pdf))).contains(Data("/Image".utf8)))
        #expect(try darkPixels(pdf, page: 3) > 200)

        // Without typed text the PDF is the ink pages alone.
        try fixture.library.setTypedText("", of: stored.note.id)
        exporter.conflicts = .overwrite
        let plain = try exporter.run([try fixture.library.note(matching: "Retro")], to: .folder(fixture.out))
        #expect(try pageCount(plain.written[0]) == 2)
    }

    @Test("a long typed text continues on as many pages as it needs; a note without ink gets text pages only",
          .enabled(if: popplerInstalled, "needs poppler-utils"))
    func manyPages() throws {
        let fixture = try ExportFixture()
        let stored = try fixture.note("Long", pages: 0)
        let long = (1...150).map { "- [ ] item \($0) of the long list" }.joined(separator: "\n")
        try fixture.library.setTypedText(long, of: stored.note.id)
        let report = try Exporter(library: fixture.library, index: fixture.index, format: .pdf)
            .run([try fixture.library.note(matching: "Long")], to: .folder(fixture.out))
        let pdf = try #require(report.written.first)
        let pages = try pageCount(pdf)
        #expect(pages >= 3)
        let text = try tool(["pdftotext", pdf, "-"]).output
        for n in [1, 75, 150] { #expect(text.contains("item \(n) of the long list")) }
        #expect(try darkPixels(pdf, page: pages) > 20)
    }

    @Test("Markdown has the typed text byte for byte after the frontmatter, title and pages")
    func markdown() throws {
        let fixture = try ExportFixture()
        let stored = try fixture.note("Retro", pages: 1)
        let odd = "line with trailing spaces   \r\n\t- [ ] tabbed task\n\n\n```\n# not a heading\n```\nunicode: ünï “q” 漢字 — no final newline"
        try fixture.library.setTypedText(odd, of: stored.note.id)
        let report = try Exporter(library: fixture.library, index: fixture.index, format: .md)
            .run([try fixture.library.note(matching: "Retro")], to: .folder(fixture.out))
        let markdown = try #require(report.written.first { $0.hasSuffix(".md") })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: markdown))
        let text = String(decoding: bytes, as: UTF8.self)
        let at = try #require(bytes.range(of: Data(odd.utf8)))
        #expect(at.upperBound == bytes.count)
        let image = try #require(text.range(of: "![Page 1]("))
        #expect(text[image.upperBound...].contains("unicode: ünï"))
        #expect(text.hasPrefix("---\ntitle: \"Retro\""))
    }
}
