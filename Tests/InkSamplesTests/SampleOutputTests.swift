import Foundation
import InkCore
import InkFont
import Testing
@testable import InkSamples

@Suite("Ground truth and sample files")
struct SampleOutputTests {
    @Test("the ground truth records how the note was made and its lines as written")
    func groundTruth() throws {
        let note = try generated(pages: 2, hashtags: 2, style: .script, jitter: .strong, seed: 9)
        let data = try GroundTruth(note).encoded()
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["title"] as? String == "Test")
        #expect(json["notebook"] as? String == "Work/Tests")
        #expect(json["style"] as? String == "script")
        #expect(json["jitter"] as? String == "strong")
        #expect(json["seed"] as? Int == 9)
        let pages = try #require(json["pages"] as? [[String: Any]])
        #expect(pages.count == note.pages.count)
        for (page, synthetic) in zip(pages, note.pages) {
            let lines = try #require(page["lines"] as? [[String: Any]])
            #expect(lines.map { $0["text"] as? String } == synthetic.lines.map(\.text))
            #expect(lines.allSatisfy { ($0["strokes"] as? [Int])?.count == 2 && $0["bounds"] is [String: Double] })
            #expect(page["hashtags"] as? [String] == synthetic.hashtags.map(\.name))
        }
        #expect(try JSONDecoder().decode(GroundTruth.self, from: data) == GroundTruth(note))
    }

    @Test("a request turns into named, seeded specs")
    func requestSpecs() throws {
        var request = SampleRequest()
        request.notes = 3
        request.seed = 40
        request.style = .script
        let specs = request.specs()
        #expect(specs.map(\.spec.seed) == [40, 41, 42])
        #expect(specs.map(\.name) == specs.map { SampleRequest.slug($0.spec.title) }.enumerated().map { "\($1)-0\($0 + 1)" })
        #expect(specs.allSatisfy { $0.spec.style == .script && $0.spec.text.pages.count == 1 })
        #expect(Set(specs.map(\.spec.title)).count > 1, "topics follow the seed")
        #expect(specs[0].spec.created == SampleRequest.created(seed: 40))
        for seed in UInt64(0)..<50 {
            let seconds = Int(SampleRequest.created(seed: seed).timeIntervalSince1970) - 1_736_121_600
            #expect(seconds >= 0 && seconds < 120 * 86_400)
            #expect((8 * 3600..<18 * 3600).contains(seconds % 86_400), "working hours")
        }

        request.notes = 1
        request.topic = Corpus.topic(named: "errands")
        request.name = "list"
        let single = try #require(request.specs().first)
        #expect(single.name == "list")
        #expect(single.spec.title == "Errands" && single.spec.notebook.description == "Personal")
        #expect(SampleRequest.slug("Trip to the coast!") == "trip-to-the-coast")
        #expect(SampleRequest.slug("???") == "note")
    }

    @Test("own text replaces the corpus; its file name is the default title")
    func ownText() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inksamples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("Board call.txt")
        try Data("Numbers look fine #finance\n---\nNext call in May\n".utf8).write(to: file)

        var request = SampleRequest()
        try request.loadText(from: file)
        let spec = try #require(request.specs().first)
        #expect(spec.name == "board-call")
        #expect(spec.spec.title == "Board call" && spec.spec.notebook == .inbox)
        #expect(spec.spec.text.pages == [["Numbers look fine #finance"], ["Next call in May"]])

        let empty = directory.appendingPathComponent("empty.txt")
        try Data("\n\n".utf8).write(to: empty)
        #expect(throws: SampleError.self) { try request.loadText(from: empty) }
        #expect(throws: SampleError.self) { try request.loadText(from: directory.appendingPathComponent("missing.txt")) }
    }

    @Test("the writer saves a replay log and a ground truth per note")
    func writesFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inksamples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var request = SampleRequest()
        request.notes = 2
        request.name = "demo"
        let files = try SampleWriter(fontsDirectory: fontsDirectory).write(request, to: directory)
        #expect(files.map(\.lastPathComponent) == ["demo-01.jsonl", "demo-01.truth.json", "demo-02.jsonl", "demo-02.truth.json"])
        let log = try String(contentsOf: files[0], encoding: .utf8)
        #expect(log.hasPrefix(#"{"type":"header","version":1}"#))
        let truth = try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: files[1]))
        #expect(truth.seed == 1 && truth.style == .print && truth.jitter == .mild)

        let missingFonts = SampleWriter(fontsDirectory: directory.appendingPathComponent("nofonts"))
        #expect(throws: HersheyFontError.self) { try missingFonts.write(request, to: directory) }
    }

    @Test("the compiled-in fonts write exactly what the files in fonts/ write", arguments: HandwritingStyle.allCases)
    func compiledInFontsWriteTheSame(style: HandwritingStyle) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inksamples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var request = SampleRequest()
        request.style = style
        request.name = "same"
        let fromFiles = try SampleWriter(fontsDirectory: fontsDirectory).write(request, to: directory.appendingPathComponent("files"))
        let compiledIn = try SampleWriter().write(request, to: directory.appendingPathComponent("compiled"))
        #expect(try fromFiles.map { try Data(contentsOf: $0) } == compiledIn.map { try Data(contentsOf: $0) })
    }
}
