import ArgumentParser
import Foundation
import InkwellKit

@main
struct Inkwell: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inkwell",
        abstract: "A handwriting notebook engine: import pen recordings, organise notes, check the library.",
        discussion: """
            The library lives in --library DIR (before or after the command), else $INKWELL_LIBRARY, else $XDG_DATA_HOME/inkwell \
            (~/.local/share/inkwell). Every command takes --json (one JSON document for scripts; a change prints \
            what it changed: docs/cli-json.md), -q/--quiet (only errors on standard error) and -v/--verbose (more detail, \
            timings); the destructive ones (compact, trash empty, notebook delete, note delete, route run, sync) take --dry-run.

            Exit status: 0 done; 1 failed (the error says why, naming the file and position); 2 partly \
            done (some files, notes or pages failed and were reported, the others were done; with --strict, an \
            import, sync or export that did not keep something, each item reported); 64 the \
            command line is wrong (usage printed).
            """,
        version: InkwellVersion.current,
        subcommands: [
            InitCommand.self, UpgradeCommand.self, ImportCommand.self, SyncCommand.self, NoteCommand.self, NotebookCommand.self,
            TrashCommand.self, StatsCommand.self, CheckCommand.self, ResolveCommand.self, CompactCommand.self, IndexCommand.self, SearchCommand.self, TagsCommand.self, ConvertCommand.self, SampleCommand.self,
            RenderCommand.self, ExportCommand.self, RouteCommand.self, IngestCommand.self, WatchCommand.self,
            ServeCommand.self, DoctorCommand.self,
        ]
    )

    /// `inkwell --library DIR note list` means `inkwell note list` on DIR: the option before the
    /// command is taken out and becomes `$INKWELL_LIBRARY` for this run (which `--library` after the
    /// command still overrides). Only the words before the command are looked at.
    static func libraryBeforeCommand(_ arguments: [String]) -> [String] {
        var rest = arguments[...]
        var library: String?
        while let first = rest.first, first.hasPrefix("-") {
            if first == "--library", rest.count > 1 {
                library = rest[rest.startIndex + 1]
                rest = rest.dropFirst(2)
            } else if first.hasPrefix("--library=") {
                library = String(first.dropFirst("--library=".count))
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        guard let library else { return arguments }
        setenv("INKWELL_LIBRARY", library, 1)
        return Array(rest)
    }
}
