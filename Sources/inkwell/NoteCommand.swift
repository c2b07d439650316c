import ArgumentParser
import Foundation
import InkwellKit

struct NoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Create, list, show and organise notes.",
        discussion: "A NOTE argument is a note id, a unique id prefix (4+ characters) or an exact title.",
        subcommands: [Create.self, List.self, Show.self, Text.self, Check.self, Rename.self, Move.self, Delete.self, Pin.self,
                      TagNote.self]
    )

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create an empty note.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The note's title.") var title: String
        @Option(help: "The notebook to put it in.") var notebook: String = "Inbox"
        @Option(name: .customLong("tag"), help: "A tag to give it (repeatable).") var tags: [String] = []
        @Flag(help: "Pin it.") var pinned = false
        @OptionGroup var output: OutputOptions

        func run() throws {
            let tags = try Set(tags.map(parseTag))
            let stored = try library.open().createNote(title: title, in: try notebookPath(notebook), tags: tags, pinned: pinned)
            if output.json { return try printJSON(NoteRow(stored)) }
            print("created note \(stored.note.id) \"\(stored.note.title)\" in \(stored.notebook)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List notes: pinned first, then notebook by notebook in each notebook's order.",
            discussion: """
                A notebook's notes are listed newest first until `inkwell note move` places them; notes placed \
                nowhere yet (new ones) come first. Filters combine: --notebook Work --tag q3 --tag budget --pinned \
                lists pinned notes under Work tagged both q3 and budget.
                """
        )
        @OptionGroup var library: LibraryOptions
        @Option(help: "Only notes in this notebook and the notebooks inside it.") var notebook: String?
        @Option(name: .customLong("tag"), help: "Only notes with this tag (repeatable: all must match).") var tags: [String] = []
        @Flag(help: "Only pinned notes.") var pinned = false
        @OptionGroup var output: OutputOptions

        func run() throws {
            let library = try library.open()
            let scope = try notebook.map { try existingNotebook($0, in: library) } ?? .root
            let wanted = try Set(tags.map(parseTag))
            let notes = try library.notes(in: scope)
                .filter { wanted.isSubset(of: $0.note.tags) && (!pinned || $0.note.pinned) }
            if output.json { return try printJSON(notes.map(NoteRow.init)) }
            if notes.isEmpty { printNote("no notes match") }
            for note in notes { print(NoteRow(note).line) }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a note's details, pages and typed text counts.",
            discussion: """
                Reading time is at \(TextStatistics.wordsPerMinute) words a minute (Brysbaert 2019; docs/typed-text.md). \
                Each page shows its recognition status from the search index: pending (not recognised yet, \
                or changed since), processing (a live `inkwell index` is on it), recognised, or failed with \
                the reason. A damaged page file is shown with its damage instead of failing the command.
                """
        )
        @OptionGroup var library: LibraryOptions
        @OptionGroup var index: IndexOptions
        @Argument(help: "The note.") var note: String
        @OptionGroup var output: OutputOptions

        func run() throws {
            let workspace = index.workspace(try library.open())
            let details = try workspace.details(of: note)
            announceIndex(try workspace.openExistingIndex())
            if let warning = workspace.journalWarning(for: NoteID(rawValue: details.note.id)) { printError("warning: \(warning)") }
            let rows = details.pages, typed = details.typedText
            if output.json { return try printJSON(details) }
            let n = details.note
            var originLine = ""
            if let origin = details.origin {
                let kind = origin.kind == .remarkable ? "reMarkable document" : "file"
                let location = origin.location.map { $0 == origin.key ? "" : " (\($0))" } ?? ""
                originLine = "\n  origin    \(kind) \(origin.key)\(location), hash \(origin.hash), \(origin.pages.count) source page\(origin.pages.count == 1 ? "" : "s")"
            }
            print("""
                \(n.title)
                  id        \(n.id)
                  notebook  \(n.notebook)
                  created   \(DateFormatter.short.string(from: n.created))
                  modified  \(DateFormatter.short.string(from: n.modified))
                  pinned    \(n.pinned ? "yes" : "no")
                  tags      \(n.tags.isEmpty ? "-" : n.tags.map { "#" + $0 }.joined(separator: " "))
                  source    \(n.source)\(originLine)
                  pages     \(rows.count)
                  typed     \(typed.lines == 0 ? "-" : typed.summary)
                """)
            for row in rows {
                let damage = row.damage.map { " [\($0)]" } ?? ""
                let status = row.reason.map { "\(row.status): \($0)" } ?? row.status
                print("    \(row.number). \(Int(row.width))×\(Int(row.height)) \(row.template), \(row.strokes) strokes, \(row.points) points, \(status)\(damage)")
                if let background = row.background {
                    print("         on page \(background.page) of PDF \(background.document.prefix(12))…\(background.stored ? "" : " (missing: drawn on plain paper)")")
                }
                if let placeholder = row.placeholder { print("         placeholder: \(placeholder)") }
                for layer in row.layers ?? [] {
                    print("         layer \(layer.name): \(layer.strokes) strokes\(layer.visible ? "" : ", hidden")")
                }
            }
            if let notKept = details.origin?.notKept, !notKept.isEmpty {
                print("  not kept when last imported (\(notKept.count)):")
                for item in notKept { print("    \(item)") }
            }
            if !details.conflicts.isEmpty {
                print("  conflict copies from another device (`inkwell resolve \(n.id)` merges them):")
                for name in details.conflicts { print("    \(name)") }
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Give a note a new title.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The note.") var note: String
        @Argument(help: "The new title.") var title: String
        @OptionGroup var output: OutputOptions

        func run() throws {
            let workspace = try library.open()
            let stored = try workspace.updateNote(try workspace.note(matching: note).note.id, title: title)
            if output.json { return try printJSON(NoteRow(stored)) }
            print("renamed note \(stored.note.id) to \"\(stored.note.title)\"")
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move",
            abstract: "Move a note to another notebook (with --create, made if missing), to a place in its notebook's order, or both.",
            discussion: """
                inkwell note move NOTE Archive              another notebook; listed first there, with new notes
                inkwell note move NOTE --first               top of its notebook (pinned notes stay above unpinned)
                inkwell note move NOTE --after OTHER         just below OTHER, a note in the same notebook
                inkwell note move NOTE Work --before OTHER   into Work, just above OTHER (a note in Work)
                The order is kept in the notebook folder's .order file.
                """
        )
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The note.") var note: String
        @Argument(help: "The destination notebook (default: where the note is).") var notebook: String?
        @Option(help: ArgumentHelp("Just above this note.", valueName: "note")) var before: String?
        @Option(help: ArgumentHelp("Just below this note.", valueName: "note")) var after: String?
        @Flag(help: "At the top of the notebook.") var first = false
        @Flag(help: "At the bottom of the notebook.") var last = false
        @Flag(help: "Create the destination notebook when it does not exist (else a name not found is refused, with the names near it).")
        var create = false
        @Flag(help: "Even while `inkwell serve` has it open for writing.") var force = false
        @OptionGroup var output: OutputOptions

        func validate() throws {
            let places = [before != nil, after != nil, first, last].filter { $0 }.count
            guard places <= 1 else { throw ValidationError("choose one of --before, --after, --first and --last") }
            guard places == 1 || notebook != nil else {
                throw ValidationError("give a notebook to move the note to, or --before, --after, --first or --last")
            }
        }

        func run() throws {
            let workspace = try library.open()
            let id = try workspace.note(matching: note).note.id
            let placement: NotePlace?
            if let before {
                placement = .before(try workspace.note(matching: before).note.id)
            } else if let after {
                placement = .after(try workspace.note(matching: after).note.id)
            } else {
                placement = first ? .first : last ? .last : nil
            }
            let moved = try workspace.moveNote(id, to: try notebook.map { try existingNotebook($0, in: workspace, create: create) },
                                               place: placement, force: force)
            if output.json { return try printJSON(NoteRow(moved)) }
            let place = before.map { " above \"\($0)\"" } ?? after.map { " below \"\($0)\"" }
                ?? (first ? " at the top" : last ? " at the bottom" : "")
            print("moved note \(moved.note.id) \"\(moved.note.title)\"\(place) in \(moved.notebook)")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Move a note to the trash.", discussion: "`inkwell trash restore` brings it back.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The note.") var note: String
        @Flag(help: "Print the note that would go to the trash; change nothing.") var dryRun = false
        @Flag(help: "Even while `inkwell serve` has it open for writing (what the server writes after is lost).") var force = false
        @OptionGroup var output: OutputOptions

        /// What `--json` prints on a dry run: the note, as `note list` shows it.
        struct Plan: Encodable {
            var dryRun = true
            var note: NoteRow
        }

        func run() throws {
            let workspace = try library.open()
            let stored = try workspace.note(matching: note)
            if dryRun {
                if output.json { return try printJSON(Plan(note: NoteRow(stored))) }
                return print("would move note \(stored.note.id) \"\(stored.note.title)\" (\(stored.note.pages.count) page\(stored.note.pages.count == 1 ? "" : "s")) to the trash")
            }
            let item = try workspace.deleteNote(stored.note.id, force: force)
            if output.json { return try printJSON(TrashCommand.List.Row(item)) }
            print("moved note \"\(item.name)\" to the trash as \(item.id)")
        }
    }

    struct Pin: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pin", abstract: "Pin a note to the top of listings (or unpin it).")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The note.") var note: String
        @Flag(help: "Unpin instead.") var off = false
        @OptionGroup var output: OutputOptions

        func run() throws {
            let workspace = try library.open()
            let stored = try workspace.updateNote(try workspace.note(matching: note).note.id, pinned: !off)
            if output.json { return try printJSON(NoteRow(stored)) }
            print("\(off ? "unpinned" : "pinned") \"\(stored.note.title)\"")
        }
    }

    struct TagNote: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tag", abstract: "Add or remove tags.",
            discussion: """
                A tag removed here is remembered, so handwriting recognition will not add it back. A note in \
                the Inbox whose new tags match a routing rule is filed at once, as `inkwell index` would.
                """)
        @OptionGroup var library: LibraryOptions
        @OptionGroup var index: IndexOptions
        @Argument(help: "The note.") var note: String
        @Option(name: .customLong("add"), help: "A tag to add (repeatable).") var add: [String] = []
        @Option(name: .customLong("remove"), help: "A tag to remove (repeatable).") var remove: [String] = []
        @OptionGroup var output: OutputOptions

        /// What `--json` prints: the note as listed, and where routing filed it.
        struct Report: Encodable {
            var note: NoteRow
            var routed: [Routing]
        }

        func validate() throws {
            guard !add.isEmpty || !remove.isEmpty else { throw ValidationError("give --add TAG or --remove TAG") }
        }

        func run() throws {
            let workspace = index.workspace(try library.open())
            let added = try Set(add.map(parseTag)), removed = try Set(remove.map(parseTag))
            let (stored, routed) = try workspace.tagNote(try workspace.note(matching: note).note.id, add: added, remove: removed)
            if output.json { return try printJSON(Report(note: NoteRow(stored), routed: routed)) }
            let tags = stored.note.tags.sorted().map { "#" + $0.name }
            print("\"\(stored.note.title)\": \(tags.isEmpty ? "no tags" : tags.joined(separator: " "))")
            for note in routed { print(note.line) }
        }
    }
}

/// Parses a tag argument (`q3-plan` or `#q3-plan`), explaining what a tag may hold when it fails.
func parseTag(_ text: String) throws -> Tag {
    guard let tag = Tag(text) else {
        throw ValidationError("\"\(text)\" is not a tag: use letters, digits, '-', '_' and '/' (at most 64)")
    }
    return tag
}
