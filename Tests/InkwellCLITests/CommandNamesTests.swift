import ArgumentParser
import Testing
@testable import inkwell

/// Every command states its name. A command without one is named by swift-argument-parser from its
/// type, through `String(describing:)`, whose dynamic casts scan every protocol conformance of the
/// binary; `parseAsRoot` asks for the name of every command in the tree, so one unnamed command costs
/// each start-up of `inkwell` that scan (docs/benchmarks.md, "Start-up").
struct CommandNamesTests {
    /// `command` and every command under it.
    func tree(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [command] + command.configuration.subcommands.flatMap(tree)
    }

    @Test("every command of the tree has its name in its configuration")
    func everyCommandIsNamed() {
        let commands = tree(Inkwell.self)
        #expect(commands.count > 40)
        for command in commands {
            #expect(command.configuration.commandName != nil, "\(command) has no commandName")
        }
    }
}
