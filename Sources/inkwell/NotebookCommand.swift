import ArgumentParser
import InkwellKit

struct NotebookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notebook",
        abstract: "Create, list, rename, move and delete notebooks.",
        discussion: "Notebooks nest: Work/Meetings is the notebook Meetings inside Work.",
        subcommands: [Create.self, List.self, Rename.self, Move.self, Delete.self]
    )

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a notebook and any missing parents.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The notebook path, e.g. Work/Meetings.") var path: String

        func run() throws {
            let path = try notebookPath(path)
            try library.open().createNotebook(path)
            print("created notebook \(path)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List notebooks with their note counts.")
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
        static let configuration = CommandConfiguration(abstract: "Rename a notebook in place.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The notebook to rename.") var path: String
        @Argument(help: "Its new name (one path component).") var name: String

        func run() throws {
            do { try NotebookPath.validate(name: name) } catch { throw ValidationError("\(error)") }
            let renamed = try library.open().renameNotebook(try notebookPath(path), to: name)
            print("renamed notebook \(path) to \(renamed)")
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move a notebook, with its notes, to a new path.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The notebook to move.") var path: String
        @Argument(help: "Its new full path, e.g. Archive/2026/Meetings.") var destination: String

        func run() throws {
            let moved = try library.open().moveNotebook(try notebookPath(path), to: try notebookPath(destination))
            print("moved notebook \(path) to \(moved)")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move a notebook and everything in it to the trash.",
            discussion: "`inkwell trash restore` brings it back."
        )
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The notebook to delete.") var path: String

        func run() throws {
            let item = try library.open().deleteNotebook(try notebookPath(path))
            print("moved notebook \(path) (\(item.noteCount) note\(item.noteCount == 1 ? "" : "s")) to the trash as \(item.id)")
        }
    }
}
