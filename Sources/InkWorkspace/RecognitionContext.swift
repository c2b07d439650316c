import Foundation
import InkCore
import InkIndex
import InkRecognize
import InkStore
import InkText

/// The words of a note that recognition learns from: its title, its tags and its typed text. The
/// notes of a library have them stored; a note being imported has them from its recording.
public struct NoteWords: Sendable, Hashable {
    public var title: String
    public var tags: Set<Tag>
    public var typedText: String

    public init(title: String, tags: Set<Tag>, typedText: String) {
        self.title = title
        self.tags = tags
        self.typedText = typedText
    }
}

/// Everything recognition knows besides the page, as a function of the library's state — the same
/// on every path (import, the drop folder, `index`, the live note), so a page reads the same
/// whichever path it took:
///
/// - **known tags** (hashtag readings snap to them): the tags people gave every note of the library
///   *and the notes being recognised* — by hand, in the source (as recorded), typed in the text — and
///   every tag a routing rule asks for; not the tags recognition read in a note's handwriting (the
///   hashtags the index found on its pages), so that a note reads the same whether the notes beside it
///   were read before it or not (import one at a time, `index` once after, the drop folder);
/// - **lexicon** (the words a reading may be made of): the system word list, the words of the titles,
///   tags and typed text of the same notes (``NoteWords``), and the words the index has read surely
///   on several pages (``IndexBackend/recognisedVocabulary(confidence:pages:)``) before these pages;
/// - the **quality** and the **reader** asked for.
///
/// The notes being recognised are in the library already for `index` and the live note; an import
/// passes them as `importing`, because they are committed only after they are read.
public struct RecognitionContext: Sendable {
    public var knownTags: Set<Tag>
    /// The lexicon's words beyond the word list: the notes' words and the index's.
    public var ownWords: Set<String>
    public var quality: RecognitionQuality
    /// Which engines read: Tesseract, the neural line reader, or both voting (without ONNX Runtime or
    /// its model, Tesseract alone: ``Workspace/readerNotice(_:)`` says so).
    public var reader: RecognitionReader = .both
    /// The language whose system word list the lexicon starts from (nil: none, for tests).
    public var language: String?

    public init(knownTags: Set<Tag>, ownWords: Set<String> = [], quality: RecognitionQuality = .best, language: String? = "eng") {
        self.knownTags = knownTags
        self.ownWords = ownWords
        self.quality = quality
        self.language = language
    }

    /// The context of `library` (with its `index`, when there is one) for recognising its pages and
    /// those of `importing`.
    package init(library: Library, index: (any IndexBackend)?, importing: [NoteWords] = [], quality: RecognitionQuality = .best) throws {
        // Optional: an index that cannot be read (full disk, server away) must not stop recognition.
        let found = (try? index?.hashtagsFound()) ?? [:]
        var notes = try library.notes().map { stored in
            let typed = (try? library.typedTextSource(of: stored)) ?? ""
            return NoteWords(title: stored.note.title, tags: Self.tagsGiven(stored.note.tags, found: found[stored.note.id] ?? [], typed: typed),
                             typedText: typed)
        }
        notes += importing
        let recognized = (try? index?.recognizedVocabulary()) ?? []
        self.init(knownTags: Set(notes.flatMap(\.tags)).union(try library.routeRules().flatMap(\.tags)),
                  ownWords: Self.vocabulary(of: notes).union(recognized), quality: quality)
    }

    /// A note's `tags` without those recognition read in its handwriting: the hashtags the index
    /// `found` in the note, but for those `typed` in its text. A tag given by hand (or by the source)
    /// that the handwriting also holds counts as read.
    static func tagsGiven(_ tags: Set<Tag>, found: Set<Tag>, typed: String) -> Set<Tag> {
        found.isEmpty ? tags : tags.subtracting(found.subtracting(TypedText(typed).hashtags))
    }

    /// The words a reading may be made of: the system word list and ``ownWords`` (made when asked:
    /// a recogniser that needs no lexicon never loads the word list).
    package var lexicon: Lexicon {
        (language.map { Lexicon.system(language: $0) } ?? Lexicon([String]())).adding(ownWords)
    }

    /// Whether recognition in `other` reads every page as in this one.
    public func reads(like other: RecognitionContext) -> Bool {
        knownTags == other.knownTags && ownWords == other.ownWords && quality == other.quality && reader == other.reader
            && language == other.language
    }

    /// A recogniser in this context (Tesseract, with the neural reader as ``reader`` asks): the one way
    /// every path makes one.
    public func makeRecognizer() throws -> any PageRecognizer {
        var options = RecognitionOptions(quality: quality)
        options.reader = reader
        return try TesseractRecognizer(knownTags: knownTags, options: options, language: language ?? "eng", lexicon: lexicon)
    }

    /// The words a library's owner writes — in titles, tags and typed text — which recognition
    /// counts as words besides the system word list: names, jargon and abbreviations a dictionary
    /// lacks. Words of two or more letters, case folded.
    static func vocabulary(of notes: [NoteWords]) -> Set<String> {
        var words = Set<String>()
        func add(_ text: String) {
            for word in text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "'") }) where word.count >= 2 {
                words.insert(word.lowercased())
            }
        }
        for note in notes {
            add(note.title)
            for tag in note.tags { add(tag.name.replacingOccurrences(of: "-", with: " ")) }
            add(note.typedText)
        }
        return words
    }
}

/// Makes the recogniser of a context (tests give one that reads without Tesseract).
public typealias RecognizerFactory = @Sendable (RecognitionContext) throws -> any PageRecognizer
