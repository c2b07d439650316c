import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import InkwellKit

@main
struct Inkwell: ParsableCommand {
    /// Tesseract's OpenMP reads OMP_THREAD_LIMIT once, when the library loads; unset, recognition is
    /// 2–7× slower on a busy machine. Commands that recognise run the program again with it set.
    static func main() {
        let recognising: Set<String> = ["index", "convert", "import"]
        if CommandLine.arguments.count > 1, recognising.contains(CommandLine.arguments[1]),
           !CommandLine.arguments.contains("--no-recognize"),
           ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] == nil {
            setenv("OMP_THREAD_LIMIT", "1", 1)
            let arguments = CommandLine.unsafeArgv
            execv("/proc/self/exe", arguments)
            // exec failed (no /proc, e.g. macOS): carry on; recognition works, only slower.
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "inkwell",
        abstract: "A handwriting notebook engine: import pen recordings, organise notes, check the library.",
        discussion: """
            The library lives in --library DIR, else $INKWELL_LIBRARY, else $XDG_DATA_HOME/inkwell \
            (~/.local/share/inkwell). Listing commands take --json for scripts.
            """,
        version: InkwellVersion.current,
        subcommands: [
            InitCommand.self, ImportCommand.self, NoteCommand.self, NotebookCommand.self,
            TrashCommand.self, StatsCommand.self, CheckCommand.self, CompactCommand.self, IndexCommand.self, SearchCommand.self, TagsCommand.self, ConvertCommand.self, SampleCommand.self,
            RenderCommand.self, ExportCommand.self, RouteCommand.self, IngestCommand.self, WatchCommand.self,
        ]
    )
}
