import Foundation
import InkCore
import Testing
@testable import InkInterchange

@Suite("Rnote .rnote decoding")
struct RnoteDecoderTests {
    /// An Rnote document (gzip JSON) holding `components` as stroke components.
    func rnote(_ components: [[String: Any]?], document: [String: Any] = [:], version: String = "0.15.0",
               store: String = "engine_snapshot") throws -> Data {
        let snapshot: [String: Any] = ["document": document,
                                       "stroke_components": components.map { ["value": $0.map { $0 as Any } ?? NSNull(), "version": 0] }]
        let json = try JSONSerialization.data(withJSONObject: ["version": version, "data": [store: snapshot]])
        return Data(Deflate.compress(Array(json)))
    }

    func element(_ x: Double, _ y: Double, _ p: Double = 0.5) -> [String: Any] { ["pos": [x, y], "pressure": p] }

    func smooth(width: Double = 2, r: Double = 0, g: Double = 0, b: Double = 1) -> [String: Any] {
        ["smooth": ["stroke_width": width, "stroke_color": ["r": r, "g": g, "b": b, "a": 1.0], "pressure_curve": "linear"]]
    }

    @Test("strokes of Rnote 0.9 and later: start, lines and Bézier segments, pressure, colour, width; detected by content")
    func current() throws {
        let stroke: [String: Any] = ["brushstroke": [
            "path": ["start": element(100, 100, 0.2),
                     "segments": [["lineto": ["end": element(110, 100, 0.4)]],
                                  ["cubbezto": ["cp1": [115, 90], "cp2": [125, 90], "end": element(130, 100, 0.8)]]]],
            "style": smooth(width: 3, r: 1, g: 0.5, b: 0)]]
        let data = try rnote([nil, stroke])
        #expect(RecordingFormat.detect(data) == .rnote)
        let recording = try RnoteDecoder.decode(data, file: "test.rnote")
        let strokes = recording.pagesOfStrokes.flatMap { $0 }
        #expect(strokes.count == 1)
        let points = strokes[0].points
        #expect(points.count == 2 + 8)          // start, line end, the curve in 8 steps
        #expect(points.first?.x == 100 && points.first?.y == 100)   // ink well inside: the page's corner is Rnote's origin
        #expect(points.last?.x == 130 && points.last?.pressure == 0.8)
        #expect(points.dropFirst(2).allSatisfy { $0.y <= 100 })      // the curve bends up towards its control points
        #expect(strokes[0].pen == RecordedPen(tool: .pen, color: RGBA(red: 255, green: 128, blue: 0), width: 3))
        #expect(recording.pageSizes == [PageSize(width: 793.701, height: 1122.52)])
    }

    @Test("the two older path layouts (0.5.5 segment lists, 0.5.13–0.6 segments without start) read the same points")
    func olderLayouts() throws {
        let list: [String: Any] = ["brushstroke": ["path": [
            ["dot": ["element": element(10, 10)]],
            ["line": ["start": element(10, 10), "end": element(20, 10)]],
        ], "style": smooth()]]
        let segments: [String: Any] = ["brushstroke": ["path": ["segments": [
            ["lineto": ["end": element(10, 10)]], ["lineto": ["end": element(20, 10)]],
        ]], "style": smooth()]]
        let old = try RnoteDecoder.decode(try rnote([list], version: "0.5.5", store: "store_snapshot"), file: "old.rnote")
        let middle = try RnoteDecoder.decode(try rnote([segments], version: "0.6.0"), file: "mid.rnote")
        #expect(old.pagesOfStrokes.flatMap { $0 }.map(\.points) == middle.pagesOfStrokes.flatMap { $0 }.map(\.points))
        // Ink 10 px from the edge: the page grows 10 px to the left, so that 20 px of paper surround it.
        #expect(old.pagesOfStrokes.flatMap { $0 }.first?.points.map(\.x) == [20, 30])
    }

    @Test("ink above or left of Rnote's origin grows the page there; text strokes become typed text in reading order; a dark background stays dark")
    func canvasAndText() throws {
        let stroke: [String: Any] = ["brushstroke": ["path": ["start": element(-100, -50), "segments": [["lineto": ["end": element(900, 1300)]]]],
                                                     "style": smooth()]]
        func text(_ words: String, x: Double, y: Double) -> [String: Any] {
            ["textstroke": ["text": words, "transform": ["affine": [1, 0, 0, 0, 1, 0, x, y, 1]]]]
        }
        let document: [String: Any] = ["config": ["format": ["width": 500.0, "height": 700.0],
                                                  "background": ["color": ["r": 0, "g": 0, "b": 0, "a": 1], "pattern": "grid",
                                                                 "pattern_size": [40.0, 40.0]]]]
        let recording = try RnoteDecoder.decode(try rnote([stroke, text("second", x: 50, y: 300), text("first", x: 10, y: 20), ["shapestroke": [:]]],
                                                          document: document), file: "canvas.rnote")
        #expect(recording.pageSizes == [PageSize(width: 1040, height: 1390)])
        #expect(recording.pagesOfStrokes.first?.first?.points.first.map { [$0.x, $0.y] } == [20, 20])
        #expect(recording.notes[0].typedText == "first\n\nsecond")
        #expect(recording.warnings == ["canvas.rnote: 1 stroke skipped at stroke 4: a shape stroke without a shape"])
        if case let .newPage(_, template, _) = recording.notes[0].events[0] {
            #expect(template.kind == .grid && template.spacing == 40 && template.paper == RGBA(red: 0, green: 0, blue: 0))
        } else {
            Issue.record("the first event is not a page")
        }
    }

    @Test("shapes become pen strokes along their outlines: lines, arrows, rectangles and ellipses placed by their transform, curves, polygons")
    func shapes() throws {
        func shape(_ kind: String, _ fields: [String: Any], fill: Double = 0) -> [String: Any] {
            ["shapestroke": ["shape": [kind: fields],
                             "style": ["smooth": ["stroke_width": 2.0, "stroke_color": ["r": 0, "g": 0, "b": 1, "a": 1],
                                                  "fill_color": ["r": 1, "g": 0, "b": 0, "a": fill]]]]]
        }
        let shifted: [String: Any] = ["affine": [1, 0, 0, 0, 1, 0, 300, 200, 1]] // translate by (300, 200)
        let recording = try RnoteDecoder.decode(try rnote([
            shape("line", ["start": [100.0, 100.0], "end": [140.0, 100.0]]),
            shape("arrow", ["start": [100.0, 150.0], "tip": [200.0, 150.0]]),
            shape("rect", ["cuboid": ["half_extents": [50.0, 20.0]], "transform": shifted], fill: 1),
            shape("ellipse", ["radii": [30.0, 10.0], "transform": shifted]),
            shape("polygon", ["start": [400.0, 400.0], "path": [[440.0, 400.0], [420.0, 440.0]]]),
            shape("cubbez", ["start": [50.0, 50.0], "cp1": [60.0, 50.0], "cp2": [70.0, 60.0], "end": [80.0, 80.0]]),
        ]), file: "shapes.rnote")
        var strokes = recording.pagesOfStrokes.flatMap { $0 }
        #expect(strokes.count == 8)
        // The filled rectangle: first its area, filled red at the fill's alpha, then its blue outline.
        let area = strokes.remove(at: 3)
        #expect(area.pen.fill == 255 && area.pen.color == RGBA(red: 255, green: 0, blue: 0) && area.pen.width < 0.1)
        #expect(area.points.map { [$0.x, $0.y] } == strokes[3].points.map { [$0.x, $0.y] })
        #expect(strokes.allSatisfy { $0.pen.width == 2 && $0.pen.color == RGBA(red: 0, green: 0, blue: 255) && $0.pen.fill == nil })
        // No ink left of or above the origin: page coordinates are Rnote's.
        let line = strokes[0].points.map { [$0.x, $0.y] }
        #expect(line.first == [100, 100] && line.last == [140, 100] && line.count == 6) // every 8 px
        #expect(strokes[2].points.contains { $0.x == 200 && $0.y == 150 })             // the arrow's head meets the tip
        #expect(strokes[2].points.allSatisfy { $0.x <= 200 })                          // and points back along the shaft
        let rectangle = Set(strokes[3].points.map { [$0.x, $0.y] })
        #expect([[250, 180], [350, 180], [350, 220], [250, 220]].allSatisfy(rectangle.contains))
        let ellipse = strokes[4].points
        #expect(ellipse.allSatisfy { abs(pow(($0.x - 300) / 30, 2) + pow(($0.y - 200) / 10, 2) - 1) < 0.01 })
        #expect(strokes[5].points.first.map { [$0.x, $0.y] } == strokes[5].points.last.map { [$0.x, $0.y] }) // closed
        #expect(strokes[6].points.last.map { [$0.x, $0.y] } == [80, 80] && strokes[6].points.count == 33)
        #expect(recording.warnings.isEmpty, "\(recording.warnings)")
    }

    @Test("strokes in a style Inkwell draws otherwise (rough: a plain line, textured: the pencil, unknown: a plain line) are reported with their count; smooth ones are not")
    func restyledStrokes() throws {
        func stroke(_ style: String) -> [String: Any] {
            ["brushstroke": ["path": ["start": element(100, 100), "segments": [["lineto": ["end": element(140, 100)]]]],
                             "style": [style: ["stroke_width": 2.0, "stroke_color": ["r": 0, "g": 0, "b": 0, "a": 1.0]]]]]
        }
        let recording = try RnoteDecoder.decode(try rnote([stroke("smooth"), stroke("rough"), stroke("rough"), stroke("textured"), stroke("sparkly")]),
                                                file: "styles.rnote")
        #expect(recording.pagesOfStrokes.flatMap { $0 }.count == 5)
        #expect(recording.warnings == [
            "styles.rnote: 2 strokes in Rnote's rough style drawn as plain pen lines (Inkwell has no rough look)",
            "styles.rnote: 1 stroke in style \"sparkly\", which Inkwell does not know, drawn as plain pen lines",
            "styles.rnote: 1 textured stroke drawn with Inkwell's pencil (it has no textured brush)",
        ])
        let smooth = try RnoteDecoder.decode(try rnote([stroke("smooth")]), file: "smooth.rnote")
        #expect(smooth.warnings.isEmpty, "\(smooth.warnings)")
    }

    @Test("bad documents are refused, naming the file and the stroke", arguments: [
        (#"{"version":"0.9","data":{"engine_snapshot":{"stroke_components":[{"value":{"brushstroke":{"path":{"start":{"pos":[1e99,2]}}}}}]}}}"#, "stroke 1: coordinate 1e+99 is beyond"),
        (#"{"version":"0.9","data":{"engine_snapshot":{"stroke_components":[{"value":{"brushstroke":{"path":{"start":{"pos":[1]}}}}}]}}}"#, "stroke 1: a position that is not [x, y]"),
        (#"{"version":"0.9","data":{"engine_snapshot":{"stroke_components":[{"value":{"brushstroke":{"path":{"segments":[{"spiral":{"end":{"pos":[1,2]}}}]}}}}]}}}"#, "unknown path segment \"spiral\""),
        (#"{"version":"0.9","data":{"engine_snapshot":{}}}"#, "no \"stroke_components\""),
        (#"{"version":"0.9"}"#, "not an Rnote file"),
        (#"{"version": "#, "the JSON inside does not parse"),
        (#"{"version":"0.9","data":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}",
         "the JSON inside does not parse"),   // nesting deep enough to overflow a recursive parser's stack
    ])
    func errors(json: String, message: String) throws {
        let error = #expect(throws: ImportError.self) { try RnoteDecoder.decode(Data(Deflate.compress(Array(json.utf8))), file: "bad.rnote") }
        #expect(error?.file == "bad.rnote")
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test("every corpus document imports with every brush stroke its JSON holds, and its text", .enabled(if: Corpus.available, .init(rawValue: Corpus.missing)))
    func corpus() throws {
        let files = Corpus.files("rnote").filter { $0.pathExtension == "rnote" }
        #expect(files.count >= 8)
        for url in files {
            let data = try Data(contentsOf: url)
            #expect(RecordingFormat.detect(data) == .rnote, "\(url.lastPathComponent)")
            let recording = try RnoteDecoder.decode(data, file: url.lastPathComponent)
            // Counted independently: brush strokes with a path in the decompressed JSON.
            let json = try JSONSerialization.jsonObject(with: try Containers.gunzip(data, file: "")) as! [String: Any]
            let payload = json["data"] as! [String: Any]
            let snapshot = (payload["engine_snapshot"] ?? payload["store_snapshot"]) as! [String: Any]
            let values = (snapshot["stroke_components"] as! [[String: Any]]).compactMap { $0["value"] as? [String: Any] }
            let brushes = values.filter { ($0["brushstroke"] as? [String: Any])?["path"] != nil }.count
                + values.compactMap { (($0["shapestroke"] as? [String: Any])?["shape"] as? [String: Any])?.keys.first }
                    .reduce(0) { $0 + ($1 == "arrow" ? 2 : 1) } // a shape is one stroke, an arrow's head a second
            let texts = values.compactMap { ($0["textstroke"] as? [String: Any])?["text"] as? String }
            #expect(recording.pagesOfStrokes.flatMap { $0 }.count == brushes, "\(url.lastPathComponent)")
            #expect(recording.notes[0].typedText == texts.joined(separator: "\n\n"), "\(url.lastPathComponent)")
            #expect(recording.pagesOfStrokes.flatMap { $0 }.allSatisfy { !$0.points.isEmpty })
            // The text is printed where Rnote draws it, whichever way the version writes its transform
            // (0.15: a top-level 2×3 `affine`; before: `transform.affine`, 3×3).
            let printed = recording.pageTemplates.first?.printed ?? []
            if texts == ["Rnote!"] {
                #expect(printed.count == 1, "\(url.lastPathComponent)")
                #expect(abs((printed.first?.x ?? 0) - 44.217) < 0.01 && abs((printed.first?.baseline ?? 0) - (29.547 + 0.9 * 96)) < 0.01,
                        "\(url.lastPathComponent): \(printed)")
            } else {
                #expect(printed.map(\.text).joined(separator: " ") == texts.joined(separator: " "), "\(url.lastPathComponent)")
            }
        }
    }
}
