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

            Exit status: 0 done; 1 failed (the error says why, naming the file and position); 2 partly \
            done (some files, notes or pages failed and were reported, the others were done); 64 the \
            command line is wrong (usage printed).
            """,
        version: InkwellVersion.current,
        subcommands: [
            InitCommand.self, UpgradeCommand.self, ImportCommand.self, NoteCommand.self, NotebookCommand.self,
            TrashCommand.self, StatsCommand.self, CheckCommand.self, ResolveCommand.self, CompactCommand.self, IndexCommand.self, SearchCommand.self, TagsCommand.self, ConvertCommand.self, SampleCommand.self,
            RenderCommand.self, ExportCommand.self, RouteCommand.self, IngestCommand.self, WatchCommand.self,
            ServeCommand.self,
        ]
    )
}
