import InkCore
import Testing
@testable import InkSamples

@Suite("Note text and corpus")
struct NoteTextTests {
    @Test("plain text: lines, blank lines, page breaks")
    func plainText() {
        let text = NoteText(plainText: "\n  Agenda  \r\n\r\nBudget\n\n---\nActions\u{0C}Next page\n\n")
        #expect(text.pages == [["Agenda", "", "Budget"], ["Actions"], ["Next page"]])
        #expect(NoteText(plainText: "\n \n---\n").pages.isEmpty)
    }

    @Test("only printable ASCII is written")
    func writable() {
        let text = NoteText(pages: [["\u{201C}Caf\u{E9}\u{201D} \u{2013} it\u{2019}s\tfine\u{2026}   ok"]])
        #expect(text.pages == [["\"Caf?\" - it's fine... ok"]])
    }

    @Test("every topic is usable: titles, notebooks, valid hashtags, enough lines")
    func corpus() throws {
        #expect(Set(Corpus.topics.map(\.slug)).count == Corpus.topics.count)
        for topic in Corpus.topics {
            #expect(Corpus.topic(named: topic.slug.uppercased()) == topic)
            _ = try NotebookPath(topic.notebook)
            #expect(topic.sentences.count >= 10)
            #expect(topic.sentences.allSatisfy { $0.allSatisfy { $0.isASCII } && !$0.contains("#") })
            #expect(topic.hashtags.allSatisfy { NoteText.hashtag(in: "#" + $0)?.name == $0 })
        }
        #expect(Corpus.topic(named: "nope") == nil)
    }

    @Test("generated text: title first, the asked pages and lines, no line repeated before all are used")
    func generatedText() {
        var rng = SeededGenerator(seed: 3)
        let topic = Corpus.topics[3]
        let text = topic.noteText(pages: 3, sentencesPerPage: 4, hashtagsPerPage: 0, rng: &rng)
        #expect(text.pages.count == 3)
        #expect(text.pages[0][0] == topic.title)
        #expect(text.pages.map(\.count) == [5, 4, 4])
        let lines = text.pages.flatMap { $0 }.dropFirst()
        #expect(Set(lines).count == lines.count)
        #expect(lines.allSatisfy { $0.hasPrefix("- ") && topic.sentences.contains(String($0.dropFirst(2))) })
    }
}
