import InkCore
import Testing
@testable import InkRender

@Suite("Templates")
struct TemplateTests {
    let size = PageSize(width: 600, height: 800)

    @Test("blank has nothing")
    func blank() {
        let layout = TemplateLayout(PageTemplate(kind: .blank), size: size)
        #expect(layout.lines.isEmpty && layout.dots.isEmpty)
    }

    @Test("lined: full-width rules every spacing from two spacings down")
    func lined() {
        let layout = TemplateLayout(PageTemplate(kind: .lined, spacing: 50), size: size)
        #expect(layout.lines.count == 14)  // 100, 150, …, 750
        #expect(layout.lines.allSatisfy { $0.from.y == $0.to.y && $0.from.x == 0 && $0.to.x == 600 })
        #expect(layout.lines.first!.from.y == 100)
        #expect(layout.lines.last!.from.y == 750)
    }

    @Test("grid: centred vertical and horizontal lines")
    func grid() {
        let layout = TemplateLayout(PageTemplate(kind: .grid, spacing: 70), size: size)
        let vertical = layout.lines.filter { $0.from.x == $0.to.x }
        let horizontal = layout.lines.filter { $0.from.y == $0.to.y }
        #expect(vertical.count == 9 && horizontal.count == 12)
        // 600 mod 70 = 40: the first line is 20 in, the last 20 from the edge.
        #expect(vertical.first!.from.x == 20)
        #expect(abs(vertical.last!.from.x - 580) < 1e-9)
    }

    @Test("dots: one per grid crossing")
    func dots() {
        let layout = TemplateLayout(PageTemplate(kind: .dots, spacing: 50), size: size)
        #expect(layout.lines.isEmpty)
        #expect(layout.dots.count == 11 * 15)
        #expect(layout.dotRadius > 0)
    }

    @Test("Cornell: header, cue column at 30 %, summary, rules between")
    func cornell() {
        let layout = TemplateLayout(PageTemplate(kind: .cornell, spacing: 40), size: size)
        let structure = layout.lines.filter { $0.weight == .structure }
        #expect(structure.count == 3)
        let cue = structure.first { $0.from.x == $0.to.x }!
        #expect(cue.from.x == 180)
        #expect(structure.contains { $0.from.y == 640 && $0.to.y == 640 })
        let rules = layout.lines.filter { $0.weight == .rule }
        #expect(!rules.isEmpty)
        #expect(rules.allSatisfy { $0.from.y > 80 && $0.from.y < 640 })
    }

    @Test("page metrics: reMarkable pages are 226 dpi, others are points")
    func metrics() {
        #expect(PageMetrics.unitsPerInch(for: .remarkable) == 226)
        #expect(PageMetrics.unitsPerInch(for: PageSize(width: 1872, height: 1404)) == 226)
        #expect(PageMetrics.unitsPerInch(for: PageSize(width: 2808, height: 3744)) == 452)
        #expect(PageMetrics.unitsPerInch(for: .a4Points) == 72)
        let k = PageMetrics.pointsPerUnit(for: .remarkable)
        #expect(abs(1404 * k - 447.29) < 0.01 && abs(1872 * k - 596.39) < 0.01)
    }
}

@Suite("Text printed on the paper")
struct PrintedTextTests {
    @Test("printed lines are drawn where they stand, in their colour, under a highlighter, in PNG and SVG alike")
    func printed() throws {
        var page = Page(id: PageID(rawValue: "printed00001"), size: PageSize(width: 400, height: 200))
        page.template.printed = [PrintedLine(text: "HELLO", x: 50, baseline: 100, size: 40, color: RGBA(red: 200, green: 0, blue: 0))]
        page.strokes = [Stroke(id: StrokeID(1), tool: .highlighter, color: RGBA(red: 255, green: 237, blue: 117, alpha: 100), width: 30,
                               startTime: 0, points: [InkPoint(x: 40, y: 88, pressure: 0.5), InkPoint(x: 200, y: 88, pressure: 0.5)])]
        let image = try Image(png: Renderer().png(page))
        var red = 0, redOutside = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y].red > 120 && image[x, y].green < 80 {
                // The capitals span 21/32 of the em above the baseline: y 74…100, from x 50.
                if (45...200).contains(x) && (70...104).contains(y) { red += 1 } else { redOutside += 1 }
            }
        }
        #expect(red > 200, "the text is drawn")
        #expect(redOutside == 0, "and nowhere else")
        // The highlighter lies over the text: its yellow tints the paper around the letters.
        let paper = image[150, 92]
        #expect(paper.blue < 200 && paper.red > 200, "\(paper)")
        #expect(Renderer().svg(page).contains("stroke=\"#c80000\""))
    }
}
