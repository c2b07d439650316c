import Foundation
import InkCore
import InkFont
import InkSamples

/// Synthetic handwriting with known text, as `inkwell sample` writes it (no library needed).
public struct SampleSettings: Sendable {
    /// How letters are written.
    public enum Style: String, Sendable, CaseIterable {
        /// Separate upright letters.
        case print
        /// Joined, slanted letters.
        case script
    }

    /// How much the hand varies.
    public enum Jitter: String, Sendable, CaseIterable {
        case none, mild, strong
    }

    public var style: Style = .print
    public var jitter: Jitter = .mild
    public var notes = 1
    public var pages = 1
    public var sentencesPerPage = 3
    public var hashtagsPerPage = 1
    public var seed: UInt64 = 1
    /// A corpus topic's slug (nil: chosen by seed); one of ``topics``.
    public var topic: String?
    /// A plain-text file to write instead of the corpus.
    public var textFile: URL?
    public var title: String?
    public var notebook: NotebookPath?
    public var name: String?
    /// A folder holding other Hershey `.jhf` fonts (nil: the fonts compiled in).
    public var fonts: URL?

    public init() {}

    /// The corpus topics' slugs.
    public static var topics: [String] { Corpus.topics.map(\.slug) }

    /// Writes the notes into `folder` as replay logs plus ground truth; the files written.
    public func write(to folder: URL) throws -> [URL] {
        var request = SampleRequest()
        request.style = HandwritingStyle(rawValue: style.rawValue) ?? .print
        request.jitter = JitterLevel(rawValue: jitter.rawValue) ?? .mild
        request.notes = notes
        request.pages = pages
        request.sentencesPerPage = sentencesPerPage
        request.hashtagsPerPage = hashtagsPerPage
        request.seed = seed
        request.topic = topic.flatMap(Corpus.topic(named:))
        request.title = title
        request.notebook = notebook
        request.name = name
        if let textFile { try request.loadText(from: textFile) }
        do {
            return try SampleWriter(fontsDirectory: fonts).write(request, to: folder)
        } catch let error as HersheyFontError where error.line == 0 {
            throw SampleError("\(error); --fonts must name the folder holding \(request.style.fontFileName)")
        }
    }
}
