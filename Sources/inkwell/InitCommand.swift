import ArgumentParser
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

    func run() throws {
        let created = try Library.create(at: library.location)
        print("library ready at \(created.root.path)")
    }
}
