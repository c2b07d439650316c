import ArgumentParser
import Foundation
import InkwellKit

/// `--library DIR`, shared by every command that touches a library.
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library folder.", valueName: "dir"),
            completion: .directory)
    var library: String?

    var location: URL {
        library.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? Library.defaultLocation()
    }

    /// Opens the library for reading; it must exist.
    func open() throws -> Library {
        try Library(opening: location)
    }

    /// Opens the library for writing, creating it when the folder is missing or empty.
    func openOrCreate() throws -> Library {
        let fm = FileManager.default
        let empty = (try? fm.contentsOfDirectory(atPath: location.path))?.isEmpty ?? !fm.fileExists(atPath: location.path)
        return empty ? try Library.create(at: location) : try Library(opening: location)
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

/// Writes `value` as pretty JSON with sorted keys and ISO 8601 dates.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// Writes a line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// True when standard output is a terminal (so progress and prompts make sense).
var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
