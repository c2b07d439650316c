import Foundation
import InkCore
import InkFont
@testable import InkRecognize
import InkSamples
import Testing

/// The repository's `fonts/` folder, found from this file's path.
let fontsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fonts")

/// True when Tesseract's English model is installed; tests that run Tesseract are skipped otherwise.
let tesseractAvailable = (try? TessdataLocator.folder(for: "eng")) != nil
let skipMessage: Comment = "Tesseract's eng.traineddata is not installed (apt-get install tesseract-ocr-eng, or set TESSDATA_PREFIX)"

/// A generated page with what it says.
struct SamplePage {
    var page: Page
    var lines: [WrittenLine]
    var hashtags: [InkCore.Tag]
}

/// One-page notes from the sample generator: `count` of them in `style` at `jitter`.
func samplePages(style: HandwritingStyle, jitter: JitterLevel, count: Int = 3, sentences: Int = 6, hashtags: Int = 3,
                 seed: UInt64 = 77) throws -> [SamplePage] {
    let font = try HersheyFont(contentsOf: fontsDirectory.appendingPathComponent(style.fontFileName))
    let synthesizer = HandwritingSynthesizer(font: font)
    var request = SampleRequest()
    request.style = style
    request.jitter = jitter
    request.notes = count
    request.sentencesPerPage = sentences
    request.hashtagsPerPage = hashtags
    request.seed = seed
    return request.specs().flatMap { _, spec in
        synthesizer.write(spec).pages.map { SamplePage(page: $0.page, lines: $0.lines, hashtags: $0.hashtags) }
    }
}

/// A page holding `text` written in `style`, one entry per line.
func writtenPage(_ lines: [String], style: HandwritingStyle = .print, jitter: JitterLevel = .none, seed: UInt64 = 5) throws -> SamplePage {
    let font = try HersheyFont(contentsOf: fontsDirectory.appendingPathComponent(style.fontFileName))
    let spec = SampleSpec(title: "Test", notebook: .inbox, created: Date(timeIntervalSince1970: 1_736_150_400), style: style,
                          jitter: jitter, seed: seed, text: NoteText(pages: [lines]))
    let page = HandwritingSynthesizer(font: font).write(spec).pages[0]
    return SamplePage(page: page.page, lines: page.lines, hashtags: page.hashtags)
}

/// A stroke through `points` (x, y pairs), 8 ms a point.
func stroke(_ id: Int, _ points: [(Double, Double)], tool: Tool = .pen, width: Float = 2) -> Stroke {
    Stroke(id: StrokeID(UInt64(id)), tool: tool, width: width, startTime: Double(id) * 300,
           points: points.enumerated().map { InkPoint(x: Float($1.0), y: Float($1.1), time: Float($0 * 8)) })
}

/// A straight stroke from `a` to `b`, sampled every 2 px.
func line(_ id: Int, from a: (Double, Double), to b: (Double, Double), tool: Tool = .pen) -> Stroke {
    let length = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()
    let steps = max(1, Int(length / 2))
    return stroke(id, (0...steps).map { i in
        let t = Double(i) / Double(steps)
        return (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
    }, tool: tool)
}

/// Renumbers strokes 1, 2, 3… in the order given.
func numbered(_ strokes: [Stroke]) -> [Stroke] {
    strokes.enumerated().map { index, stroke in
        var copy = stroke
        copy.id = StrokeID(UInt64(index + 1))
        return copy
    }
}

/// Share of `truth`'s words found in order in `found` (case folded, punctuation around words dropped).
func wordAccuracy(truth: [String], found: String) -> Double {
    func words(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).compactMap { raw in
            let word = raw.lowercased().trimmingCharacters(in: .punctuationCharacters.subtracting(CharacterSet(charactersIn: "#")))
            return word.isEmpty ? nil : word
        }
    }
    let a = truth.flatMap(words), b = words(found)
    guard !a.isEmpty, !b.isEmpty else { return 0 }
    var previous = [Int](repeating: 0, count: b.count + 1), current = previous
    for i in 1...a.count {
        for j in 1...b.count {
            current[j] = a[i - 1] == b[j - 1] ? previous[j - 1] + 1 : max(previous[j], current[j - 1])
        }
        swap(&previous, &current)
    }
    return Double(previous[b.count]) / Double(a.count)
}
