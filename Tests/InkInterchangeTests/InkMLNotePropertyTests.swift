import Foundation
import InkCore
import InkSamples
import PropertyBased
import Testing
@testable import InkInterchange

/// A note exported to InkML and imported again is the note: strokes and points (within the format's
/// quantisation), pens, layers, page sizes, templates (printed text, layers, ruling, paper), title,
/// tags and typed text. Random notes, several pages each.
@Suite("InkML round trip of whole notes")
struct InkMLNotePropertyTests {
    /// A random note: 1–4 pages, each a random template and 0–6 strokes on its layers; 0–4 tags; typed
    /// Markdown of printable characters, quotes and line breaks.
    struct RandomNote {
        var title: String
        var tags: [String]
        var typedText: String
        var pages: [Page]

        init(seed: UInt64) {
            var rng = SeededGenerator(seed: seed)
            func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
            func grid(_ range: ClosedRange<Float>) -> Float { (Float.random(in: range, using: &rng) * 100).rounded() / 100 }
            let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 #*>-&<\"'é漢")
            func words(_ count: Int) -> String { String((0..<count).map { _ in alphabet[int(0...alphabet.count - 1)] }) }
            title = "Note " + words(int(1...12)) + "."
            tags = Array(Set((0..<int(0...4)).map { _ in "t" + String((0..<int(1...8)).map { _ in alphabet[int(0...25)] }) })).sorted()
            typedText = (0..<int(0...5)).map { _ in ["# ", "- [ ] ", "> ", ""][int(0...3)] + words(int(0...40)) }.joined(separator: "\n")
            pages = (0..<int(1...4)).map { _ in
                let size = PageSize(width: grid(100...3000), height: grid(100...3000))
                var template = PageTemplate(kind: TemplateKind.allCases[int(0...TemplateKind.allCases.count - 1)], spacing: grid(5...200),
                                            paper: RGBA(red: UInt8(int(0...255)), green: UInt8(int(0...255)), blue: UInt8(int(0...255))))
                template.layers = (0..<int(0...3)).map { PageLayer(name: "Layer \($0 + 1)", isVisible: int(0...3) > 0) }
                template.printed = (0..<int(0...2)).map { _ in
                    PrintedLine(text: words(int(1...30)), x: grid(0...size.width), baseline: grid(0...size.height), size: grid(8...60), bold: int(0...1) == 1)
                }
                // Strokes one after another, as a hand writes them: each starts after the last ended.
                var start = 0.0
                let strokes = (0..<int(0...6)).map { index -> Stroke in
                    start += Double(int(1...3000))
                    var time: Float = 0
                    let points = (0..<int(1...30)).enumerated().map { step, _ -> InkPoint in
                        if step > 0 { time += Float(int(4...40)) }
                        return InkPoint(x: grid(0...size.width), y: grid(0...size.height), pressure: Float(int(0...1024)) / 1024, time: time)
                    }
                    defer { start += Double(time) }
                    return Stroke(id: StrokeID(UInt64(index + 1)), tool: Tool.allCases[int(0...Tool.allCases.count - 1)],
                                  color: RGBA(red: UInt8(int(0...255)), green: UInt8(int(0...255)), blue: UInt8(int(0...255)), alpha: UInt8(int(1...255))),
                                  width: grid(0.5...40), startTime: start, points: points,
                                  layer: UInt16(int(0...max(template.layers.count - 1, 0))), fill: int(0...4) == 0 ? UInt8(int(1...255)) : nil)
                }
                return Page(id: PageID.random(), size: size, template: template, strokes: strokes)
            }
        }
    }

    @Test("random notes survive InkML export → import: strokes, points, pens, layers, templates, title, tags, typed text")
    func roundTrip() async {
        await propertyCheck(count: 200, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
            let note = RandomNote(seed: seed)
            let data = InkMLWriter.write(note.pages, title: note.title, tags: note.tags, typedText: note.typedText)
            guard let recording = try? InkMLDecoder.decode(data, file: "note.inkml") else {
                Issue.record("seed \(seed): the InkML written does not import")
                return
            }
            let back = recording.notes[0]
            #expect(back.title == note.title, "seed \(seed)")
            #expect(back.tags.map(\.name).sorted() == note.tags, "seed \(seed)")
            #expect(back.typedText == note.typedText, "seed \(seed)")
            let pages = recording.pages
            #expect(pages.count == note.pages.count, "seed \(seed)")
            for (got, want) in zip(pages, note.pages) {
                #expect(abs(got.size.width - want.size.width) < 0.006 && abs(got.size.height - want.size.height) < 0.006, "seed \(seed)")
                #expect(got.template == want.template, "seed \(seed)")
                #expect(got.strokes.count == want.strokes.count, "seed \(seed)")
                for (a, b) in zip(got.strokes, want.strokes) {
                    #expect(a.tool == b.tool && a.color == b.color && a.layer == b.layer && a.fill == b.fill, "seed \(seed)")
                    #expect(abs(a.width - b.width) < 0.01, "seed \(seed)")
                    #expect(a.points.count == b.points.count, "seed \(seed)")
                    for (p, q) in zip(a.points, b.points) {
                        #expect(abs(p.x - q.x) <= 0.0051 && abs(p.y - q.y) <= 0.0051, "seed \(seed)")
                        #expect(abs(p.pressure - q.pressure) <= 0.5 / 1024 + 1e-6, "seed \(seed)")
                        #expect(abs(p.time - q.time) <= 1, "seed \(seed)")
                    }
                }
            }
        }
    }

    @Test("a template annotation that is not one, or holds more than a page keeps, is left out; the strokes are imported")
    func badTemplate() throws {
        let huge = PageTemplate(printed: Array(repeating: PrintedLine(text: "x", x: 0, baseline: 0, size: 10), count: PrintedLine.maxPerPage + 1))
        let json = String(decoding: try JSONEncoder().encode(huge), as: UTF8.self)
        for text in ["{not json", #"{"kind": 0, "spacing": -1, "paper": {"red": 0, "green": 0, "blue": 0, "alpha": 255}}"#, json] {
            let inkml = """
                <ink xmlns="http://www.w3.org/2003/InkML"><traceGroup><annotation type="inkwell:page">100 100</annotation>
                <annotation type="inkwell:template">\(InkMLWriter.escape(text))</annotation><trace>10 10, 20 20</trace></traceGroup></ink>
                """
            let recording = try InkMLDecoder.decode(Data(inkml.utf8), file: "bad.inkml")
            #expect(recording.pageTemplates == [PageTemplate()])
            #expect(recording.pointCount == 2)
        }
    }
}
