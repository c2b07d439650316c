import InkCore
import Testing
@testable import InkSamples

@Suite("Page layout")
struct LayoutTests {
    let layout = PageLayout.remarkable

    @Test("baselines lie on the page's rules, inside the margins")
    func baselines() {
        let baselines = layout.baselines
        #expect(baselines.count >= 15)
        #expect(baselines.allSatisfy { $0.truncatingRemainder(dividingBy: layout.lineSpacing) == 0 })
        #expect(baselines.first! > layout.marginTop)
        #expect(baselines.last! < Double(layout.size.height) - layout.marginBottom)
        #expect(layout.template.kind == .lined && Double(layout.template.spacing) == layout.lineSpacing)
    }

    @Test("long text wraps within the margins and continues on new pages", arguments: [
        (HandwritingStyle.print, JitterLevel.none), (.print, .strong), (.script, .mild), (.script, .strong),
    ])
    func wrapsWithinMargins(style: HandwritingStyle, jitter: JitterLevel) throws {
        let note = try note(longText, style: style, jitter: jitter)
        #expect(note.pages.count >= 2)
        let lineCount = note.pages.reduce(0) { $0 + $1.lines.count }
        #expect(lineCount > longText.pages[0].count, "the long paragraph wraps over several lines")
        for page in note.pages {
            #expect(!page.lines.isEmpty)
            #expect(page.page.size == layout.size)
            for point in page.page.strokes.flatMap(\.positions) {
                #expect(point.x >= layout.textLeft && point.x <= layout.textRight)
                #expect(point.y >= layout.marginTop && point.y <= Double(layout.size.height) - layout.marginBottom)
            }
        }
        // Every word is written, in order, across lines and pages.
        let written = note.pages.flatMap(\.lines).flatMap(\.words).map(\.text)
        #expect(written == longText.pages[0].flatMap { $0.split(separator: " ").map(String.init) })
    }

    @Test("lines do not overlap and each starts a new baseline", arguments: JitterLevel.allCases)
    func linesDoNotOverlap(jitter: JitterLevel) throws {
        for style in HandwritingStyle.allCases {
            let note = try note(longText, style: style, jitter: jitter, seed: 7)
            for page in note.pages {
                for (upper, lower) in zip(page.lines, page.lines.dropFirst()) {
                    #expect(upper.bounds.maxY < lower.bounds.minY, "\(upper.text) / \(lower.text)")
                    #expect(upper.strokes.upperBound < lower.strokes.lowerBound)
                }
                for line in page.lines {
                    for (left, right) in zip(line.words, line.words.dropFirst()) {
                        #expect(left.bounds.minX < right.bounds.minX)
                    }
                }
            }
        }
    }

    @Test("each text page starts a new paper page; an empty entry leaves a ruled line empty")
    func explicitPagesAndBlankLines() throws {
        let note = try note(NoteText(pages: [["Agenda", "", "Budget"], ["Actions"]]), jitter: .none)
        #expect(note.pages.map { $0.lines.map(\.text) } == [["Agenda", "Budget"], ["Actions"]])
        let first = note.pages[0].lines
        let gap = first[1].bounds.maxY - first[0].bounds.maxY
        #expect(abs(gap - 2 * layout.lineSpacing) < 2)
        #expect(note.pages[1].startTime > note.pages[0].startTime)
    }

    @Test("a word wider than a line is split across lines")
    func overlongWord() throws {
        let word = String(repeating: "m", count: 80)
        let note = try note(NoteText(pages: [[word]]), jitter: .none)
        let lines = note.pages[0].lines
        #expect(lines.count >= 2)
        #expect(lines.map(\.text).joined() == word)
        #expect(lines.allSatisfy { $0.bounds.maxX <= layout.textRight })
    }
}
