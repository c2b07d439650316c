import InkCore
import Testing
@testable import InkText

/// The one line of `text` (which must hold exactly one line, or the line `number`).
private func line(_ text: String, _ number: Int = 1) -> BodyLine {
    TypedText(text).lines[number - 1]
}

private func kinds(_ text: String) -> [BodyLineKind] {
    TypedText(text).lines.map(\.kind)
}

@Suite("Typed text: line kinds")
struct LineKindTests {
    @Test("headings from # to ######, their text without the markers or a closing run")
    func headings() {
        for level in 1...6 {
            let parsed = line(String(repeating: "#", count: level) + " Title \(level)")
            #expect(parsed.kind == .heading(level: level))
            #expect(parsed.content == "Title \(level)")
        }
        #expect(line("## Closed ##").content == "Closed")
        #expect(line("#\tTabbed").kind == .heading(level: 1))
        #expect(line("#").kind == .heading(level: 1))
        #expect(line("#").content == "")
        #expect(line("   ### indented three").kind == .heading(level: 3))
        #expect(line("# C# is a language").content == "C# is a language")
    }

    @Test("checkboxes open and ticked, with any list marker")
    func checkboxes() {
        #expect(line("- [ ] buy milk").kind == .task(.open))
        #expect(line("- [ ] buy milk").content == "buy milk")
        #expect(line("- [x] paid rent").kind == .task(.done))
        #expect(line("- [X] paid rent").kind == .task(.done))
        #expect(line("* [ ] star bullet").kind == .task(.open))
        #expect(line("+ [x] plus bullet").kind == .task(.done))
        #expect(line("1. [ ] numbered task").kind == .task(.open))
        #expect(line("1. [ ] numbered task").listMarker == "1.")
        #expect(line("- [ ]").kind == .task(.open))
        #expect(line("- [ ]").content == "")
        #expect(line("- [x]\tafter a tab").content == "after a tab")
    }

    @Test("every task marker of the documented set", arguments: TaskMarker.allCases)
    func taskMarkers(marker: TaskMarker) {
        let parsed = line("- [\(marker.rawValue)] something")
        #expect(parsed.kind == .task(marker))
        #expect(parsed.content == "something")
    }

    @Test("the markers the issue names mean what it says")
    func namedMarkers() {
        #expect(line("- [!] call the bank").kind == .task(.important))
        #expect(line("- [?] who owns this").kind == .task(.question))
        #expect(line("- [b] chapter 4").kind == .task(.bookmark))
        #expect(line("- [i] note this").kind == .task(.information))
        #expect(line("- [I] a new app").kind == .task(.idea))
        #expect(line("- [-] dropped").kind == .task(.cancelled))
        #expect(line("- [>] next week").kind == .task(.forwarded))
    }

    @Test("bullets, numbered items and their markers")
    func lists() {
        for marker in ["-", "*", "+"] {
            let parsed = line("\(marker) item")
            #expect(parsed.kind == .bullet)
            #expect(parsed.listMarker == marker)
            #expect(parsed.content == "item")
        }
        #expect(line("1. first").kind == .numbered(1))
        #expect(line("12. twelfth").kind == .numbered(12))
        #expect(line("3) CommonMark's other delimiter").kind == .numbered(3))
        #expect(line("3) CommonMark's other delimiter").listMarker == "3)")
        #expect(line("-").kind == .bullet)
    }

    @Test("dividers of -, * and _, spaced or not")
    func dividers() {
        for text in ["---", "***", "___", "- - -", "* * *", "_____", "  ---  ", "-\t-\t-"] {
            #expect(line(text).kind == .divider, "\(text)")
        }
    }

    @Test("blank lines and paragraphs")
    func blanksAndParagraphs() {
        #expect(kinds("Some text\n\n  \t\nMore text") == [.paragraph, .blank, .blank, .paragraph])
        #expect(line("Plain words.").content == "Plain words.")
    }

    @Test("fenced code: fences and the lines between them, whatever they look like")
    func fencedCode() {
        let text = """
            ```swift
            # not a heading
            - [ ] not a task
            ---
            ```
            ~~~
            ```
            still code
            ~~~
            after
            """
        #expect(kinds(text) == [.codeFence, .code, .code, .code, .codeFence, .codeFence, .code, .code, .codeFence, .paragraph])
        #expect(TypedText(text).lines[0].content == "swift")
        #expect(TypedText(text).lines[2].content == "- [ ] not a task")
        #expect(kinds("```\nnever closed\n# still code") == [.codeFence, .code, .code])
        #expect(kinds("````\n```\n````") == [.codeFence, .code, .codeFence])
    }

    @Test("indentation levels follow the list items above")
    func levels() {
        let text = """
            - top
              - two spaces in
                - deeper
              - back to one
            - top again
                - four spaces in
            \t- a tab in
              continued text of the item
            Not in the list
              - starts a new list, indented
            """
        let levels = TypedText(text).lines.map(\.level)
        #expect(levels == [0, 1, 2, 1, 0, 1, 1, 1, 0, 0])
        #expect(TypedText(text).lines[7].kind == .paragraph)
    }

    @Test("line numbers count from 1 and CRLF line ends are not part of the line")
    func numbering() {
        let text = TypedText("# A\r\n- [ ] b\r\n\r\nc")
        #expect(text.lines.map(\.number) == [1, 2, 3, 4])
        #expect(text.lines.map(\.kind) == [.heading(level: 1), .task(.open), .blank, .paragraph])
        #expect(text.lines[1].text == "- [ ] b")
        #expect(TypedText("").lines.isEmpty)
        #expect(TypedText("one\n").lines.count == 1)
        #expect(TypedText("\u{FEFF}# After a byte-order mark").lines[0].kind == .heading(level: 1))
    }
}

@Suite("Typed text: lines that only look like a kind")
struct LookAlikeTests {
    @Test("-[ ] without a space after the dash is a paragraph")
    func dashWithoutSpace() {
        #expect(line("-[ ] not a task").kind == .paragraph)
        #expect(line("-item").kind == .paragraph)
        #expect(line("1.item").kind == .paragraph)
    }

    @Test("- [ ] inside a fenced code block is code")
    func taskInCode() {
        #expect(kinds("```\n- [ ] inside\n```") == [.codeFence, .code, .codeFence])
        #expect(kinds("- list\n  ```\n  - [ ] inside a fence in a list\n  ```") == [.bullet, .codeFence, .code, .codeFence])
    }

    @Test("#hashtag without a space is a paragraph with a hashtag, not a heading")
    func hashtagLine() {
        let parsed = line("#hashtag at the start")
        #expect(parsed.kind == .paragraph)
        #expect(parsed.hashtags == [Tag("hashtag")!])
        #expect(line("####### seven is too many").kind == .paragraph)
    }

    @Test("--- directly under a paragraph line makes it a heading (CommonMark's setext heading)")
    func setext() {
        #expect(kinds("Title\n---") == [.heading(level: 2), .headingUnderline])
        #expect(kinds("Title\n===") == [.heading(level: 1), .headingUnderline])
        #expect(kinds("Two lines\nof title\n---") == [.heading(level: 2), .heading(level: 2), .headingUnderline])
        #expect(TypedText("Title\n---").lines[0].content == "Title")
        // Not directly under a paragraph: a divider.
        #expect(kinds("Title\n\n---") == [.paragraph, .blank, .divider])
        #expect(kinds("- item\n---") == [.bullet, .divider])
        #expect(kinds("# Heading\n---") == [.heading(level: 1), .divider])
        #expect(kinds("---") == [.divider])
        // Only - and = underline; spaced dashes and *** stay dividers.
        #expect(kinds("Title\n- - -") == [.paragraph, .divider])
        #expect(kinds("Title\n***") == [.paragraph, .divider])
        // === with no paragraph above is text.
        #expect(kinds("===") == [.paragraph])
    }

    @Test("- [xx] and other brackets are bullets whose text keeps them")
    func notAMarker() {
        for text in ["- [xx] two letters", "- [] empty", "- [z] not in the set", "- [x]no space", "- [ ]text", "- [é] accent"] {
            let parsed = line(text)
            #expect(parsed.kind == .bullet, "\(text)")
            #expect(parsed.content == String(text.dropFirst(2)), "\(text)")
        }
    }

    @Test("1) is a numbered item, as CommonMark has it; 1 without . or ) is text")
    func parenthesis() {
        #expect(line("1) first").kind == .numbered(1))
        #expect(line("1 first").kind == .paragraph)
        #expect(line("1234567890. ten digits is too many").kind == .paragraph)
        #expect(line("(1) in brackets").kind == .paragraph)
    }

    @Test("escaped \\# is text: no heading, no hashtag, and the reader sees #")
    func escapedHash() {
        let parsed = line("\\# not a heading \\#nottag")
        #expect(parsed.kind == .paragraph)
        #expect(parsed.hashtags.isEmpty)
        #expect(parsed.content == "# not a heading #nottag")
        #expect(line("\\- [ ] not a task").kind == .paragraph)
        #expect(line("\\- [ ] not a task").content == "- [ ] not a task")
    }

    @Test("headings and dividers indented four columns or more are paragraphs")
    func deepIndent() {
        #expect(line("    # four spaces").kind == .paragraph)
        #expect(line("    ---").kind == .paragraph)
    }
}

@Suite("Typed text: hashtags")
struct HashtagTests {
    @Test("hashtags anywhere in headings, items and paragraphs become tags, once each, in order")
    func found() {
        let text = TypedText("""
            # Plan #Q3
            - [ ] call Sam #work #q3
            Some #ideas/apps, and #q3-plan.
            """)
        #expect(text.hashtags.map(\.name) == ["q3", "work", "ideas/apps", "q3-plan"])
    }

    @Test("not in code, not escaped, not mid-word, not numbers, not URLs")
    func notTags() {
        let text = TypedText("""
            Issue #12 and C#, see https://example.com/#anchor
            `#code` and ``#more code``, \\#escaped, ##double
            ```
            #fenced
            ```
            a#b
            """)
        #expect(text.hashtags.isEmpty)
        #expect(TypedText("`unclosed #real").hashtags == [Tag("real")!])
    }
}

@Suite("Typed text: checkboxes")
struct CheckboxTests {
    @Test("toggling ticks an open box, opens a ticked one, and changes nothing else")
    func toggle() throws {
        let text = TypedText("# List\r\n- [ ] milk\r\n  - [X] eggs\r\nno newline at the end")
        let ticked = try text.togglingCheckbox(line: 2)
        #expect(ticked.before == .open && ticked.after == .done)
        #expect(ticked.text.text == "# List\r\n- [x] milk\r\n  - [X] eggs\r\nno newline at the end")
        let opened = try ticked.text.togglingCheckbox(line: 3)
        #expect(opened.before == .done && opened.after == .open)
        #expect(opened.text.text == "# List\r\n- [x] milk\r\n  - [ ] eggs\r\nno newline at the end")
        #expect(try opened.text.togglingCheckbox(line: 2).text.togglingCheckbox(line: 3).text.text
                == "# List\r\n- [ ] milk\r\n  - [x] eggs\r\nno newline at the end")
    }

    @Test("another task marker is ticked")
    func alternateMarker() throws {
        let toggled = try TypedText("- [!] urgent\n").togglingCheckbox(line: 1)
        #expect(toggled.before == .important && toggled.after == .done)
        #expect(toggled.text.text == "- [x] urgent\n")
    }

    @Test("a byte-order mark does not shift the marker")
    func afterBOM() throws {
        #expect(try TypedText("\u{FEFF}- [ ] a").togglingCheckbox(line: 1).text.text == "\u{FEFF}- [x] a")
    }

    @Test("a line that is not a checkbox, or no line at all, is refused with the reason", arguments: [
        (1, "a heading"), (2, "a bullet without a checkbox"), (3, "blank"), (5, "in a fenced code block"),
        (7, "a paragraph"), (8, "a numbered item without a checkbox"), (0, "there is no line 0"), (9, "the typed text has 8 lines"),
    ])
    func refused(number: Int, reason: String) {
        let text = TypedText("# Title\n- [xx] odd\n\n```\n- [ ] code\n```\n-[ ] squashed\n1. item\n")
        let error = #expect(throws: TypedTextError.self) { try text.togglingCheckbox(line: number) }
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
    }
}

@Suite("Typed text: counts, UTF-8, appending")
struct CountTests {
    @Test("words and characters count what a reader sees, not the markers")
    func counts() {
        let text = TypedText("""
            # Shopping list
            - [ ] two apples
            - [x] bread
            ---
            1. Call 555-0100 — today!
            ```
            let x = 1
            ```
            """)
        let stats = text.statistics
        // Shopping list (2) + two apples (2) + bread (1) + Call 555-0100 today! (3; the dash has no letter) + let x 1 (3).
        #expect(stats.words == 11)
        #expect(stats.characters == "Shopping list".count + "two apples".count + "bread".count
                + "Call 555-0100 — today!".count + "let x = 1".count)
    }

    @Test("reading time at 238 words a minute")
    func readingTime() {
        #expect(TextStatistics(words: 0, characters: 0).readingMinutes == 0)
        #expect(TextStatistics(words: 1, characters: 3).readingMinutes == 1)
        #expect(TextStatistics(words: 238, characters: 0).readingMinutes == 1)
        #expect(TextStatistics(words: 239, characters: 0).readingMinutes == 2)
        #expect(TextStatistics(words: 119, characters: 0).readingSeconds == 30)
        #expect(TextStatistics(words: 2380, characters: 0).readingSeconds == 600)
    }

    @Test("UTF-8 is checked byte by byte, naming the first bad byte")
    func utf8() throws {
        #expect(try TypedText(utf8: Array("héllo ✓ 𝄞".utf8)).text == "héllo ✓ 𝄞")
        let cases: [([UInt8], Int)] = [
            ([0x61, 0xFF], 1), ([0x61, 0x62, 0xC3], 2), ([0xC0, 0x80], 0), ([0xE0, 0x80, 0x80], 0),
            ([0xED, 0xA0, 0x80], 0), ([0xF4, 0x90, 0x80, 0x80], 0), ([0x61, 0xE2, 0x9C, 0x41], 1), ([0x80], 0),
        ]
        for (bytes, offset) in cases {
            #expect(throws: TypedTextError.notUTF8(byteOffset: offset)) { try TypedText(utf8: bytes) }
        }
    }

    @Test("appending puts the new text on a line of its own")
    func appending() {
        #expect(TypedText("a").appending("b").text == "a\nb")
        #expect(TypedText("a\n").appending("b").text == "a\nb")
        #expect(TypedText("a\r\nb").appending("c").text == "a\r\nb\r\nc")
        #expect(TypedText("").appending("b\n").text == "b\n")
    }
}
