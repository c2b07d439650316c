import ArgumentParser
import Foundation
import InkwellKit

/// `inkwell route`: rules that file notes out of the Inbox by their hashtags.
struct RouteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Rules that file notes out of the Inbox by hashtag.",
        discussion: """
            A rule is a pattern of one or more tags and a notebook: `inkwell route add '#work' Work/Meetings`. \
            A note directly in the Inbox that has every tag of a rule moves to its notebook; when several \
            rules match, the one added first (the lowest number in `route list`) wins. Rules apply when \
            `inkwell index` gives a note new tags from its handwriting, and to every Inbox note with \
            `inkwell route run`. Notes outside the Inbox (filed by hand) are never moved. The rules live in \
            LIBRARY/routes.json.
            """,
        subcommands: [Add.self, List.self, Remove.self, Run.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a rule (it applies after the rules added before it).",
            discussion: "PATTERN is one tag ('#work') or several that must all be present ('#work #q3')."
        )
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The tags a note must have: '#work' or '#work #q3'.") var pattern: String
        @Argument(help: "The notebook to file it into (created when the first note arrives).") var notebook: String
        @OptionGroup var output: OutputOptions

        func run() throws {
            let path = try notebookPath(notebook)
            try Workspace.checkRouteRule(pattern: pattern, notebook: path)
            let (rule, earlier) = try library.open().addRouteRule(pattern: pattern, notebook: path)
            if output.json {
                try printJSON(List.Row(rule))
            } else {
                print("rule \(rule.number): \(rule.pattern) → \(rule.notebook)")
            }
            if let earlier {
                printNote("warning: rule \(earlier.number) (\(earlier.pattern)) comes first and matches every note this one does, so this one will never apply")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the rules in the order they apply.")
        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        struct Row: Encodable {
            var number: Int
            var pattern: String
            var tags: [String]
            var notebook: String

            init(_ rule: RouteEntry) {
                (number, pattern, tags, notebook) = (rule.number, rule.pattern, rule.tags.map(\.name), rule.notebook.description)
            }
        }

        func run() throws {
            let rows = try library.open().routeRules().map(Row.init)
            if output.json { return try printJSON(rows) }
            if rows.isEmpty { printNote("no routing rules (add one with `inkwell route add '#work' Work`)") }
            for row in rows { print("\(row.number). \(row.pattern) → \(row.notebook)") }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a rule by its number or its pattern.")
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The rule's number in `route list`, or its pattern ('#work').") var rule: String
        @OptionGroup var output: OutputOptions

        func run() throws {
            let removed = try library.open().removeRouteRule(rule)
            if output.json { return try printJSON(List.Row(removed)) }
            print("removed rule \(removed.pattern) → \(removed.notebook)")
        }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "File every note in the Inbox that a rule matches, now.",
            discussion: "Each move is one atomic rename; --dry-run prints what would move and changes nothing."
        )
        @OptionGroup var library: LibraryOptions
        @Flag(help: "Print the moves without making them.") var dryRun = false
        @OptionGroup var output: OutputOptions

        func run() throws {
            let routed = try library.open().applyRoutes(dryRun: dryRun)
            if output.json { return try printJSON(routed) }
            for note in routed { print(note.line(verb: dryRun ? "would move" : "moved")) }
            if routed.isEmpty { print("no note in the Inbox matches a rule") }
        }
    }
}
