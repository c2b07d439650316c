import ArgumentParser
import Foundation
import InkwellKit

/// `--library DIR`, shared by every command that touches a library.
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library folder.", valueName: "dir"),
            completion: .directory)
    var library: String?

    var location: URL {
        library.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? Workspace.defaultLibraryLocation()
    }

    /// Opens the library, which must exist: only `inkwell init` creates one, so a mistyped
    /// `--library` never starts a second library somewhere.
    func open() throws -> Workspace {
        try Workspace(opening: location)
    }
}

/// `--index URL`: where the search index is, for the commands that use it.
struct IndexOptions: ParsableArguments {
    @Option(name: .customLong("index"),
            help: ArgumentHelp("The search index: a PostgreSQL URL (postgres://user@host/database) shared by many machines. Default: $INKWELL_INDEX_URL, else the library's own index.sqlite.", valueName: "url"))
    var url: String?

    /// The URL in effect (the option, else $INKWELL_INDEX_URL), nil for the library's own index.
    var effectiveURL: String? {
        url ?? ProcessInfo.processInfo.environment["INKWELL_INDEX_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The workspace of `library` with this index.
    func workspace(_ library: Workspace) -> Workspace {
        library.withIndex(at: effectiveURL)
    }
}

/// `--json`: one JSON document on standard output instead of text.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON document (stable keys, ids included) instead of text.")
    var json = false
}

/// Parses a notebook argument with the reason it is refused, rather than a bare "invalid value".
func notebookPath(_ text: String) throws -> NotebookPath {
    do {
        return try NotebookPath(text)
    } catch {
        throw ValidationError("\(error)")
    }
}

/// The one JSON encoder of the command line (docs/cli-json.md): sorted keys, ISO 8601 dates in
/// UTC, slashes unescaped; pretty for a document, one compact line per record for a stream.
func jsonEncoder(pretty: Bool) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
}

/// Prints `value` as one JSON document (what `--json` prints).
func printJSON<T: Encodable>(_ value: T) throws {
    print(String(decoding: try jsonEncoder(pretty: true).encode(value), as: UTF8.self))
}

/// Prints `value` as one line of JSON (a record of a stream: `watch --json`, `import --trace`),
/// flushed at once so that a program reading the output sees it as it happens.
func printJSONLine<T: Encodable>(_ value: T) {
    if let line = try? jsonEncoder(pretty: false).encode(value) { print(String(decoding: line, as: UTF8.self)) }
    fflush(nil) // all output streams: standard output is not line-buffered in a pipe
}

/// Says once, on standard error, that the index could only be opened for reading, so what it
/// answers is as of the last time the library could be written.
func announceReadOnly(_ index: IndexInfo?) {
    guard let index, index.isReadOnly else { return }
    readOnlyNotice.get { printError("note: \(index.location) could only be opened for reading (read-only library or full disk); it was not refreshed, so changes since it was last written are not in it") }
}

private let readOnlyNotice = Once<Void>()

/// Writes a line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// True when standard output is a terminal (so progress and prompts make sense).
var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
