import Foundation
import TestSupport
import InkCore
import InkIndex
import InkStore
@testable import InkwellKit
import Testing
@testable import InkExport

@Suite("Exporter")
struct ExporterTests {
    @Test("a ZIP holds notebooks as folders, PNGs stored, Markdown deflated, and passes unzip -t")
    func zipArchive() throws {
        let fixture = try ExportFixture()
        try fixture.note("Standup", in: "Work/Meetings", pages: 2)
        try fixture.note("Groceries", in: "Personal")
        let archive = fixture.out.appendingPathComponent("notes.zip")
        var exporter = Exporter(library: fixture.library, index: fixture.index, format: .md)
        exporter.parallelism = 2
        let report = try exporter.run(try fixture.library.notes(), to: .zip(archive))
        #expect(report.failed.isEmpty && report.archive == archive.path)
        #expect(try tool(["unzip", "-t", archive.path]).status == 0)
        let listing = try tool(["unzip", "-Z", archive.path]).output
        #expect(report.written.contains { $0.hasPrefix("Work/Meetings/") && $0.hasSuffix("-standup.md") })
        #expect(report.written.contains { $0.hasPrefix("Work/Meetings/") && $0.hasSuffix("-standup-p02.png") })
        #expect(report.written.contains { $0.hasPrefix("Personal/") && $0.hasSuffix("-groceries.md") })
        let methods = listing.split(separator: "\n").filter { $0.hasSuffix(".png") || $0.hasSuffix(".md") }.map { line -> String in
            (line.hasSuffix(".png") ? "png " : "md ") + (line.contains("stor") ? "stored" : line.contains("def") ? "deflated" : "?")
        }
        #expect(Set(methods) == ["png stored", "md deflated"], "\(listing)")
        #expect(try fixture.files() == ["notes.zip"])
    }

    @Test("PDFs carry the recognised words as invisible text in line order, and metadata", .enabled(if: popplerInstalled, "needs pdftotext and pdfinfo (poppler-utils)"))
    func searchablePDF() throws {
        let fixture = try ExportFixture()
        try fixture.note("Weekly planning", tags: [InkCore.Tag("q3")!, InkCore.Tag("budget")!])
        let lines = ["Weekly planning meeting", "budget review for Q3", "call the printer"]
        _ = try Indexer(library: fixture.library, index: fixture.index, makeRecognizer: { FixedRecognizer(lines: lines) }).run()
        var exporter = Exporter(library: fixture.library, index: fixture.index, format: .pdf)
        exporter.author = "Ada"
        let report = try exporter.run(try fixture.library.notes(), to: .folder(fixture.out))
        let pdf = try #require(report.written.first)
        let text = try tool(["pdftotext", "-layout", pdf, "-"]).output
        let found = text.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
            .filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters)).isEmpty }
        #expect(found == lines)
        let info = try tool(["pdfinfo", pdf]).output
        #expect(info.contains("Title:           Weekly planning"))
        #expect(info.contains("Author:          Ada"))
        #expect(info.contains("Keywords:        budget, q3"))
        #expect(try tool(["pdfimages", "-list", pdf]).output.split(separator: "\n").count == 2)

        exporter.textLayer = false
        exporter.conflicts = .overwrite
        let plain = try exporter.run(try fixture.library.notes(), to: .folder(fixture.out))
        #expect(try tool(["pdftotext", plain.written[0], "-"]).output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test("Markdown frontmatter parses as YAML, whatever the title", .enabled(if: pythonYAML, "needs python3 with PyYAML"))
    func markdownFrontmatter() throws {
        let fixture = try ExportFixture()
        let title = "Q3: \"plan\" — #1 \\ [draft] {x} & more: yes"
        try fixture.note(title, in: "Work", tags: [InkCore.Tag("q3-plan")!])
        let report = try Exporter(library: fixture.library, index: fixture.index, format: .md)
            .run(try fixture.library.notes(), to: .folder(fixture.out))
        let markdown = try #require(report.written.first { $0.hasSuffix(".md") })
        let script = """
            import sys, yaml, json
            text = open(sys.argv[1], encoding='utf-8').read()
            front = text.split('---\\n')[1]
            print(json.dumps(yaml.safe_load(front), default=str))
            """
        let parsed = try tool(["python3", "-c", script, markdown])
        #expect(parsed.status == 0, "\(parsed.output)")
        let fields = try JSONSerialization.jsonObject(with: Data(parsed.output.utf8)) as! [String: Any]
        #expect(fields["title"] as? String == title)
        #expect(fields["tags"] as? [String] == ["q3-plan"])
        #expect(fields["source"] as? String == "inkwell")
        #expect(fields["inkwell_source"] as? String == "user") // where the note came from (`note show`)
        #expect(fields["notebook"] as? String == "Work")
        #expect(report.written.contains { $0.hasSuffix("-p01.png") })
        #expect(try fixture.files().count == 2)
    }

    @Test("hostile titles still give safe names inside the output folder")
    func hostileTitles() throws {
        let fixture = try ExportFixture()
        for title in ["../../etc/passwd", "CON", "   ", String(repeating: "long title ", count: 90), "a/b\\c"] {
            if title.trimmingCharacters(in: .whitespaces).isEmpty { continue }  // the store refuses empty titles
            try fixture.note(title)
        }
        let report = try Exporter(library: fixture.library, index: nil, format: .pdf).run(try fixture.library.notes(), to: .folder(fixture.out))
        #expect(report.written.count == 4)
        for path in report.written {
            #expect(URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path == fixture.out.standardizedFileURL.path)
            #expect(URL(fileURLWithPath: path).lastPathComponent.count <= 8 + 1 + 60 + 4)
        }
    }

    @Test("existing files: refuse writes nothing; skip, suffix and overwrite do what they say")
    func conflicts() throws {
        let fixture = try ExportFixture()
        try fixture.note("Plan")
        let notes = try fixture.library.notes()
        var exporter = Exporter(library: fixture.library, index: nil, format: .pdf)
        let first = try exporter.run(notes, to: .folder(fixture.out))
        let name = URL(fileURLWithPath: first.written[0]).lastPathComponent
        try Data("mine".utf8).write(to: fixture.out.appendingPathComponent(name))
        #expect(throws: ExportError.self) { try exporter.run(notes, to: .folder(fixture.out)) }
        #expect(try Data(contentsOf: fixture.out.appendingPathComponent(name)) == Data("mine".utf8))
        exporter.conflicts = .skip
        #expect(try exporter.run(notes, to: .folder(fixture.out)).skipped.count == 1)
        exporter.conflicts = .suffix
        #expect(try exporter.run(notes, to: .folder(fixture.out)).written.map { URL(fileURLWithPath: $0).lastPathComponent }
            == [name.replacingOccurrences(of: ".pdf", with: "-2.pdf")])
        exporter.conflicts = .overwrite
        _ = try exporter.run(notes, to: .folder(fixture.out))
        #expect(try Data(contentsOf: fixture.out.appendingPathComponent(name)).starts(with: Data("%PDF".utf8)))
        #expect(try fixture.files().count == 2)
    }

    @Test("one file and one ZIP follow the same conflict policy as a folder", arguments: ["file", "zip"])
    func singleFileConflicts(kind: String) throws {
        let fixture = try ExportFixture()
        try fixture.note("Plan")
        try fixture.note("Groceries")
        let notes = try fixture.library.notes()
        let chosen = kind == "zip" ? notes : [notes[0]]
        let target = fixture.out.appendingPathComponent(kind == "zip" ? "notes.zip" : "plan.pdf")
        func destination(_ url: URL) -> ExportDestination { kind == "zip" ? .zip(url) : .file(url) }
        try Data("mine".utf8).write(to: target)
        var exporter = Exporter(library: fixture.library, index: nil, format: .pdf)

        let refusal = try #require(throws: ExportError.self) { try exporter.run(chosen, to: destination(target)) }
        #expect("\(refusal)".contains(target.path) && "\(refusal)".contains("--on-conflict"))
        exporter.conflicts = .skip
        #expect(try exporter.run(chosen, to: destination(target)).skipped == [target.path])
        exporter.conflicts = .ask
        exporter.ask = { _ in false }
        #expect(try exporter.run(chosen, to: destination(target)).written.isEmpty)
        #expect(try Data(contentsOf: target) == Data("mine".utf8))
        exporter.conflicts = .suffix
        let suffixed = try exporter.run(chosen, to: destination(target))
        let second = target.deletingPathExtension().lastPathComponent + "-2." + target.pathExtension
        #expect((suffixed.archive ?? suffixed.written.first).map { URL(fileURLWithPath: $0).lastPathComponent } == second)
        exporter.conflicts = .overwrite
        _ = try exporter.run(chosen, to: destination(target))
        #expect(try Data(contentsOf: target).count > 4)
        #expect(try fixture.files() == [target.lastPathComponent, second].sorted())
    }

    @Test("a broken note is reported and skipped; the others are exported; nothing half-written is left")
    func brokenNote() throws {
        let fixture = try ExportFixture()
        try fixture.note("Good one")
        let broken = try fixture.note("Broken one")
        try FileManager.default.removeItem(at: fixture.library.pageURL(broken.note.pages[0], in: broken.folder))
        let report = try Exporter(library: fixture.library, index: nil, format: .pdf)
            .run(try fixture.library.notes(), to: .zip(fixture.out.appendingPathComponent("all.zip")))
        #expect(report.failed.map(\.title) == ["Broken one"])
        #expect(report.written.count == 1)
        #expect(try fixture.files() == ["all.zip"])

        let unwritable = fixture.out.appendingPathComponent("read-only")
        try FileManager.default.createDirectory(at: unwritable, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: unwritable.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: unwritable.path) }
        if getuid() != 0 {  // root writes anywhere
            #expect(throws: (any Error).self) { try Exporter(library: fixture.library, index: nil, format: .pdf)
                .run([try fixture.library.note(matching: "Good one")], to: .folder(unwritable)) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: unwritable.path).isEmpty)
        }
        #expect(throws: ExportError.self) { try Exporter(library: fixture.library, index: nil, format: .pdf)
            .run(try fixture.library.notes(), to: .zip(fixture.out.appendingPathComponent("missing/all.zip"))) }
    }
}
