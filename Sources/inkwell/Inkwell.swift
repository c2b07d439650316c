import ArgumentParser
import Foundation
import InkwellKit

@main
struct Inkwell: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inkwell",
        abstract: "A handwriting notebook engine: import pen recordings, organise notes, check the library.",
        discussion: """
            The library lives in --library DIR, else $INKWELL_LIBRARY, else $XDG_DATA_HOME/inkwell \
            (~/.local/share/inkwell). Listing commands take --json for scripts.
            """,
        version: InkwellVersion.current,
        subcommands: [
            InitCommand.self, UpgradeCommand.self, ImportCommand.self, SyncCommand.self, NoteCommand.self, NotebookCommand.self,
            TrashCommand.self, StatsCommand.self, CheckCommand.self, ResolveCommand.self, CompactCommand.self, IndexCommand.self, SearchCommand.self, TagsCommand.self, ConvertCommand.self, SampleCommand.self,
            RenderCommand.self, ExportCommand.self, RouteCommand.self, IngestCommand.self, WatchCommand.self,
            ServeCommand.self,
        ]
    )
}
