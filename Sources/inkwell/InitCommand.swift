import ArgumentParser
import Foundation
import InkwellKit

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a library (or confirm the one there).",
        discussion: """
            Creates the folder with an Inbox notebook and the inbox/ drop folder (see `inkwell watch`). \
            Running it on an existing library changes nothing.
            """
    )

    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions

    /// What `--json` prints: the library's folder, and whether this run made it.
    struct Report: Encodable {
        var library: String
        var created: Bool
    }

    func run() throws {
        let existed = FileManager.default.fileExists(atPath: library.location.appendingPathComponent("inkwell-library.json").path)
        let created = try Workspace.createLibrary(at: library.location)
        if output.json { return try printJSON(Report(library: created.path, created: !existed)) }
        print("library ready at \(created.path)")
    }
}

struct UpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Bring a library written by an older Inkwell to this one's format (it can be read before, not changed).",
        discussion: """
            Nothing is migrated silently: a library in an older format is read as it is, and every command that \
            would change it says to run this first. Says what it changes and keeps a copy of what it replaces \
            (the marker, as inkwell-library.json.format-N). From format 1 to 2 only the marker changes: format 2 \
            tells Inkwell 0.1.0 not to write into the library, where it would drop layers, printed text and PDF \
            backgrounds when rewriting a page. Running it on a library in this format changes nothing.
            """
    )

    @OptionGroup var library: LibraryOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let upgrade = try library.open().upgrade()
        if output.json { return try printJSON(upgrade) }
        guard let backup = upgrade.backup else {
            return print("the library at \(library.location.path) is in format \(upgrade.to), this Inkwell's: nothing to do")
        }
        print("upgraded the library at \(library.location.path) from format \(upgrade.from) to \(upgrade.to):")
        for change in upgrade.changes { print("  \(change)") }
        print("  the old marker is kept as \(backup)")
    }
}
