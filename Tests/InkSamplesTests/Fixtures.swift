import Foundation
import InkCore
import InkFont
@testable import InkSamples

/// The repository's `fonts/` folder, found from this file's path.
let fontsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fonts")

func font(_ style: HandwritingStyle) throws -> HersheyFont {
    try HersheyFont(contentsOf: fontsDirectory.appendingPathComponent(style.fontFileName))
}

/// `text` written as a note in `style` at `jitter` from `seed`.
func note(_ text: NoteText, style: HandwritingStyle = .print, jitter: JitterLevel = .mild,
          seed: UInt64 = 1) throws -> SyntheticNote {
    let spec = SampleSpec(title: "Test", notebook: try NotebookPath("Work/Tests"),
                          created: Date(timeIntervalSince1970: 1_736_150_400), style: style, jitter: jitter,
                          seed: seed, text: text)
    return HandwritingSynthesizer(font: try font(style)).write(spec)
}

/// A note on `topic` with `pages` pages of generated text.
func generated(pages: Int = 1, sentences: Int = 3, hashtags: Int = 1, style: HandwritingStyle = .print,
               jitter: JitterLevel = .mild, seed: UInt64 = 1) throws -> SyntheticNote {
    var rng = SeededGenerator(seed: seed)
    let text = Corpus.topics[0].noteText(pages: pages, sentencesPerPage: sentences, hashtagsPerPage: hashtags, rng: &rng)
    return try note(text, style: style, jitter: jitter, seed: seed)
}

/// Text that fills more than one page: 24 short lines and a paragraph that wraps over several.
let longText = NoteText(pages: [
    Corpus.topics[0].sentences + [Corpus.topics[2].sentences.joined(separator: " ")] + Corpus.topics[1].sentences,
])

extension Stroke {
    var positions: [Vector] { points.map { Vector(x: Double($0.x), y: Double($0.y)) } }
}
