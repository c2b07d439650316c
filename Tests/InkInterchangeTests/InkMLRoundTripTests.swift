import Foundation
import InkCore
import Testing
@testable import InkInterchange

@Suite("InkML export and round trip")
struct InkMLRoundTripTests {
    /// Pages with awkward values: negative and fractional coordinates, every tool, translucent colours.
    func samplePages() -> [Page] {
        var first = Page(id: PageID.random(), size: .remarkable)
        first.strokes = [
            Stroke(id: StrokeID(1), tool: .pen, color: .black, width: 2.5, startTime: 0, points: [
                InkPoint(x: 10.25, y: 20.5, pressure: 0.25, time: 0), InkPoint(x: 11.75, y: 22, pressure: 0.5, time: 8),
                InkPoint(x: -3.5, y: 1900.01, pressure: 1, time: 16),
            ]),
            Stroke(id: StrokeID(2), tool: .highlighter, color: RGBA(red: 255, green: 230, blue: 0, alpha: 120), width: 24,
                   startTime: 450, points: [InkPoint(x: 100, y: 100, pressure: 0.5, time: 0), InkPoint(x: 300, y: 102, pressure: 0.5, time: 400)]),
            Stroke(id: StrokeID(3), tool: .eraser, color: .white, width: 10, startTime: 1200, points: [InkPoint(x: 5, y: 5, pressure: 0.75, time: 0)]),
        ]
        var second = Page(id: PageID.random(), size: PageSize(width: 595.28, height: 841.89))
        second.strokes = [Stroke(id: StrokeID(1), tool: .fineliner, color: RGBA(red: 1, green: 2, blue: 3), width: 0.7, startTime: 10,
                                 points: [InkPoint(x: 1, y: 2, pressure: 0.1, time: 0), InkPoint(x: 3, y: 4, pressure: 0.9, time: 5)])]
        return [first, second, Page(id: PageID.random(), size: .remarkable)]
    }

    func expectSamePoints(_ a: [Page], _ b: [Page], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.count == b.count, sourceLocation: sourceLocation)
        for (pa, pb) in zip(a, b) {
            #expect(abs(pa.size.width - pb.size.width) < 0.01 && abs(pa.size.height - pb.size.height) < 0.01, sourceLocation: sourceLocation)
            #expect(pa.strokes.count == pb.strokes.count, sourceLocation: sourceLocation)
            for (sa, sb) in zip(pa.strokes, pb.strokes) {
                #expect(sa.tool == sb.tool && sa.color == sb.color, sourceLocation: sourceLocation)
                #expect(abs(sa.width - sb.width) < 0.01, sourceLocation: sourceLocation)
                #expect(sa.points.count == sb.points.count, sourceLocation: sourceLocation)
                for (qa, qb) in zip(sa.points, sb.points) {
                    #expect(abs(qa.x - qb.x) <= 0.0051 && abs(qa.y - qb.y) <= 0.0051, "\(qa) vs \(qb)", sourceLocation: sourceLocation)
                    #expect(abs(qa.pressure - qb.pressure) <= 0.5 / 1024 + 1e-6, sourceLocation: sourceLocation)
                    #expect(abs(qa.time - qb.time) <= 1, sourceLocation: sourceLocation)
                }
            }
        }
    }

    @Test("pages → InkML → recording → pages keeps every point within quantisation, and the timing")
    func pagesRoundTrip() throws {
        let pages = samplePages()
        let created = Date(timeIntervalSince1970: 1_700_000_000.5)
        let data = InkMLWriter.write(pages, title: "Ink & <friends>", created: created)
        let recording = try InkMLDecoder.decode(data, file: "out.inkml")
        #expect(recording.notes[0].title == "Ink & <friends>")
        #expect(abs(recording.notes[0].created!.timeIntervalSince(created)) < 0.001)
        let back = recording.pages
        expectSamePoints(pages, back)
        // The gap between strokes is kept (450 ms after the first began).
        #expect(abs(back[0].strokes[1].startTime - back[0].strokes[0].startTime - 450) <= 1)
    }

    @Test("InkML → Inkwell → InkML → Inkwell gives the same points, on every corpus InkML file",
          .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func corpusRoundTrip() throws {
        for file in Corpus.files("inkml") where file.lastPathComponent != "bool_trace.xml" {
            let name = Corpus.relative(file)
            let first = try InkMLDecoder.decode(Data(contentsOf: file), file: name)
            let pages = first.pages
            let again = try InkMLDecoder.decode(InkMLWriter.write(pages), file: name)
            expectSamePoints(pages, again.pages)
            #expect(again.pointCount == first.pointCount, "\(name)")
        }
    }

    @Test(".rm and .xopp export to InkML without losing points", .enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
    func otherFormatsExport() throws {
        let root = try #require(Corpus.root)
        let rm = try RemarkableDecoder.decode(Data(contentsOf: root.appendingPathComponent("rm/rmc/writing_tools.rm")), file: "w.rm")
        expectSamePoints(rm.pages, try InkMLDecoder.decode(InkMLWriter.write(rm.pages), file: "w").pages)
        let xopp = try XournalDecoder.decode(Data(contentsOf: root.appendingPathComponent("xopp/xournalpp/test/files/load/strokes.xopp")), file: "s.xopp")
        expectSamePoints(xopp.pages, try InkMLDecoder.decode(InkMLWriter.write(xopp.pages), file: "s").pages)
    }

    @Test("decimal formatting is exact and locale-free")
    func decimals() {
        #expect(InkMLWriter.decimal(1.5, places: 2) == "1.5")
        #expect(InkMLWriter.decimal(-0.004, places: 2) == "0")
        #expect(InkMLWriter.decimal(-3.05, places: 2) == "-3.05")
        #expect(InkMLWriter.decimal(100, places: 2) == "100")
        #expect(InkMLWriter.decimal(0.0625, places: 4) == "0.0625")
    }
}
