import Foundation
import TestSupport
import InkCore
import InkExport
import InkIndex
import InkStore
@testable import InkwellKit
import Testing
@testable import InkObsidian

/// Reads each page as the lines given for its id (nothing for other pages).
struct ScriptedRecognizer: PageRecognizer {
    let lines: [PageID: [String]]
    func recognize(_ page: Page) throws -> PageRecognition {
        var words: [RecognizedWord] = []
        for (number, line) in (lines[page.id] ?? []).enumerated() {
            for (column, word) in line.split(separator: " ").enumerated() {
                let x = 100 + Double(column) * 160, y = 200 + Double(number) * 120
                words.append(RecognizedWord(text: String(word), box: Rect(minX: x, minY: y, maxX: x + 140, maxY: y + 60),
                                            confidence: 0.9, line: number))
            }
        }
        return PageRecognition(words: words, hashtags: [])
    }
}

let utc = TimeZone(identifier: "UTC")!
let cmarkInstalled = (try? tool(["cmark-gfm", "--version"]).status) == 0

/// A library with an index and an empty vault beside it.
struct VaultFixture {
    let fixture: ExportFixture
    let vault: URL
    var library: Library { fixture.library }

    init() throws {
        fixture = try ExportFixture()
        vault = fixture.root.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
    }

    /// A note created at `created` (ISO 8601) with `pages` pages of one stroke each.
    @discardableResult
    func note(_ title: String, created: String, in notebook: String = "Inbox", pages: Int = 1, tags: Set<InkCore.Tag> = []) throws -> StoredNote {
        let date = try #require(ISO8601DateFormatter().date(from: created))
        let stored = try library.createNote(title: title, in: try NotebookPath(notebook), created: date, tags: tags)
        for page in 0..<pages {
            try library.save([PageDelta(pageID: PageID.random(), size: .remarkable, isNew: true, addedStrokes: [stroke(y: 300 + page * 50)])],
                             to: stored.note.id)
        }
        return try library.note(matching: stored.note.id.rawValue)
    }

    func stroke(y: Int, id: UInt64 = 1) -> Stroke {
        Stroke(id: StrokeID(id), width: 3, points: (0..<20).map {
            InkPoint(x: 100 + Float($0) * 10, y: Float(y), pressure: 0.6, time: Float($0 * 8))
        })
    }

    /// Recognises every changed page as the lines given for its note's pages, in order.
    func recognize(_ texts: [String: [[String]]]) throws {
        var lines: [PageID: [String]] = [:]
        for stored in try library.notes() {
            for (page, text) in zip(stored.note.pages, texts[stored.note.title] ?? []) { lines[page] = text }
        }
        let script = lines
        _ = try Indexer(library: library, index: fixture.index, makeRecognizer: { ScriptedRecognizer(lines: script) }).run()
    }

    func push(timeZone: TimeZone = utc, vault: URL? = nil) throws -> ObsidianPushReport {
        var push = ObsidianPush(library: library, index: fixture.index, vault: vault ?? self.vault)
        push.timeZone = timeZone
        push.parallelism = 2
        return try push.run(try library.notes())
    }

    func text(_ relative: String) throws -> String {
        try String(decoding: Data(contentsOf: vault.appendingPathComponent(relative)), as: UTF8.self)
    }

    func write(_ relative: String, _ text: String) throws {
        let url = vault.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Every file and folder under `folder` with the bytes of the files: equal snapshots, nothing changed.
    static func snapshot(_ folder: URL) throws -> [String: Data] {
        var entries: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return entries }
        while let url = walker.nextObject() as? URL {
            let relative = String(url.path.dropFirst(folder.path.count))
            entries[relative] = try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true ? Data(contentsOf: url) : Data()
        }
        return entries
    }

    func snapshot() throws -> [String: Data] { try VaultFixture.snapshot(vault) }
}

@Suite("Obsidian push")
struct ObsidianPushTests {
    @Test("pushing twice adds nothing: daily notes, images and journal stay byte-identical")
    func pushTwice() throws {
        let v = try VaultFixture()
        try v.note("Standup", created: "2026-03-02T09:15:00Z", in: "Work", pages: 2, tags: [InkCore.Tag("daily")!])
        try v.note("Groceries", created: "2026-03-02T18:00:00Z")
        try v.note("Reading", created: "2026-03-05T21:00:00Z")
        try v.recognize(["Standup": [["Ship the #q3-plan today", "- [ ] send notes to Ada"], ["page two"]]])
        let first = try v.push()
        #expect(first.dailyNotes.map(\.path) == ["2026-03-02.md", "2026-03-05.md"])
        #expect(first.dailyNotes.map(\.added.count) == [2, 1])
        #expect(first.attachments.count == 4)
        let daily = try v.text("2026-03-02.md")
        #expect(daily.hasPrefix("## Standup\ninkwell · Work · 09:15 · #daily\n\nShip the #q3-plan today\n- [ ] send notes to Ada\n\n![["))
        #expect(daily.contains("\n## Groceries\ninkwell · Inbox · 18:00\n"))
        let before = try v.snapshot()

        let second = try v.push()
        #expect(second.dailyNotes.isEmpty && second.attachments.isEmpty)
        #expect(second.unchanged.count == 3)
        #expect(try v.snapshot() == before)
    }

    @Test("a note changed since gets exactly one update section, after everything already there")
    func updateSection() throws {
        let v = try VaultFixture()
        let plan = try v.note("Plan", created: "2026-03-02T09:00:00Z")
        try v.note("Other", created: "2026-03-02T10:00:00Z")
        try v.recognize(["Plan": [["first draft #q3"]]])
        _ = try v.push()
        let pushed = try v.text("2026-03-02.md")

        try v.library.save([PageDelta(pageID: plan.note.pages[0], isNew: false, addedStrokes: [v.stroke(y: 600, id: 2)])], to: plan.note.id)
        _ = try v.library.updateNote(plan.note.id) { $0.title = "Plan B" }
        try v.recognize(["Plan B": [["first draft #q3", "- [x] second thought"]]])
        let report = try v.push()
        #expect(report.dailyNotes.map(\.updated) == [[plan.note.id]])
        #expect(report.unchanged.count == 1)
        let updated = try v.text("2026-03-02.md")
        #expect(updated.hasPrefix(pushed))
        let added = String(updated.dropFirst(pushed.count))
        #expect(added.hasPrefix("\n## Plan B (updated "))
        #expect(added.contains("first draft #q3\n- [x] second thought\n"))
        #expect(updated.components(separatedBy: "(updated ").count == 2)
        let journal = try v.text(".inkwell/pushed.jsonl").split(separator: "\n")
        #expect(journal.count == 3 && journal[2].contains("\"kind\":\"updated\""))

        let again = try v.push()
        #expect(again.dailyNotes.isEmpty && again.unchanged.count == 2)
        #expect(try v.text("2026-03-02.md") == updated)
    }

    @Test("typed text goes in as written, its headings below the section's and an open code block closed; a change is an update")
    func typedText() throws {
        let v = try VaultFixture()
        let plan = try v.note("Plan", created: "2026-03-02T09:00:00Z")
        try v.library.setTypedText("# Agenda\n- [ ] call Sam #work\n- [?] *maybe* [[Budget]]\nUnderlined\n---\n```swift\nlet x = 1\n", of: plan.note.id)
        _ = try v.push()
        let daily = try v.text("2026-03-02.md")
        #expect(daily.hasSuffix("]]\n\n### Agenda\n- [ ] call Sam #work\n- [?] *maybe* [[Budget]]\n#### Underlined\n```swift\nlet x = 1\n```\n"), "\(daily)")
        #expect(daily.contains("inkwell · Inbox · 09:00 · #work\n"))

        try v.library.appendTypedText("- [x] done", to: plan.note.id)
        #expect(try v.push().dailyNotes.first?.updated == [plan.note.id])
        #expect(try v.text("2026-03-02.md").hasSuffix("let x = 1\n- [x] done\n```\n"))
    }

    @Test("the user's own text in a daily note survives byte for byte, CRLF and all")
    func userTextSurvives() throws {
        let v = try VaultFixture()
        let plan = try v.note("Plan", created: "2026-03-02T09:00:00Z")
        let mine = "# Monday 🌧\r\n- [ ] call Ada\r\nno newline at the end"
        try v.write("2026-03-02.md", mine)
        _ = try v.push()
        let first = try Data(contentsOf: v.vault.appendingPathComponent("2026-03-02.md"))
        #expect(first.starts(with: Data(mine.utf8)))
        let appended = String(decoding: first.dropFirst(mine.utf8.count), as: UTF8.self)
        #expect(appended.hasPrefix("\r\n\r\n## Plan\r\ninkwell · Inbox · 09:00\r\n"))
        #expect(!appended.replacingOccurrences(of: "\r\n", with: "").contains("\n"))

        // The user writes below the section in Obsidian; the note changes; the next push appends after it.
        let edited = String(decoding: first, as: UTF8.self) + "\r\nmore of my own text\r\n"
        try v.write("2026-03-02.md", edited)
        _ = try v.library.updateNote(plan.note.id) { $0.tags.insert(InkCore.Tag("later")!) }
        let report = try v.push()
        #expect(report.dailyNotes.first?.updated == [plan.note.id])
        let second = try v.text("2026-03-02.md")
        #expect(second.hasPrefix(edited + "\r\n## Plan (updated "))
    }

    @Test("notes of two days go to two daily notes, by creation day in the time zone, in the vault's folders and format")
    func twoDays() throws {
        let v = try VaultFixture()
        try v.write(".obsidian/daily-notes.json", #"{"folder": "Journal/Daily/", "format": "YYYY/MM/YYYY-MM-DD dddd", "template": ""}"#)
        try v.write(".obsidian/app.json", #"{"attachmentFolderPath": "./attachments"}"#)
        try v.note("Late", created: "2026-03-01T23:30:00Z")
        try v.note("Early", created: "2026-03-02T00:30:00Z")
        let report = try v.push()
        #expect(report.dailyNotes.map(\.path) == ["Journal/Daily/2026/03/2026-03-01 Sunday.md", "Journal/Daily/2026/03/2026-03-02 Monday.md"])
        #expect(report.attachments.allSatisfy { $0.hasPrefix("Journal/Daily/2026/03/attachments/2026030") && $0.hasSuffix(".png") })
        #expect(try v.text("Journal/Daily/2026/03/2026-03-01 Sunday.md").contains("![[\(report.attachments[0])]]"))

        // Seen from New York both were written on Sunday evening: one daily note, in creation order.
        let other = v.fixture.root.appendingPathComponent("vault-ny")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let ny = try v.push(timeZone: TimeZone(identifier: "America/New_York")!, vault: other)
        #expect(ny.dailyNotes.map(\.path) == ["2026-03-01.md"])
        let text = try String(contentsOf: other.appendingPathComponent("2026-03-01.md"), encoding: .utf8)
        #expect(text.hasPrefix("## Late\ninkwell · Inbox · 18:30\n"))
        #expect(text.contains("\n## Early\ninkwell · Inbox · 19:30\n"))
    }

    @Test("hostile titles and text stay one heading and plain text, and nothing is written outside the vault")
    func hostileTitles() throws {
        let v = try VaultFixture()
        let titles = ["../../etc/passwd", "]] ![[secret.png]] | x", "Line one\u{2028}# injected\u{2029}---", "%%hidden%% ==mark== $x$ ^b <b>", String(repeating: "long ", count: 199)]
        for (i, title) in titles.enumerated() { try v.note(title, created: "2026-03-02T0\(i):00:00Z") }
        try v.recognize(["../../etc/passwd": [["# not a heading", "---", "> not a quote", "| a | b |", "[[link]] ![[embed.png]]"]]])
        let outside = try FileManager.default.contentsOfDirectory(atPath: v.fixture.root.path).sorted()
        let report = try v.push()
        #expect(try FileManager.default.contentsOfDirectory(atPath: v.fixture.root.path).sorted() == outside)
        #expect(report.attachments.count == 5)
        for path in report.attachments {
            #expect(!path.contains("/") && !path.hasPrefix(".") && path.utf8.count < 100)
            #expect(FileManager.default.fileExists(atPath: v.vault.appendingPathComponent(path).path))
        }
        let daily = try v.text("2026-03-02.md")
        let lines = daily.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.hasPrefix("#") }.count == 5)
        #expect(lines.filter { $0.hasPrefix("## ") }.map { String($0) }.first == "## ../../etc/passwd")
        #expect(lines.contains("## \\]\\] !\\[\\[secret.png\\]\\] \\| x"))
        #expect(lines.contains("## Line one \\# injected ---"))
        #expect(lines.contains("\\# not a heading") && lines.contains("\\---") && lines.contains("\\> not a quote"))
        #expect(lines.filter { $0.hasPrefix("![[") }.count == 5)
        #expect(!daily.contains("%%") && !daily.contains("==") && !daily.contains("[[link"))
    }

    @Test("a push waits for another push into the same vault and gives up by name; a replaced file keeps its mode")
    func vaultLockAndMode() throws {
        let v = try VaultFixture()
        let held = open(v.vault.path, O_RDONLY | O_DIRECTORY)
        #expect(held >= 0)
        defer { close(held) }
        #expect(flock(held, LOCK_EX) == 0)
        let busy = #expect(throws: ExportError.self) { try VaultLock.withExclusive(v.vault, timeout: 0.05) {} }
        #expect(busy == ExportError(path: v.vault.path, reason: "another inkwell push into this vault is running"))
        flock(held, LOCK_UN)
        #expect(try VaultLock.withExclusive(v.vault, timeout: 0.05) { 7 } == 7)

        let file = v.vault.appendingPathComponent("kept.md")
        try VaultFiles.replace(file, expecting: nil, with: Array("one\n".utf8))
        #expect(chmod(file.path, 0o640) == 0)
        try VaultFiles.replace(file, expecting: Array("one\n".utf8), with: Array("two\n".utf8))
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_mode & 0o7777 == 0o640)
        #expect(try String(contentsOf: file, encoding: .utf8) == "two\n")
    }

    @Test("an unwritable vault is refused before anything is written", .enabled(if: ReadOnly.possible, "needs a non-root user or chattr"))
    func unwritableVault() throws {
        let v = try VaultFixture()
        try v.note("Plan", created: "2026-03-02T09:00:00Z")
        try v.write("2026-03-02.md", "my day\n")
        let before = try v.snapshot()
        try ReadOnly.set(v.vault)
        defer { ReadOnly.clear(v.vault) }
        #expect { try v.push() } throws: { error in
            (error as? ExportError)?.path == v.vault.path && "\(error)".contains("cannot write into this folder")
        }
        ReadOnly.clear(v.vault)
        #expect(try v.snapshot() == before)

        // A settings folder that would leave the vault is refused too.
        try v.write(".obsidian/daily-notes.json", #"{"folder": "../outside"}"#)
        let configured = try v.snapshot()
        #expect(throws: ExportError.self) { try v.push() }
        #expect(try v.snapshot() == configured)
        #expect(!FileManager.default.fileExists(atPath: v.fixture.root.appendingPathComponent("outside").path))
    }

    @Test("a daily note changed under the push is left alone; days written before stay recorded; its images are taken back")
    func changedUnderUs() throws {
        let v = try VaultFixture()
        try v.note("Monday", created: "2026-03-02T09:00:00Z")
        try v.note("Tuesday", created: "2026-03-03T09:00:00Z", pages: 2)
        try v.write("2026-03-03.md", "my Tuesday\n")
        var push = ObsidianPush(library: v.library, index: v.fixture.index, vault: v.vault)
        push.timeZone = utc
        push.beforeReplacing = { url in
            guard url.lastPathComponent == "2026-03-03.md", let handle = try? FileHandle(forWritingTo: url) else { return }
            handle.seekToEndOfFile()
            handle.write(Data("typed in Obsidian meanwhile\n".utf8))
            try? handle.close()
        }
        #expect { try push.run(try v.library.notes()) } throws: { error in
            (error as? ExportError)?.path.hasSuffix("2026-03-03.md") == true && "\(error)".contains("changed while")
        }
        #expect(try v.text("2026-03-03.md") == "my Tuesday\ntyped in Obsidian meanwhile\n")
        #expect(try v.text("2026-03-02.md").hasPrefix("## Monday\n"))
        let files = try FileManager.default.contentsOfDirectory(atPath: v.vault.path).sorted()
        #expect(files.filter { $0.hasSuffix(".png") }.count == 1 && files.allSatisfy { !$0.hasSuffix(".tmp") })
        #expect(try v.text(".inkwell/pushed.jsonl").split(separator: "\n").count == 1)

        let retry = try v.push()
        #expect(retry.dailyNotes.map(\.path) == ["2026-03-03.md"] && retry.unchanged.count == 1)
        #expect(try v.text("2026-03-03.md").hasPrefix("my Tuesday\ntyped in Obsidian meanwhile\n\n## Tuesday\n"))
    }

    @Test("the journal ignores a line torn by a crash at its end and refuses a damaged line elsewhere")
    func journal() throws {
        let v = try VaultFixture()
        try v.note("Plan", created: "2026-03-02T09:00:00Z")
        _ = try v.push()
        let line = try v.text(".inkwell/pushed.jsonl")
        try v.write(".inkwell/pushed.jsonl", line + #"{"dailyNote":"2026-03-0"#)
        #expect(try v.push().unchanged.count == 1)
        try v.note("Next", created: "2026-03-02T10:00:00Z")
        _ = try v.push()
        let lines = try v.text(".inkwell/pushed.jsonl").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[0] + "\n" == line && lines[1].contains("\"title\":\"Next\"") && lines[2].isEmpty)

        try v.write(".inkwell/pushed.jsonl", "not json\n" + line)
        let daily = try v.snapshot()
        #expect { try v.push() } throws: { "\($0)".contains("line 1 is not a push record") }
        #expect(try v.snapshot() == daily)
    }
}

@Suite("Obsidian Markdown")
struct ObsidianMarkdownTests {
    @Test("hashtags stay tags, task markers stay tasks, everything else Markdown would act on is escaped")
    func lines() {
        let cases: [(String, String)] = [
            ("Ship the #q3-plan today #work/deep", "Ship the #q3-plan today #work/deep"),
            ("#budget at the start", "#budget at the start"),
            ("- [ ] call Ada", "- [ ] call Ada"),
            ("- [x] done *really*", "- [x] done \\*really\\*"),
            ("- [!] urgent", "- [!] urgent"),
            ("- [?] maybe", "- [?] maybe"),
            ("- [>] not a task state", "- \\[\\>\\] not a task state"),
            ("- plain bullet", "- plain bullet"),
            ("# not a heading", "\\# not a heading"),
            ("issue #42 and C#", "issue \\#42 and C\\#"),
            ("---", "\\---"),
            ("=== big", "\\=\\=\\= big"),
            ("> quote", "\\> quote"),
            ("a | b | c", "a \\| b \\| c"),
            ("[[link]] ![[embed.png]]", "\\[\\[link\\]\\] !\\[\\[embed.png\\]\\]"),
            ("%%hidden%% ==mark== ~~gone~~ a = b ~5%", "\\%\\%hidden\\%\\% \\=\\=mark\\=\\= \\~\\~gone\\~\\~ a = b ~5%"),
            ("cost $5 ^ref <b>x</b> & `code` _u_", "cost \\$5 \\^ref \\<b\\>x\\</b\\> \\& \\`code\\` \\_u\\_"),
            ("    indented\twith tab\u{7}", "indented with tab"),
        ]
        for (input, expected) in cases { #expect(ObsidianMarkdown.line(input) == expected, "\(input)") }
        #expect(ObsidianMarkdown.text("a\n\n\n\nb\n\n") == ["a", "", "b"])
        #expect(ObsidianMarkdown.inline("#1 [draft]\nplan") == "\\#1 \\[draft\\] plan")
    }

    @Test("CommonMark (cmark-gfm) reads the escaped text back as it was written", .enabled(if: cmarkInstalled, "needs cmark-gfm"))
    func commonMarkReadsItBack() throws {
        let hostile = ["# not a heading", "---", "> quote", "a | b", "*stars* and _under_", "<script>x</script>", "[x](http://e.com)",
                       "`code`", "&amp; stays", "\\backslash", "~~gone~~", "=== setext"]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-md-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for text in hostile {
            let file = folder.appendingPathComponent("line.md")
            try Data(("before\n\n" + ObsidianMarkdown.line(text) + "\n").utf8).write(to: file)
            let html = try tool(["cmark-gfm", "-e", "table", "-e", "strikethrough", "-e", "tasklist", file.path]).output
            let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            #expect(html == "<p>before</p>\n<p>\(escaped)</p>\n", "\(text)")
        }
    }
}

@Suite("moment.js daily-note formats")
struct MomentDateFormatTests {
    @Test("formats like moment 2.29 (values taken from moment itself)")
    func formats() throws {
        let sunday = try #require(ISO8601DateFormatter().date(from: "2026-03-01T23:30:00Z"))
        let cases = [("YYYY-MM-DD", "2026-03-01"), ("DD.MM.YY", "01.03.26"), ("dddd, MMMM Do YYYY", "Sunday, March 1st 2026"),
                     ("YYYY/[W]WW/ddd", "2026/W09/Sun"), ("[Journal] YYYY-MM-DD", "Journal 2026-03-01"), ("gggg-[w]ww", "2026-w10"),
                     ("DDDD DDD DDDo", "060 60 60th"), ("Q Qo", "1 1st"), ("M Mo MMM", "3 3rd Mar"), ("D Do d do dd e E", "1 1st 0 0th Su 0 7"),
                     ("W Wo w wo", "9 9th 10 10th"), ("Y", "2026"), ("YYYY/MM/YYYY-MM-DD dddd", "2026/03/2026-03-01 Sunday"),
                     ("\\Y\\Y YYYY", "YY 2026"), ("TcbfijnoprtuvBCFIJKOPRTUV", "TcbfijnoprtuvBCFIJKOPRTUV")]
        for (pattern, expected) in cases {
            #expect(try MomentDateFormat(pattern).string(from: sunday, timeZone: utc) == expected, "\(pattern)")
        }
        let newYear = try #require(ISO8601DateFormatter().date(from: "2027-01-01T12:00:00Z"))
        #expect(try MomentDateFormat("GGGG-[W]WW-E gggg-[w]ww-e").string(from: newYear, timeZone: utc) == "2026-W53-5 2027-w01-5")
        let lateDecember = try #require(ISO8601DateFormatter().date(from: "2024-12-30T12:00:00Z"))
        #expect(try MomentDateFormat("GGGG-[W]WW gggg-[w]ww YYYY").string(from: lateDecember, timeZone: utc) == "2025-W01 2025-w01 2024")
        #expect(try MomentDateFormat("YYYY-MM-DD").string(from: sunday, timeZone: TimeZone(identifier: "Asia/Tokyo")!) == "2026-03-02")
    }

    @Test("time and locale tokens are refused, naming the position")
    func refused() {
        #expect { try MomentDateFormat("YYYY-MM-DD HH:mm") } throws: { error in
            (error as? MomentFormatError)?.position == 11 && "\(error)".contains("character 12")
        }
        #expect(throws: MomentFormatError.self) { try MomentDateFormat("LL") }
    }
}

/// Makes a folder unwritable even for root (chattr +i), or by permissions for other users.
enum ReadOnly {
    static let possible: Bool = {
        if getuid() != 0 { return true }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-chattr-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: probe) }
        guard (try? tool(["chattr", "+i", probe.path]).status) == 0 else { return false }
        _ = try? tool(["chattr", "-i", probe.path])
        return true
    }()

    static func set(_ folder: URL) throws {
        if getuid() == 0 {
            #expect(try tool(["chattr", "+i", folder.path]).status == 0)
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        }
    }

    static func clear(_ folder: URL) {
        if getuid() == 0 {
            _ = try? tool(["chattr", "-i", folder.path])
        } else {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        }
    }
}
