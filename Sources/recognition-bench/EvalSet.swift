import Foundation
import InkCore
import InkFont
import InkSamples

/// A generated page with what it says.
struct EvalPage: Sendable {
    var name: String
    var page: Page
    var lines: [String]
    var hashtags: [String]
}

/// Generated evaluation pages: `count` one-page notes per style and jitter level, each with
/// `sentences` corpus sentences and `hashtags` hashtags, from seeds `seed…`.
struct EvalSet {
    func pages(style: HandwritingStyle, jitter: JitterLevel, count: Int, sentences: Int = 8, hashtags: Int = 3,
               seed: UInt64 = 1000) throws -> [EvalPage] {
        let synthesizer = HandwritingSynthesizer(font: style.font)
        var request = SampleRequest()
        request.style = style
        request.jitter = jitter
        request.notes = count
        request.pages = 1
        request.sentencesPerPage = sentences
        request.hashtagsPerPage = hashtags
        // Different seeds per style and jitter, so that every cell writes different text.
        request.seed = seed &+ UInt64(HandwritingStyle.allCases.firstIndex(of: style)! * 100_000
            + JitterLevel.allCases.firstIndex(of: jitter)! * 10_000)
        return request.specs().flatMap { name, spec -> [EvalPage] in
            let note = synthesizer.write(spec)
            return note.pages.enumerated().map { index, page in
                EvalPage(name: "\(style)-\(jitter)-\(name)-p\(index + 1)", page: page.page,
                         lines: page.lines.map(\.text), hashtags: page.hashtags.map(\.name))
            }
        }
    }

    /// Every tag the corpus topics use: what a library written from them would know.
    static var knownTags: Set<Tag> {
        Set(Corpus.topics.flatMap(\.hashtags).compactMap { Tag($0) })
    }
}
