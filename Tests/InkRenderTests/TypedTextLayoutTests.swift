import InkCore
@testable import InkGeometry
import InkText
import Testing
@testable import InkRender

@Suite("Typed text set for PDFs")
struct TypedTextLayoutTests {
    let k = PageMetrics.pointsPerUnit(for: .remarkable)

    func pages(_ text: String, size: PageSize = .remarkable) -> [TypesetPage] {
        TypedTextLayout.pages(TypedText(text), size: size, pointsPerUnit: PageMetrics.pointsPerUnit(for: size))
    }

    /// Every point drawn on a page, in page units.
    func points(_ page: TypesetPage) -> [V2] {
        page.scene.items.flatMap { item -> [V2] in
            if case .stroke(let contours, _, _) = item { return contours.points }
            return []
        }
    }

    @Test("empty text, or text with nothing to show, makes no page")
    func nothing() {
        #expect(pages("").isEmpty)
        #expect(pages("\n\n   \n").isEmpty)
        #expect(pages("```\n```").isEmpty)
        #expect(pages("---").count == 1)
    }

    @Test("everything drawn stays inside the margins, long words included, on pages the size of the last ink page")
    func margins() {
        let text = "# A heading that is long enough to wrap across the width of the page twice over\n"
            + "- [ ] " + String(repeating: "unbreakable", count: 20) + "\n"
            + (1...80).map { "\($0). item with a few words in it" }.joined(separator: "\n")
        for size in [PageSize.remarkable, PageSize(width: 595, height: 842)] {
            let set = pages(text, size: size)
            #expect(set.count >= 2)
            let scale = PageMetrics.pointsPerUnit(for: size)
            let margin = max(36, 0.08 * Double(size.width) * scale) / scale
            for page in set {
                #expect(page.scene.width == Double(size.width) && page.scene.height == Double(size.height))
                let drawn = points(page)
                #expect(!drawn.isEmpty)
                #expect(drawn.allSatisfy { $0.x >= margin - 0.01 && $0.x <= Double(size.width) - margin + 0.01 })
                #expect(drawn.allSatisfy { $0.y >= margin * 0.9 && $0.y <= Double(size.height) - margin + 0.01 })
                #expect(page.scene.items.allSatisfy { if case .stroke = $0 { true } else { false } })
            }
        }
    }

    @Test("the invisible layer holds every word in reading order, one entry per drawn line")
    func invisibleText() {
        let set = pages("# Title\nfirst paragraph\n- [x] done thing\n- [?] open question\n* bullet\n3) third\n```\n  code  line\n```\n")
        let lines = set.flatMap(\.text).map(\.text)
        #expect(lines == ["Title", "first paragraph", "[x] done thing", "[?] open question", "\u{2022} bullet", "3) third", "  code  line"])
        let boxes = set.flatMap(\.text).map(\.bounds)
        #expect(zip(boxes, boxes.dropFirst()).allSatisfy { $0.minY < $1.minY })
    }

    @Test("headings are taller than body text, level by level")
    func headingSizes() {
        let set = pages("# One\n## Two\n### Three\nbody")
        let heights = set[0].text.map(\.bounds.height)
        #expect(heights.count == 4)
        #expect(heights[0] > heights[1] && heights[1] > heights[2] && heights[2] > heights[3])
    }

    @Test("a ticked checkbox draws a tick an open one does not; other markers draw their character")
    func checkboxes() {
        func count(_ text: String) -> Int {
            pages(text).flatMap { $0.scene.items }.reduce(0) { total, item in
                if case .stroke(let contours, _, _) = item { return total + contours.count }
                return total
            }
        }
        let open = count("- [ ] a"), done = count("- [x] a"), important = count("- [!] a")
        #expect(done == open + 1)
        #expect(important == open + 2)  // "!" is two strokes in Roman Simplex
    }

    @Test("characters outside the font: accents dropped (é is e), unknown ones a box, never nothing")
    func fallbacks() {
        func drawn(_ text: String) -> Int { pages(text).flatMap { points($0) }.count }
        #expect(drawn("é") == drawn("e"))
        #expect(drawn("漢") > 0)
        #expect(drawn("“q”") == drawn("\"q\""))
    }
}
