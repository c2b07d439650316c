import Foundation
import InkCore
import Testing
@testable import InkSamples

@Suite("Replay log writer")
struct ReplayLogWriterTests {
    /// The log's lines parsed with JSONSerialization; fails the test on any line that is not a JSON object.
    private func parse(_ log: String) throws -> [[String: Any]] {
        #expect(log.hasSuffix("\n"))
        return try log.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }
    }

    @Test("every line is valid JSON that follows the replay format", arguments: HandwritingStyle.allCases)
    func followsFormat(style: HandwritingStyle) throws {
        let note = try generated(pages: 2, hashtags: 2, style: style, jitter: .strong, seed: 21)
        let lines = try parse(ReplayLogWriter.log(for: note))

        #expect(lines[0]["type"] as? String == "header")
        #expect(lines[0]["version"] as? Int == 1)
        #expect(lines[1]["type"] as? String == "note")
        #expect(lines[1]["title"] as? String == "Test")
        #expect(lines[1]["notebook"] as? String == "Work/Tests")
        #expect(lines[1]["created"] as? String == "2025-01-06T08:00:00Z")

        let allowed: [String: Set<String>] = [
            "page": ["type", "width", "height", "template", "spacing"],
            "down": ["type", "t", "x", "y", "p"],
            "move": ["type", "t", "x", "y", "p"],
            "up": ["type", "t", "x", "y", "p"],
        ]
        var penDown = false, lastTime = 0.0, pages = 0, strokes = 0, points = 0
        for line in lines.dropFirst(2) {
            let type = try #require(line["type"] as? String)
            let keys = try #require(allowed[type], "unexpected line type \(type)")
            #expect(Set(line.keys) == keys, "\(type) has keys \(line.keys.sorted())")
            switch type {
            case "page":
                #expect(!penDown)
                #expect(line["width"] as? Double == 1404 && line["height"] as? Double == 1872)
                #expect(line["template"] as? String == "lined" && line["spacing"] as? Double == 80)
                pages += 1
            default:
                #expect(pages > 0)
                #expect(penDown == (type != "down"), "down, moves, up: one stroke at a time")
                penDown = type != "up"
                if type == "down" { strokes += 1 }
                points += 1
                let t = try #require(line["t"] as? Double)
                #expect(t >= lastTime, "t never decreases")
                lastTime = t
                let x = try #require(line["x"] as? Double), y = try #require(line["y"] as? Double)
                let p = try #require(line["p"] as? Double)
                #expect(x >= 0 && x <= 1404 && y >= 0 && y <= 1872)
                #expect(p >= 0 && p <= 1)
            }
        }
        #expect(!penDown)
        #expect(pages == note.pages.count)
        #expect(strokes == note.inkPages.reduce(0) { $0 + $1.strokes.count })
        #expect(points == note.inkPages.reduce(0) { $0 + $1.pointCount })
    }

    @Test("t is the stroke's time since the recording began, in seconds")
    func timesMatchInkCore() throws {
        let note = try generated(pages: 2, seed: 22)
        let downs = try parse(ReplayLogWriter.log(for: note)).filter { $0["type"] as? String == "down" }
        let starts = note.pages.flatMap { page in page.page.strokes.map { (page.startTime + $0.startTime) / 1000 } }
        #expect(downs.count == starts.count)
        for (down, start) in zip(downs, starts) {
            #expect(abs((down["t"] as! Double) - start) <= 0.0005)
        }
        let firstOfPage2 = note.pages[1].page.strokes[0]
        #expect(firstOfPage2.startTime >= 600, "a page turn before the first stroke of a page")
    }

    @Test("non-default pens and paper are written; strings are escaped")
    func attributesAndEscaping() throws {
        var note = try note(NoteText(pages: [["x"]]), jitter: .none)
        note.spec.title = "Q3 \"plan\"\\draft\n"
        note.pages[0].page.strokes[0].tool = .fineliner
        note.pages[0].page.strokes[0].color = RGBA(red: 0x1a, green: 0x1a, blue: 0x1a)
        note.pages[0].page.strokes[0].width = 2.5
        note.pages[0].page.template.paper = RGBA(red: 0xf5, green: 0xf0, blue: 0xe6)
        let lines = try parse(ReplayLogWriter.log(for: note))
        #expect(lines[1]["title"] as? String == "Q3 \"plan\"\\draft\n")
        #expect(lines[2]["paper"] as? String == "#f5f0e6ff")
        #expect(lines[3]["tool"] as? String == "fineliner")
        #expect(lines[3]["color"] as? String == "#1a1a1aff")
        #expect(lines[3]["width"] as? Double == 2.5)
        #expect(lines[4]["tool"] == nil)
    }

    @Test("numbers are rounded without trailing zeros", arguments: [
        (12.5, 1, "12.5"), (3.0, 3, "3"), (-0.25, 2, "-0.25"), (0.1049, 3, "0.105"), (-0.0001, 2, "0"), (1404, 1, "1404"),
        (0.05, 2, "0.05"), (7.996, 2, "8"),
    ])
    func numbers(value: Double, decimals: Int, text: String) {
        #expect(ReplayLogWriter.number(value, decimals) == text)
    }
}
