import Foundation
import InkCore

/// A request for a set of synthetic notes, as `inkwell sample` takes it: turns into one
/// ``SampleSpec`` per note, each with the file name it is saved under.
public struct SampleRequest: Sendable, Hashable {
    public var style: HandwritingStyle = .print
    public var jitter: JitterLevel = .mild
    public var notes = 1
    /// Pages per generated note (own text has its own pages).
    public var pages = 1
    public var sentencesPerPage = 3
    public var hashtagsPerPage = 1
    /// Note *i* (from 0) uses seed `seed + i`.
    public var seed: UInt64 = 1
    /// The corpus topic of every note; nil picks one per note from its seed.
    public var topic: Topic?
    /// Text to write instead of the corpus, in every note.
    public var text: NoteText?
    /// Defaults to the topic's title, or to the text file's name.
    public var title: String?
    /// Defaults to the topic's notebook, or to `Inbox` for own text.
    public var notebook: NotebookPath?
    /// Base of the file names; defaults to the title in lowercase with dashes. Several notes get
    /// `-01`, `-02`, … appended.
    public var name: String?

    public init() {}

    /// Reads the text to write from a UTF-8 plain-text file (see ``NoteText/init(plainText:)``);
    /// its name without extension becomes the default title.
    public mutating func loadText(from url: URL) throws {
        let contents: String
        do { contents = try String(contentsOf: url, encoding: .utf8) } catch {
            throw SampleError("cannot read \(url.path) as UTF-8 text: \(error.localizedDescription)")
        }
        let text = NoteText(plainText: contents)
        guard !text.pages.isEmpty else { throw SampleError("\(url.path) holds no text") }
        self.text = text
        if title == nil { title = url.deletingPathExtension().lastPathComponent }
    }

    /// The notes to write, in order, each with its file name (no extension).
    public func specs() -> [(name: String, spec: SampleSpec)] {
        (0..<max(1, notes)).map { index in
            let seed = self.seed &+ UInt64(index)
            let topic = self.topic ?? Corpus.topics[Int(seed % UInt64(Corpus.topics.count))]
            var textRNG = SeededGenerator(seed: seed ^ 0x7465_7874)
            let noteText = text ?? topic.noteText(pages: pages, sentencesPerPage: sentencesPerPage,
                                                  hashtagsPerPage: hashtagsPerPage, rng: &textRNG)
            let noteTitle = title ?? topic.title
            let folder = notebook ?? (text == nil ? (try? NotebookPath(topic.notebook)) ?? .inbox : .inbox)
            let spec = SampleSpec(title: noteTitle, notebook: folder, created: Self.created(seed: seed), style: style,
                                  jitter: jitter, seed: seed, text: noteText)
            let base = name ?? Self.slug(noteTitle)
            return (notes > 1 ? base + (index < 9 ? "-0" : "-") + String(index + 1) : base, spec)
        }
    }

    /// A working-hours moment (08:00–17:55 UTC) in the 120 days from 6 January 2025, fixed by the seed.
    static func created(seed: UInt64) -> Date {
        var rng = SeededGenerator(seed: seed)
        let mixed = rng.next()
        let day = Double(mixed % 120), minutes = Double((mixed >> 8) % 120) * 5
        return Date(timeIntervalSince1970: 1_736_121_600 + day * 86_400 + (8 * 60 + minutes) * 60)
    }

    /// `Weekly planning` → `weekly-planning`.
    static func slug(_ title: String) -> String {
        let words = title.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        return words.isEmpty ? "note" : words.joined(separator: "-")
    }
}

/// A sample request that cannot be carried out, with the reason.
public struct SampleError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
