import ArgumentParser
import Foundation
import InkwellKit

struct TrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash",
        abstract: "List, restore or empty deleted notes and notebooks.",
        subcommands: [List.self, Restore.self, Empty.self]
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the trash, newest first.")
        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        /// What `--json` prints for an entry.
        struct Row: Encodable {
            /// The trash entry's id (what `trash restore` takes).
            var id: String
            var kind: String
            /// The note's title or the notebook's name.
            var title: String
            /// The note's id; absent for a notebook.
            var note: String?
            /// The notebook it was in (a notebook's parent); "" for the library root.
            var notebook: String
            var deleted: Date
            /// Notes it holds (1 for a note).
            var notes: Int

            init(_ item: TrashItem) {
                id = item.id
                kind = item.kind.rawValue
                title = item.name
                note = item.noteID?.rawValue
                notebook = item.notebook.isRoot ? "" : item.notebook.description
                deleted = item.deletedAt
                notes = item.noteCount
            }
        }

        func run() throws {
            let items = try library.open().trash()
            if output.json { return try printJSON(items.map(Row.init)) }
            if items.isEmpty { printNote("the trash is empty") }
            for item in items {
                let place = item.notebook.isRoot ? "library root" : item.notebook.description
                print("\(item.id)  \(item.kind.rawValue) \"\(item.name)\" from \(place), deleted \(DateFormatter.short.string(from: item.deletedAt))")
            }
        }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Put a deleted note or notebook back where it was.",
            discussion: "REF is a trash entry id, a note id, or the name it had.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "What to restore.") var reference: String
        @OptionGroup var output: OutputOptions

        func run() throws {
            let item = try library.open().restore(reference)
            if output.json { return try printJSON(List.Row(item)) }
            print("restored \(item.kind.rawValue) \"\(item.name)\"")
        }
    }

    struct Empty: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "empty", abstract: "Delete everything in the trash for good.")
        @OptionGroup var library: LibraryOptions
        @Flag(help: "Do not ask; required when not on a terminal.") var yes = false
        @Flag(help: "Print what would be deleted for good; change nothing (needs no --yes).") var dryRun = false
        @Flag(help: "Even while `inkwell serve` has a trashed note open for writing (what the server writes after is lost).") var force = false
        @OptionGroup var output: OutputOptions

        /// What `--json` prints: the entries deleted for good (or, on a dry run, that would be).
        struct Report: Encodable {
            var dryRun: Bool
            var deleted: [List.Row]
        }

        func run() throws {
            let library = try library.open()
            let entries = try library.trash().map(List.Row.init)
            let count = entries.count
            if dryRun {
                if output.json { return try printJSON(Report(dryRun: true, deleted: entries)) }
                print("would delete \(count) item\(count == 1 ? "" : "s") for good")
                for entry in entries { print("  \(entry.id)  \(entry.kind) \"\(entry.title)\"") }
                return
            }
            guard count > 0 else {
                if output.json { return try printJSON(Report(dryRun: false, deleted: [])) }
                return print("the trash is already empty")
            }
            if !yes {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw ValidationError("emptying the trash cannot be undone: pass --yes to confirm")
                }
                print("Delete \(count) item\(count == 1 ? "" : "s") for good? [y/N] ", terminator: "")
                guard let answer = readLine(), answer.lowercased().hasPrefix("y") else { return print("kept the trash") }
            }
            let deleted = try library.emptyTrash(force: force)
            if output.json { return try printJSON(Report(dryRun: false, deleted: entries)) }
            print("deleted \(deleted) item\(deleted == 1 ? "" : "s") for good")
        }
    }
}
