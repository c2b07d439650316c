import Foundation
import InkCore
@testable import InkRecognize
import InkSamples
import Testing

@Suite("Tesseract recogniser")
struct RecognizerTests {
    @Test("a generated print page: at least 90% of its words and every hashtag", .enabled(if: tesseractAvailable, skipMessage))
    func printPage() throws {
        let recognizer = try TesseractRecognizer()
        for sample in try samplePages(style: .print, jitter: .mild, count: 2) {
            let result = try recognizer.recognize(sample.page)
            let accuracy = wordAccuracy(truth: sample.lines.map(\.text), found: result.text)
            #expect(accuracy >= 0.9, "read \(result.text)")
            #expect(Set(result.hashtags) == Set(sample.hashtags))
            // Words come with boxes on the page and confidences.
            for word in result.words {
                #expect(word.box.minX >= 0 && word.box.maxX <= Double(sample.page.size.width) && word.box.width > 0)
                #expect((0...1).contains(word.confidence))
            }
            #expect(result.words.map(\.line) == result.words.map(\.line).sorted())
        }
    }

    @Test("hashtags are words starting with # in the text, with their boxes over the # too", .enabled(if: tesseractAvailable, skipMessage))
    func hashtagWords() throws {
        let sample = try writtenPage(["Send the budget draft #budget", "Plan the #follow-up review"])
        let result = try TesseractRecognizer().recognize(sample.page)
        #expect(result.hashtags.map(\.name) == ["budget", "follow-up"])
        let tagWords = result.words.filter { $0.text.hasPrefix("#") }
        #expect(tagWords.map(\.text) == ["#budget", "#follow-up"])
        // The box covers the # mark, which is the first ink of the word.
        let budget = sample.lines[0].words.last!
        #expect(abs(tagWords[0].box.minX - budget.bounds.minX) < 6)
    }

    @Test("a misspelt hashtag snaps to a known tag; unknown, it stays as read", .enabled(if: tesseractAvailable, skipMessage))
    func snapsToKnownTags() throws {
        let sample = try writtenPage(["Numbers for the board #budgot"])
        let plain = try TesseractRecognizer().recognize(sample.page)
        #expect(plain.hashtags.map(\.name) == ["budgot"])
        let known = try TesseractRecognizer(knownTags: [Tag("budget")!, Tag("board")!]).recognize(sample.page)
        #expect(known.hashtags.map(\.name) == ["budget"])
        #expect(known.text.contains("#budget"))
    }

    @Test("hashtags are found in joined script too", .enabled(if: tesseractAvailable, skipMessage))
    func scriptHashtags() throws {
        let known = Set(Corpus.topics.flatMap(\.hashtags).compactMap { Tag($0) })
        let recognizer = try TesseractRecognizer(knownTags: known)
        var expected = 0, found = 0, invented = 0
        for sample in try samplePages(style: .script, jitter: .mild, count: 3) {
            let tags = Set(try recognizer.recognize(sample.page).hashtags)
            expected += sample.hashtags.count
            found += tags.intersection(sample.hashtags).count
            invented += tags.subtracting(sample.hashtags).count
        }
        #expect(Double(found) >= 0.85 * Double(expected))
        #expect(invented <= 1)
    }

    @Test("one recogniser reads page after page", .enabled(if: tesseractAvailable, skipMessage))
    func reuse() throws {
        let recognizer = try TesseractRecognizer()
        let first = try recognizer.recognize(try writtenPage(["Apples and pears"]).page)
        let second = try recognizer.recognize(try writtenPage(["Trains leave at nine"]).page)
        #expect(first.text.contains("Apples"))
        #expect(second.text.contains("Trains"))
        #expect(!second.text.contains("Apples"))
    }

    @Test("blank pages, highlighter and erased ink give no words", .enabled(if: tesseractAvailable, skipMessage))
    func nothingToRead() throws {
        let recognizer = try TesseractRecognizer()
        #expect(try recognizer.recognize(Page(id: .random())) == PageRecognition(words: [], hashtags: []))

        var highlighted = try writtenPage(["Only highlighter here"]).page
        highlighted.strokes = highlighted.strokes.map { var s = $0; s.tool = .highlighter; return s }
        #expect(try recognizer.recognize(highlighted).words.isEmpty)

        let sample = try writtenPage(["Keep this, remove later"])
        var page = sample.page
        let erased = sample.lines[0].words.last!.bounds
        page.strokes.append(Stroke(id: page.nextStrokeID, tool: .eraser, width: 40, startTime: 1e6, points: stride(
            from: erased.minX - 10, through: erased.maxX + 10, by: 8).flatMap { x in
                [InkPoint(x: Float(x), y: Float(erased.minY - 5)), InkPoint(x: Float(x + 4), y: Float(erased.maxY + 5))]
            }))
        let text = try recognizer.recognize(page).text
        #expect(text.contains("Keep"))
        #expect(!text.contains("later"))
    }

    @Test("damaged strokes (NaN, far away, single points) are skipped, not fatal", .enabled(if: tesseractAvailable, skipMessage))
    func damagedStrokes() throws {
        var page = try writtenPage(["Still readable"]).page
        var id = page.nextStrokeID.rawValue
        func add(_ points: [InkPoint]) {
            page.strokes.append(Stroke(id: StrokeID(id), points: points))
            id += 1
        }
        add([InkPoint(x: .nan, y: 10), InkPoint(x: 20, y: .infinity)])
        add([InkPoint(x: 1e30, y: 1e30), InkPoint(x: -1e30, y: 5)])
        add([InkPoint(x: 700, y: 1500)])
        add([])
        let result = try TesseractRecognizer().recognize(page)
        #expect(result.text.contains("readable"))
    }

    @Test("missing language data is a clear error naming where it looked")
    func missingData() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-tessdata-\(getpid())").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: RecognitionError.languageDataNotFound(language: "eng", searched: [empty, empty + "/tessdata"])) {
            try TesseractRecognizer(dataPath: empty)
        }
        do {
            _ = try TesseractRecognizer(language: "xx", dataPath: empty)
        } catch {
            #expect(error.description.contains("xx.traineddata"))
            #expect(error.description.contains("TESSDATA_PREFIX"))
        }
    }

    @Test("TESSDATA_PREFIX may name the tessdata folder or its parent")
    func locator() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessdata-root-\(getpid())")
        let folder = root.appendingPathComponent("tessdata")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("zz.traineddata").path, contents: Data([1]))
        #expect(try TessdataLocator.folder(for: "zz", environment: ["TESSDATA_PREFIX": folder.path]) == folder.path)
        #expect(try TessdataLocator.folder(for: "zz", environment: ["TESSDATA_PREFIX": root.path]) == folder.path)
    }

    @Test("damaged language data is an error, not a crash")
    func damagedData() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bad-tessdata-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("eng.traineddata").path,
                                       contents: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }))
        #expect(throws: RecognitionError.engineInitFailed(language: "eng", dataPath: folder.path)) {
            try TesseractRecognizer(dataPath: folder.path)
        }
    }

    @Test("an unknown Tesseract parameter is refused by name", .enabled(if: tesseractAvailable, skipMessage))
    func badParameter() throws {
        var options = RecognitionOptions()
        options.tesseractVariables = ["no_such_parameter_here": "1"]
        #expect(throws: RecognitionError.invalidParameter(name: "no_such_parameter_here", value: "1")) {
            try TesseractRecognizer(options: options)
        }
    }
}
