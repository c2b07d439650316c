import ArgumentParser
import InkwellKit

/// What `--json` prints for a notebook created, renamed or moved: its path, and where it was.
private struct ChangedNotebook: Encodable {
    var path: String
    /// The path it had (rename, move).
    var from: String?
}

struct NotebookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notebook",
        abstract: "Create, list, rename, move and delete notebooks.",
        discussion: "Notebooks nest: Work/Meetings is the notebook Meetings inside Work.",
        subcommands: [Create.self, List.self, Rename.self, Move.self, Delete.self]
    )

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a notebook and any missing parents.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The notebook path, e.g. Work/Meetings.") var path: String
        @OptionGroup var output: OutputOptions

        func run() throws {
            let path = try notebookPath(path)
            try library.open().createNotebook(path)
            if output.json { return try printJSON(ChangedNotebook(path: path.description)) }
            print("created notebook \(path)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List notebooks with their note counts.")
        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        struct Row: Encodable {
            var path: String
            var notes: Int
        }

        func run() throws {
            let library = try library.open()
            let notes = try library.notes()
            let rows = try library.notebooks().map { path in
                Row(path: path.description, notes: notes.filter { $0.notebook == path }.count)
            }
            if output.json { return try printJSON(rows) }
            for row in rows {
                let depth = row.path.split(separator: "/").count - 1
                print(String(repeating: "  ", count: depth) + (row.path.split(separator: "/").last.map(String.init) ?? "")
                      + "  (\(row.notes) note\(row.notes == 1 ? "" : "s"))")
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a notebook in place.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The notebook to rename.") var path: String
        @Argument(help: "Its new name (one path component).") var name: String
        @Flag(help: "Even while `inkwell serve` has one of its notes open for writing.") var force = false
        @OptionGroup var output: OutputOptions

        func run() throws {
            do { try NotebookPath.validate(name: name) } catch { throw ValidationError("\(error)") }
            let old = try notebookPath(path)
            let renamed = try library.open().renameNotebook(old, to: name, force: force)
            if output.json { return try printJSON(ChangedNotebook(path: renamed.description, from: old.description)) }
            print("renamed notebook \(path) to \(renamed)")
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move", abstract: "Move a notebook, with its notes, to a new path.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The notebook to move.") var path: String
        @Argument(help: "Its new full path, e.g. Archive/2026/Meetings.") var destination: String
        @Flag(help: "Even while `inkwell serve` has one of its notes open for writing.") var force = false
        @OptionGroup var output: OutputOptions

        func run() throws {
            let old = try notebookPath(path)
            let moved = try library.open().moveNotebook(old, to: try notebookPath(destination), force: force)
            if output.json { return try printJSON(ChangedNotebook(path: moved.description, from: old.description)) }
            print("moved notebook \(path) to \(moved)")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Move a notebook and everything in it to the trash.",
            discussion: "`inkwell trash restore` brings it back."
        )
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The notebook to delete.") var path: String
        @Flag(help: "Print the notebooks and notes that would go to the trash; change nothing.") var dryRun = false
        @Flag(help: "Even while `inkwell serve` has a note in it open for writing (what the server writes after is lost).") var force = false
        @OptionGroup var output: OutputOptions

        /// What `--json` prints on a dry run: the notebook, the notebooks inside it and every note in them.
        struct Plan: Encodable {
            var dryRun = true
            var notebook: String
            var notebooks: [String]
            var notes: [NoteRow]
        }

        func run() throws {
            let workspace = try library.open()
            if dryRun {
                let path = try existingNotebook(path, in: workspace)
                let plan = Plan(notebook: path.description,
                                notebooks: try workspace.notebooks().map(\.description).filter { $0.hasPrefix(path.description + "/") },
                                notes: try workspace.notes(in: path).map(NoteRow.init))
                if output.json { return try printJSON(plan) }
                print("would move notebook \(path) to the trash, with \(plan.notebooks.count) notebook\(plan.notebooks.count == 1 ? "" : "s") "
                      + "and \(plan.notes.count) note\(plan.notes.count == 1 ? "" : "s") in it:")
                for notebook in plan.notebooks { print("  notebook \(notebook)") }
                for note in plan.notes { print("  " + note.line) }
                return
            }
            let item = try workspace.deleteNotebook(try notebookPath(path), force: force)
            if output.json { return try printJSON(TrashCommand.List.Row(item)) }
            print("moved notebook \(path) (\(item.noteCount) note\(item.noteCount == 1 ? "" : "s")) to the trash as \(item.id)")
        }
    }
}
