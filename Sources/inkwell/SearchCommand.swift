import ArgumentParser
import Foundation
import InkwellKit

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search titles, recognised handwriting, typed text and tags.",
        discussion: """
            Every word must match, as the start of a word or within a typo or two of one (handwriting \
            recognition misspells), within the title and tags plus one page, or plus the typed text. \
            --tag filters combine with AND. Recognised text comes from `inkwell index`; titles, tags and \
            typed text are always current. A hit in the typed text says "typed text".
            """
    )

    @OptionGroup var library: LibraryOptions
    @OptionGroup var index: IndexOptions
    @Argument(help: "Words to look for (may be empty with --tag).") var words: [String] = []
    @Option(name: .customLong("tag"), help: "Only notes with this tag (repeatable: all must match).") var tags: [String] = []
    @Option(help: "Only notes in this notebook and the notebooks inside it.") var notebook: String?
    @Option(help: "At most this many notes.") var limit = 20
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard !words.isEmpty || !tags.isEmpty else { throw ValidationError("give words to search for, or --tag") }
        guard limit > 0 else { throw ValidationError("--limit must be positive") }
    }

    func run() throws {
        let workspace = index.workspace(try library.open())
        announceIndex(try workspace.openIndex())
        let hits = try workspace.search(words.joined(separator: " "), tags: try tags.map(parseTag),
                                        notebook: try notebook.map { try existingNotebook($0, in: workspace) }, limit: limit)
        if output.json { return try printJSON(hits) }
        if hits.isEmpty { printNote("no notes match") }
        for hit in hits {
            var places = hit.pages.isEmpty ? [] : ["p. " + hit.pages.sorted().map(String.init).joined(separator: ", ")]
            if hit.typedText { places.append("typed text") }
            let pages = places.isEmpty ? "" : "  " + places.joined(separator: "; ")
            let tagText = hit.tags.isEmpty ? "" : "  " + hit.tags.map { "#" + $0 }.joined(separator: " ")
            print("\(hit.note)  \(hit.title)  [\(hit.notebook)]\(pages)\(tagText)")
            if hit.snippet != hit.title {
                print("    " + hit.snippet.replacingOccurrences(of: "\n", with: " / "))
            }
        }
    }
}

struct TagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags", abstract: "List tags with the number of notes that have each.")
    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions

    struct Row: Encodable {
        var tag: String
        var notes: Int
    }

    func run() throws {
        let rows = try library.open().tagCounts().map { Row(tag: $0.tag, notes: $0.notes) }
        if output.json { return try printJSON(rows) }
        if rows.isEmpty { printNote("no tags yet") }
        for row in rows { print("#\(row.tag)  \(row.notes)") }
    }
}
