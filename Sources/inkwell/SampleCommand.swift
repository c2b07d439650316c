import ArgumentParser
import Foundation
import InkwellKit

/// `inkwell sample`: writes synthetic handwriting with known text, for testing recognition and
/// for demos. All the work is in InkSamples.
struct SampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Write synthetic handwriting with known text, as replay logs plus ground truth.",
        discussion: """
            Each note is written with a Hershey stroke font, laid out on reMarkable-sized ruled pages \
            and timed like a pen on a tablet. For every note it writes NAME.jsonl, a replay log that \
            `inkwell import` reads, and NAME.truth.json: title, style, jitter, seed and, per page, the \
            text lines as written and the hashtags. The same options and seed always give the same files.

            Without --text the notes come from a built-in corpus of meeting notes, to-do lists and \
            the like; topics: \(SampleSettings.topics.joined(separator: ", ")). With --text, each \
            line of the file starts a new written line, a line holding only --- turns the page, and \
            words such as #budget are written as hashtags.
            """
    )

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Folder to write the files into (created if missing).", valueName: "dir"))
    var output: String = "."

    @Option(help: "print (separate upright letters) or script (joined, slanted letters).")
    var style: SampleSettings.Style = .print

    @Option(help: "How much the hand varies: none, mild or strong.")
    var jitter: SampleSettings.Jitter = .mild

    @Option(help: ArgumentHelp("Number of notes to write; note i (from 0) uses seed S+i.", valueName: "n"))
    var notes: Int = 1

    @Option(help: ArgumentHelp("Pages per generated note (a page that overflows continues on a new one).", valueName: "n"))
    var pages: Int = 1

    @Option(help: ArgumentHelp("Lines of corpus text per generated page.", valueName: "n"))
    var sentences: Int = 3

    @Option(help: ArgumentHelp("Hashtags mixed into each generated page, written with a # like any other word.", valueName: "n"))
    var hashtags: Int = 1

    @Option(help: ArgumentHelp("Seed for every random choice.", valueName: "s"))
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Corpus topic for every note (default: chosen by seed).", valueName: "slug"))
    var topic: String?

    @Option(name: .customLong("text"), help: ArgumentHelp("Plain-text file to write instead of the corpus.", valueName: "file"))
    var textFile: String?

    @Option(help: "Note title (default: the topic's title, or the text file's name).")
    var title: String?

    @Option(help: ArgumentHelp("Notebook, e.g. Work/Meetings (default: the topic's, or Inbox).", valueName: "path"))
    var notebook: String?

    @Option(help: "Base file name (default: the title in lowercase with dashes; several notes add -01, -02, …).")
    var name: String?

    @Option(help: ArgumentHelp("Folder holding other Hershey .jhf fonts to write with (default: the fonts compiled in).", valueName: "dir"))
    var fonts: String?

    @OptionGroup var outputOptions: OutputOptions

    /// What `--json` prints: the files written.
    struct Report: Encodable {
        var files: [String]
    }

    func validate() throws {
        guard notes >= 1, pages >= 1, sentences >= 1, hashtags >= 0 else {
            throw ValidationError("--notes, --pages and --sentences must be at least 1, --hashtags at least 0")
        }
        if let topic, !SampleSettings.topics.contains(topic) {
            throw ValidationError("unknown topic \"\(topic)\"; topics: \(SampleSettings.topics.joined(separator: ", "))")
        }
    }

    func run() throws {
        var settings = SampleSettings()
        settings.style = style
        settings.jitter = jitter
        settings.notes = notes
        settings.pages = pages
        settings.sentencesPerPage = sentences
        settings.hashtagsPerPage = hashtags
        settings.seed = seed
        settings.topic = topic
        settings.title = title
        settings.notebook = try notebook.map { try NotebookPath($0) }
        settings.name = name
        settings.textFile = textFile.map { URL(fileURLWithPath: $0) }
        settings.fonts = fonts.map { URL(fileURLWithPath: $0, isDirectory: true) }
        let files = try settings.write(to: URL(fileURLWithPath: output, isDirectory: true))
        if outputOptions.json { return try printJSON(Report(files: files.map(\.path))) }
        for file in files { print(file.path) }
    }
}

extension SampleSettings.Style: ExpressibleByArgument {}
extension SampleSettings.Jitter: ExpressibleByArgument {}
