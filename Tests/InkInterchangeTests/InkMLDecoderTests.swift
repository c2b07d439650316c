import Foundation
import InkCore
import Testing
@testable import InkInterchange

@Suite("InkML decoding")
struct InkMLDecoderTests {
    /// An InkML document in inches at 226 values per inch, so values are page pixels as they are.
    func pixels(_ channels: String, _ traces: String, extra: String = "") -> String {
        """
        <ink xmlns="http://www.w3.org/2003/InkML">
          <definitions>
            <context xml:id="c">
              <inkSource xml:id="s">
                <traceFormat>\(channels)</traceFormat>
                <channelProperties>
                  <channelProperty channel="X" name="resolution" value="226" units="1/in"/>
                  <channelProperty channel="Y" name="resolution" value="226" units="1/in"/>
                </channelProperties>
              </inkSource>
            </context>
            \(extra)
          </definitions>
          <context contextRef="#c"/>
          \(traces)
        </ink>
        """
    }

    let xy = ##"<channel name="X" type="decimal" units="in"/><channel name="Y" type="decimal" units="in"/>"##

    func decode(_ text: String) throws -> Recording {
        try InkMLDecoder.decode(Data(text.utf8), file: "test.inkml")
    }

    func xys(_ recording: Recording) -> [[[Float]]] {
        recording.strokes.map { $0.points.map { [$0.x, $0.y] } }
    }

    @Test("explicit points, comma separated, several traces")
    func explicit() throws {
        let r = try decode(pixels(xy, "<trace>10 20, 30 40, 50 60</trace><trace>1 2</trace>"))
        #expect(xys(r) == [[[10, 20], [30, 40], [50, 60]], [[1, 2]]])
        #expect(r.format == "inkml")
    }

    @Test("first differences carry over per channel; explicit resets")
    func firstDifferences() throws {
        let r = try decode(pixels(xy, "<trace>10 20, '1 '2, 3 4, !100 !200, 5 5</trace>"))
        #expect(xys(r) == [[[10, 20], [11, 22], [14, 26], [100, 200], [5, 5]]])
    }

    @Test("second differences add to the velocity; modes are per channel")
    func secondDifferences() throws {
        // X: 10, '2 → 12 (v 2), "1 → v 3 → 15, then (still second) 0 → v 3 → 18.
        // Y: 0, '0 → 0, '1 → 1, "1 → v 2 → 3.
        let r = try decode(pixels(xy, ##"<trace>10 0, '2 '0, "1 '1, 0 "1</trace>"##))
        #expect(xys(r) == [[[10, 0], [12, 0], [15, 1], [18, 3]]])
    }

    @Test("Office style: prefixes on every value, no spaces")
    func officeStyle() throws {
        let r = try decode(pixels(xy, ##"<trace>2561 1,'-29'35,"2"2,-25 42</trace>"##))
        // X: 2561, 2532 (v -29), 2505 (v -27), 2453 (v -52). Y: 1, 36 (v 35), 73 (v 37), 152 (v 79).
        #expect(xys(r) == [[[2561, 1], [2532, 36], [2505, 73], [2453, 152]]])
    }

    @Test("values written without spaces: 1-2 and .5.5")
    func packedValues() throws {
        let r = try decode(pixels(xy, "<trace>1-2,.5.5,-3-4,1e1 2E-1</trace>"))
        #expect(xys(r) == [[[1, -2], [0.5, 0.5], [-3, -4], [10, 0.2]]])
    }

    @Test("channels in any order, extra channels skipped, F as pressure, T as time")
    func channelOrder() throws {
        let channels = #"""
            <channel name="T" type="integer" units="ms"/>
            <channel name="F" type="integer" min="0" max="1000"/>
            <channel name="Q" type="decimal"/>
            <channel name="Y" type="decimal" units="in"/>
            <channel name="X" type="decimal" units="in"/>
            """#
        let r = try decode(pixels(channels, "<trace>0 500 9 20 10, 100 250 9 40 30, 300 1000 9 60 50</trace>"))
        let stroke = try #require(r.strokes.first)
        #expect(stroke.points.map { [$0.x, $0.y] } == [[10, 20], [30, 40], [50, 60]])
        #expect(stroke.points.map(\.pressure) == [0.5, 0.25, 1])
        #expect(stroke.times.map { ($0 * 1000).rounded() } == [0, 100, 300])
    }

    @Test("no traceFormat: X Y; unknown units are scaled to fit the page, keeping the aspect ratio")
    func defaultFormatFitsPage() throws {
        let r = try decode(##"<ink xmlns="http://www.w3.org/2003/InkML"><trace>0 0, 10 5</trace><trace>5 5, 10 10</trace></ink>"##)
        let points = r.strokes.flatMap(\.points)
        let page = PageSize.remarkable
        let xs = points.map(\.x), ys = points.map(\.y)
        #expect(xs.min()! >= 0 && xs.max()! <= page.width && ys.min()! >= 0 && ys.max()! <= page.height)
        // Aspect kept: the 10×10 box stays square.
        let width = xs.max()! - xs.min()!, height = ys.max()! - ys.min()!
        #expect(abs(width - height) < 0.01)
        #expect(width > 1000) // fitted to the page width with a margin
        #expect(r.pageSizes == [page])
    }

    @Test("physical units become 226 dpi page pixels: cm with a resolution, himetric, mm")
    func units() throws {
        let cm = #"""
            <ink><definitions><context xml:id="c"><inkSource xml:id="s"><traceFormat>
            <channel name="X" type="integer" units="cm"/><channel name="Y" type="integer" units="cm"/></traceFormat>
            <channelProperties><channelProperty channel="X" name="resolution" value="1000" units="1/cm"/>
            <channelProperty channel="Y" name="resolution" value="1000" units="1/cm"/></channelProperties>
            </inkSource></context></definitions><trace contextRef="#c">2540 5080</trace></ink>
            """#
        let a = try #require(try decode(cm).strokes.first?.points.first)
        #expect(abs(a.x - 226) < 0.01 && abs(a.y - 452) < 0.01)
        let himetric = ##"<ink><traceFormat><channel name="X" units="himetric"/><channel name="Y" units="himetric"/></traceFormat><trace>2540 1270</trace></ink>"##
        let b = try #require(try decode(himetric).strokes.first?.points.first)
        #expect(abs(b.x - 226) < 0.01 && abs(b.y - 113) < 0.01)
        let mm = ##"<ink><traceFormat><channel name="X" units="mm"/><channel name="Y" units="mm"/></traceFormat><trace>25.4 50.8</trace></ink>"##
        let c = try #require(try decode(mm).strokes.first?.points.first)
        #expect(abs(c.x - 226) < 0.01 && abs(c.y - 452) < 0.01)
    }

    @Test("a resolution so small that pixels overflow falls back to fitting the page")
    func extremeResolution() throws {
        let doc = #"""
            <ink><definitions><context xml:id="c"><inkSource xml:id="s"><traceFormat>
            <channel name="X" units="in"/><channel name="Y" units="in"/></traceFormat>
            <channelProperties><channelProperty channel="X" name="resolution" value="1e-300" units="1/in"/>
            <channelProperty channel="Y" name="resolution" value="1e-300" units="1/in"/></channelProperties>
            </inkSource></context></definitions><trace contextRef="#c">1 2, 3 4</trace></ink>
            """#
        let points = try #require(try decode(doc).strokes.first?.points)
        #expect(points.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.x >= 0 && $0.x <= 1404 && $0.y >= 0 && $0.y <= 1872 })
    }

    @Test("brushes and contexts from definitions: colour, width, transparency, highlighter")
    func brushes() throws {
        let extra = #"""
            <brush xml:id="red"><brushProperty name="color" value="#FF0000"/>
              <brushProperty name="width" value="1" units="mm"/></brush>
            <brush xml:id="marker"><brushProperty name="color" value="#FFFF00"/>
              <brushProperty name="transparency" value="127"/><brushProperty name="rasterOp" value="maskPen"/>
              <brushProperty name="width" value="0.5" units="cm"/></brush>
            """#
        let r = try decode(pixels(xy, ##"<trace brushRef="#red">1 1, 2 2</trace><traceGroup brushRef="#marker"><trace>3 3, 4 4</trace></traceGroup><trace>5 5</trace>"##, extra: extra))
        let pens = r.strokes.map(\.pen)
        #expect(pens[0].color == RGBA(red: 255, green: 0, blue: 0))
        #expect(abs(pens[0].width - Float(226 / 25.4)) < 0.01)
        #expect(pens[1].tool == .highlighter)
        #expect(pens[1].color == RGBA(red: 255, green: 255, blue: 0, alpha: 128))
        #expect(abs(pens[1].width - Float(226 / 2.54 * 0.5)) < 0.01)
        #expect(pens[2] == RecordedPen(tool: .pen, color: .black, width: 2))
    }

    @Test("a brush naming a colour or an inkwell:tool Inkwell does not know is reported with the traces it drew; known ones are not")
    func unknownBrushValues() throws {
        let extra = #"""
            <brush xml:id="odd"><brushProperty name="color" value="chartreuse-ish"/><brushProperty name="inkwell:tool" value="airbrush"/></brush>
            <brush xml:id="red"><brushProperty name="color" value="red"/><brushProperty name="inkwell:tool" value="pencil"/></brush>
            """#
        let r = try decode(pixels(xy, ##"<trace brushRef="#odd">1 1, 2 2</trace><trace brushRef="#odd">3 3, 4 4</trace><trace brushRef="#red">5 5, 6 6</trace>"##, extra: extra))
        #expect(r.strokes.map(\.pen.tool) == [.pen, .pen, .pencil])
        #expect(r.strokes.map(\.pen.color) == [.black, .black, RGBA(red: 255, green: 0, blue: 0)])
        #expect(r.warnings == [
            "test.inkml: 2 traces with a brush colour \"chartreuse-ish\", which Inkwell does not know, drawn in the colour it has without it (black by default)",
            "test.inkml: 2 traces with a brush tool \"airbrush\", which Inkwell does not know, drawn with the tool it has without it (the pen by default)",
        ])
    }

    @Test("an opaque rectangle tip (a chisel pen) is drawn round and reported; a see-through one is a highlighter; an ellipse is kept")
    func penTips() throws {
        let extra = #"""
            <brush xml:id="chisel"><brushProperty name="tip" value="rectangle"/></brush>
            <brush xml:id="marker"><brushProperty name="tip" value="rectangle"/><brushProperty name="transparency" value="128"/></brush>
            <brush xml:id="round"><brushProperty name="tip" value="ellipse"/></brush>
            """#
        let r = try decode(pixels(xy, ##"<trace brushRef="#chisel">1 1, 2 2</trace><trace brushRef="#marker">3 3, 4 4</trace><trace brushRef="#round">5 5, 6 6</trace>"##, extra: extra))
        #expect(r.strokes.map(\.pen.tool) == [.pen, .highlighter, .pen])
        #expect(r.warnings == ["test.inkml: 1 trace with a brush tip \"rectangle\", drawn with a round tip (Inkwell's strokes have round ends)"])
    }

    @Test("timestamps: trace timeOffset against the context's timestamp, ordered and gapped as recorded")
    func timestamps() throws {
        let doc = #"""
            <ink><definitions><context xml:id="c"><timestamp xml:id="t0" timeString="2024-11-17T14:40:01.152Z"/>
            <traceFormat><channel name="X" units="mm"/><channel name="Y" units="mm"/></traceFormat></context></definitions>
            <trace contextRef="#c" timeOffset="1000">1 1, 2 2</trace>
            <trace contextRef="#c" timeOffset="4000" duration="500">3 3, 4 4, 5 5</trace></ink>
            """#
        let r = try decode(doc)
        let strokes = r.strokes
        #expect(strokes[0].times.first == 0)
        #expect(abs(strokes[1].times[0] - 3) < 1e-9) // 3 s after the first stroke, as recorded
        #expect(abs(strokes[1].times[2] - 3.5) < 1e-9) // spread over the trace's duration
        let created = try #require(r.notes.first?.created)
        #expect(abs(created.timeIntervalSince1970 - 1_731_854_401.152) < 0.001)
    }

    @Test("star repeats a value, question mark leaves it unknown (the previous position is used)")
    func starAndQuestion() throws {
        let channels = xy + ##"<channel name="F" type="integer" max="10"/>"##
        let r = try decode(pixels(channels, "<trace>1 2 5, * 4 *, ? ? ?</trace>"))
        let points = try #require(r.strokes.first?.points)
        #expect(points.map { [$0.x, $0.y] } == [[1, 2], [1, 4], [1, 4]])
        #expect(points.map(\.pressure) == [0.5, 0.5, 0.5])
    }

    @Test("points without commas are split by the channel count (early drafts)")
    func noCommas() throws {
        let r = try decode(pixels(xy, "<trace>10 0 9 14 8 28</trace>"))
        #expect(xys(r) == [[[10, 0], [9, 14], [8, 28]]])
    }

    @Test("hover traces (type penUp) are skipped with a warning; traceView is not ink")
    func hover() throws {
        let r = try decode(pixels(xy, ##"<trace type="penUp">1 1, 2 2</trace><trace>3 3</trace><traceGroup><traceView traceDataRef="#x"/></traceGroup>"##))
        #expect(r.strokes.count == 1)
        #expect(r.warnings.count == 1 && r.warnings[0].contains("hover"))
    }

    @Test("OTx/OTy tilt in degrees becomes altitude and azimuth")
    func tilt() throws {
        let channels = xy + ##"<channel name="OTx" units="deg"/><channel name="OTy" units="deg"/>"##
        let r = try decode(pixels(channels, "<trace>1 1 45 0</trace>"))
        let tilt = try #require(r.strokes.first?.points.first?.tilt)
        #expect(abs(tilt.altitude - .pi / 4) < 1e-5)
        #expect(abs(tilt.azimuth) < 1e-5)
    }

    @Test("namespaced documents (Office) and a UTF-8 byte order mark")
    func namespaces() throws {
        let doc = "\u{FEFF}" + ##"<?xml version="1.0" encoding="UTF-8"?><inkml:ink xmlns:inkml="http://www.w3.org/2003/InkML"><inkml:trace>1 2, 3 4</inkml:trace></inkml:ink>"##
        #expect(try decode(doc).strokes.count == 1)
    }

    @Test("UTF-16 documents are read")
    func utf16() throws {
        let doc = ##"<?xml version="1.0" encoding="UTF-16"?><ink><traceFormat><channel name="X" units="mm"/><channel name="Y" units="mm"/></traceFormat><trace>1 2</trace></ink>"##
        var data = Data([0xFF, 0xFE])
        data.append(doc.data(using: .utf16LittleEndian)!)
        let r = try InkMLDecoder.decode(data, file: "u16.inkml")
        #expect(r.strokes.count == 1)
    }

    @Test("continuation traces (priorRef) go on drawing the prior trace's stroke, their differences decoding on from it")
    func continuations() throws {
        let doc = pixels(xy, ##"""
            <trace xml:id="a" continuation="begin">0 0, 10 0</trace>
            <trace xml:id="b" continuation="middle" priorRef="#a">'10 0</trace>
            <trace continuation="end" priorRef="#b">'10 0, !40 5</trace>
            <trace>5 5, 6 6</trace>
            <trace continuation="end" priorRef="#nowhere">7 7</trace>
            """##)
        let r = try decode(doc)
        let strokes = r.strokes
        #expect(strokes.count == 3)
        #expect(strokes[0].points.map(\.x) == [0, 10, 20, 30, 40])   // ' goes on from the prior trace's last point
        #expect(strokes[0].points.last?.y == 5)
        #expect(strokes[1].points.map(\.x) == [5, 6])
        #expect(r.warnings.contains { $0.contains("1 continuation trace whose priorRef names no earlier trace on the page: kept as a stroke of its own") },
                "\(r.warnings)")
    }

    @Test("a trace with a value that is not a number is left out alone, with a warning naming it; the rest is imported")
    func badTraceSkipped() throws {
        let r = try decode("<ink><trace>1 2, 3 4</trace>\n<trace>5 x, 7 8</trace>\n<trace>9 10, 11 12</trace><trace>1e400 1</trace></ink>")
        #expect(r.strokes.count == 2)
        #expect(r.warnings.contains { $0.hasPrefix("test.inkml: 2 traces skipped, the first at line 2") && $0.contains("trace 2, point 1: unexpected \"x\"") },
                "\(r.warnings)")
    }

    @Test("errors name the file, the line and the trace", arguments: [
        ("<ink><trace>1 2, 3 x</trace></ink>", "trace 1, point 2: unexpected \"x\""),
        ("<ink><trace>1 2 3, 4 5 6</trace></ink>", "a point has more values than the 2 channels"),
        (##"<ink><trace contextRef="#nope">1 2</trace></ink>"##, "contextRef \"#nope\" names no context"),
        ("<ink><trace>1 2, 3", "the XML ends before <trace> is closed"),
        ("<ink><trace>1 2</ink>", "not well-formed XML: an end tag that does not match its start tag (libxml2 error 76)"),
        ("<ink><trace a=1>1 2</trace></ink>", "not well-formed XML: an attribute value without quotes"),
        ("<notink/>", "not InkML"),
        ("<ink></ink>", "holds no pen traces"),
        ("<ink><trace>1e400 2</trace></ink>", "coordinate inf is not a finite number"),
        ("<ink><trace>1e300 2</trace></ink>", "coordinate 1e+300 is out of range (beyond ±1e15)"),
    ])
    func errors(text: String, message: String) throws {
        let error = #expect(throws: ImportError.self) { try decode(text) }
        #expect(error?.file == "test.inkml")
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }
}
