import Foundation
import InkCore
import Testing
@testable import InkInterchange

@Suite("Replay log decoder")
struct ReplayLogDecoderTests {
    func decode(_ text: String) throws(ImportError) -> Recording {
        try ReplayLogDecoder.decode(Data(text.utf8), file: "test.jsonl")
    }

    @Test("notes, pages, pens and points come through with their times")
    func fullExample() throws {
        let recording = try decode("""
            {"type":"header","version":1}
            {"type":"note","title":"Standup","notebook":"Work/Meetings","tags":["daily","#Q3"],"pinned":true,"created":"2026-11-21T09:30:00Z"}
            {"type":"page","template":"lined","width":800,"height":600,"paper":"#fffff0"}

            {"type":"down","t":0,"x":100,"y":200,"p":0.35,"tool":"marker","color":"#ff000080","width":12,"altitude":1.2,"azimuth":0.5}
            {"type":"move","t":0.008,"x":104,"y":201}
            {"type":"up","t":0.016,"x":109,"y":203,"p":0.2}
            {"type":"undo","t":1}\r
            {"type":"tap","t":2,"x":10,"y":5,"count":2,"future":"ignored"}
            """)
        #expect(recording.notes.count == 1)
        let note = recording.notes[0]
        #expect(note.title == "Standup" && note.pinned && note.tags == [Tag("daily")!, Tag("q3")!])
        #expect(note.notebook == (try NotebookPath("Work/Meetings")))
        #expect(note.created == ISO8601DateFormatter().date(from: "2026-11-21T09:30:00Z"))
        #expect(note.events == [
            .newPage(size: PageSize(width: 800, height: 600),
                     template: PageTemplate(kind: .lined, paper: RGBA(red: 255, green: 255, blue: 240)), at: 0),
            .penDown(RecordedPoint(x: 100, y: 200, pressure: 0.35, tilt: Tilt(altitude: 1.2, azimuth: 0.5)),
                     pen: RecordedPen(tool: .marker, color: RGBA(red: 255, green: 0, blue: 0, alpha: 128), width: 12), at: 0),
            .penMove(RecordedPoint(x: 104, y: 201), at: 0.008),
            .penUp(RecordedPoint(x: 109, y: 203, pressure: 0.2), at: 0.016),
            .undo(at: 1),
            .tap(x: 10, y: 5, count: 2, at: 2),
        ])
    }

    @Test("errors name the line and the reason", arguments: [
        ("{\"type\":\"down\",\"t\":0,\"x\":\"left\",\"y\":1}", "line 1: key \"x\" is not a number"),
        ("{\"type\":\"note\",\"tags\":\"solo\"}", "line 1: key \"tags\" is not a list of strings"),
        ("[1,2]", "line 1: not a JSON object"),
        ("{\"t\":0}", "line 1: key \"type\" is missing"),
        ("{\"type\":\"move\",\"t\":0,\"x\":1,\"y\":1}", "line 1: pen move without a pen down"),
        ("{\"type\":\"down\",\"t\":0,\"x\":1}\n", "line 1: key \"y\" is missing"),
        ("\n\n{\"type\":\"header\",\"version\":2}", "line 3: unsupported replay log version 2.0"),
        ("{\"type\":\"note\",\"notebook\":\"../x\"}", "line 1: key \"notebook\": notebook name \"..\" is a relative path component"),
        ("{\"type\":\"down\",\"t\":0,\"x\":1,\"y\":1,\"width\":0}", "line 1: key \"width\": 0.0 is outside 0…1000"),
        ("{\"type\":\"down\",\"t\":-1,\"x\":1,\"y\":1}", "line 1: key \"t\": -1.0 is not a time in seconds ≥ 0"),
        ("{\"type\":\"down\",\"t\":0,\"x\":1,\"y\":1,\"altitude\":1}", "line 1: \"altitude\" and \"azimuth\" come together"),
        ("{\"type\":\"down\",\"t\":0,\"x\":1e400,\"y\":1}", "line 1: key \"x\""),
        ("", "holds no notes and no pen input"),
    ])
    func errors(text: String, message: String) {
        do {
            _ = try decode(text)
            Issue.record("decoded \(text)")
        } catch {
            #expect(error.description.hasPrefix("test.jsonl: "))
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test("the fast line scanner agrees with Foundation's JSON decoder, and declines what it does not handle")
    func scannerAgreesWithDecoder() throws {
        let accepted = [
            #"{"type":"move","t":0.016,"x":-104.5,"y":2.01e2,"p":1E-1}"#,
            #" { "type" : "down" , "t" : 0 , "x" : 0 , "y" : -0.0 , "tool" : "pen" , "unknown" : true } "#,
            #"{"type":"note","title":"Q3: plan (draft)","pinned":false}"#,
            #"{}"#,
        ]
        let decoder = JSONDecoder()
        for text in accepted {
            let fast = Data(text.utf8).withUnsafeBytes(ReplayLineScanner.scan)
            let full = try decoder.decode(ReplayLine.self, from: Data(text.utf8))
            #expect(fast.map(String.init(describing:)) == String(describing: full), "\(text)")
        }
        let declined = [
            #"{"type":"mo\u0076e"}"#, #"{"title":"Überschrift"}"#, #"{"tags":["a"]}"#, #"{"x":NaN}"#, #"{"x":0x10}"#,
            #"{"x":01}"#, #"{"x":1.}"#, #"{"x":.5}"#, #"{"x":+1}"#, #"{"x":1} trailing"#, #"{"x":1,}"#, #"{"x":{"y":1}}"#,
            #"{"x":"1"}"#, #"{"type":1}"#, #"{"x":1"#, #"{"x"}"#, #"{"x":tru}"#, #"{"x":1e}"#,
        ]
        for text in declined {
            #expect(Data(text.utf8).withUnsafeBytes(ReplayLineScanner.scan) == nil, "\(text)")
        }
    }

    @Test("a large log parses in parallel and reports the first error in file order")
    func firstErrorInFileOrder() {
        var lines = ["{\"type\":\"down\",\"t\":0,\"x\":1,\"y\":1}"]
        for i in 1...20_000 { lines.append("{\"type\":\"move\",\"t\":\(i),\"x\":1,\"y\":1}") }
        lines[5_000] = "{\"type\":\"move\",\"t\":5000,\"x\":1,\"y\":2e9}"
        lines[15_000] = "not json"
        lines.append("{\"type\":\"up\",\"t\":30000}")
        do {
            _ = try decode(lines.joined(separator: "\n"))
            Issue.record("decoded a bad log")
        } catch {
            #expect(error.position == "line 5001")
        }
    }
}
