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
        let workspace = try Workspace(opening: location)
        DamageWarning.watch(workspace)
        return workspace
    }
}

/// Says once, on standard error as the command ends, which note folders its listings skipped because
/// their metadata cannot be read: one damaged note costs that note only, and is never skipped silently.
enum DamageWarning {
    private static let watched = Locked<[Workspace]>([])

    static func watch(_ workspace: Workspace) {
        let first = watched.withLock { list in
            list.append(workspace)
            return list.count == 1
        }
        if first { atexit { DamageWarning.report() } }
    }

    private static func report() {
        let skipped = watched.withLock { $0 }.flatMap(\.skippedDamage)
        guard !skipped.isEmpty else { return }
        printNote("warning: \(skipped.count) note folder\(skipped.count == 1 ? "" : "s") could not be read and \(skipped.count == 1 ? "was" : "were") skipped "
                   + "(`inkwell check` says more, `inkwell check --repair` rebuilds what it can):")
        for item in skipped.prefix(5) { printNote("  \(item.folder): \(item.reason)") }
        if skipped.count > 5 { printNote("  … and \(skipped.count - 5) more") }
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

/// The conventions every command takes (README, "Using it"): `--json`, one JSON document on standard
/// output instead of text (docs/cli-json.md); `-q/--quiet`, nothing on standard error but errors;
/// `-v/--verbose`, more detail where there is some (a line per file, timings).
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON document (stable keys, ids included) instead of text.")
    var json = false
    @Flag(name: .shortAndLong, help: "Print nothing on standard error but errors: no progress, notes or warnings.")
    var quiet = false
    @Flag(name: .shortAndLong, help: "Print more on standard error where there is more to say: a line per file, timings.")
    var verbose = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose contradict each other: choose one") }
    }

    /// How much the run says on standard error.
    var chatter: Chatter { quiet ? .quiet : verbose ? .verbose : .normal }
}

/// How much a command says on standard error beside its errors (`-q`, `-v`): set once from the
/// command's ``OutputOptions`` before it runs (``Inkwell/main()``).
enum Chatter: Sendable {
    case quiet, normal, verbose

    private static let chosen = Locked<Chatter>(.normal)
    /// The level of this run.
    static var current: Chatter {
        get { chosen.withLock { $0 } }
        set { chosen.withLock { $0 = newValue } }
    }
    /// The `OutputOptions` of a parsed command, looked up among its option groups.
    static func options(of command: ParsableCommand) -> OutputOptions? {
        Mirror(reflecting: command).children.lazy.compactMap { ($0.value as? OptionGroup<OutputOptions>)?.wrappedValue }.first
    }
}

/// Writes a note, a warning or progress text to standard error, unless `--quiet`.
func printNote(_ text: String) {
    if Chatter.current != .quiet { printError(text) }
}

/// Writes detail to standard error under `--verbose` only; the text is made only then (every command
/// ends with one: `String(format:)` cost 1.5% of a one-page `render` process otherwise).
func printDetail(_ text: @autoclosure () -> String) {
    if Chatter.current == .verbose { printError(text()) }
}

/// Parses a notebook argument with the reason it is refused, rather than a bare "invalid value".
func notebookPath(_ text: String) throws -> NotebookPath {
    do {
        return try NotebookPath(text)
    } catch {
        throw ValidationError("\(error)")
    }
}

/// The notebook `text` names, which must exist unless `create` is set (where a command has `--create`,
/// the notebook is then made where it is used): an unknown one is refused with the notebooks near it
/// ("did you mean"), so a typo never creates a notebook nor lists nothing without a word.
func existingNotebook(_ text: String, in workspace: Workspace, create: Bool? = nil) throws -> NotebookPath {
    let path = try notebookPath(text)
    guard create != true, let near = try workspace.notebookSuggestions(for: path) else { return path }
    let hint = near.isEmpty ? "" : "; did you mean " + near.map { "\"\($0)\"" }.joined(separator: " or ") + "?"
    throw RenderCommand.Failure("no notebook \"\(path)\"\(hint)\(create == nil ? "" : " (--create makes it)")")
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

/// Says once, on standard error, how the index was opened when that changes what it answers: only
/// for reading (as of the last time the library could be written), kept in memory (no recognised
/// text), or made anew in place of a damaged file.
func announceIndex(_ index: IndexInfo?) {
    guard let notice = index?.notice else { return }
    indexNotice.get { printNote(notice) }
}

private let indexNotice = Once<Void>()

/// Prints what a command wrote: on standard output, unless one of `paths` is standard output itself
/// (`-o /dev/stdout`), where the summary would land in the middle of the file: then on standard error.
func printWritten(_ line: String, paths: [String]) {
    var out = stat(), file = stat()
    let intoStandardOutput = fstat(STDOUT_FILENO, &out) == 0
        && paths.contains { stat($0, &file) == 0 && file.st_dev == out.st_dev && file.st_ino == out.st_ino }
    if intoStandardOutput { printError(line) } else { print(line) }
}

/// A file's size as a message says it: "812 bytes", "87 KB", "1.2 MB", "3.45 GB" (decimal units, as
/// file managers give sizes; KB whole, MB to a tenth, GB and TB to a hundredth, no trailing zeros; the
/// digits the same in every language). Foundation's ByteCountFormatter said the same through ICU's
/// number formats, at 2.5% of a one-page `render` process's time.
func fileSize(_ bytes: Int) -> String {
    if bytes < 1000 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
    // Each unit with its precision in hundredths of it: KB to 100 (whole), MB to 10, GB and TB to 1.
    let units: [(name: String, precision: Double)] = [("KB", 100), ("MB", 10), ("GB", 1), ("TB", 1)]
    var value = Double(bytes) / 1000
    var unit = 0
    while true {
        let precision = units[unit].precision
        let count = Int((value * 100 / precision).rounded() * precision)  // hundredths of the unit
        if count < 100_000 || unit == units.count - 1 {
            var fraction = String(count % 100)
            fraction = String(repeating: "0", count: 2 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return "\(count / 100)\(fraction.isEmpty ? "" : "." + fraction) \(units[unit].name)"
        }
        value /= 1000
        unit += 1
    }
}

/// Writes a line to standard error, ``terminalSafe(_:)``.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((terminalSafe(text) + "\n").utf8))
}

/// True when standard output is a terminal (so progress and prompts make sense).
var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

/// Ends a command that worked on several items: exit 0 when none failed, 2 (partly done) when some
/// were done and some failed, 1 when all failed. The failures were printed already.
func finish(done: Int, failed: Int) throws {
    guard failed > 0 else { return }
    throw done > 0 ? ExitCode.partlyDone : ExitCode.failure
}

/// `--strict`: a command whose report lists things it did not keep (each named already, and under
/// `notKept` in `--json`) is partly done: exit 2, saying how many.
func finishStrict(_ strict: Bool, notKept count: Int) throws {
    guard strict, count > 0 else { return }
    printError("strict: \(count) thing\(count == 1 ? " was" : "s were") not kept (each named above): partly done")
    throw ExitCode.partlyDone
}

extension ExitCode {
    /// Some items were done and some failed (README, "Exit codes").
    static let partlyDone = ExitCode(2)
}

/// Where `-o PATH` sends outputs: `-` is standard output; a path ending in `/` or an existing folder is a
/// folder (created when missing); any other path is one file, or a folder when several files result
/// (decided by the exporter, which knows how many).
func outputDestination(_ output: String) throws -> ExportTarget {
    if output == "-" { return .file(URL(fileURLWithPath: "/dev/stdout")) }
    let url = URL(fileURLWithPath: output)
    var isFolder: ObjCBool = false
    if output.hasSuffix("/") || (FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue) {
        return .folder(try Workspace.outputFolder(url))
    }
    return .file(url)
}

/// When `argument`, given where a note or a file may be, matched no note: the error to give instead of
/// "no note matches" if it was meant as a file: a path (with a `/` or a pen file's extension) that does
/// not exist, or a shell pattern the shell passed on unexpanded because nothing matched it.
func missingFile(_ argument: String) -> Error? {
    let isPattern = argument.contains("*") || argument.contains("?") || argument.contains("[")
    if isPattern, argument.contains(".") || argument.contains("/") {
        return RenderCommand.Failure("\(argument): no file matches this pattern (the shell passed it on unexpanded)")
    }
    let ext = URL(fileURLWithPath: argument).pathExtension.lowercased()
    guard argument.contains("/") || Workspace.penFileExtensions.contains(ext) || ["pdf", "xml", "metadata", "content"].contains(ext),
          !FileManager.default.fileExists(atPath: argument) else { return nil }
    return RenderCommand.Failure("\(argument): no such file")
}

/// A length of time on the command line: seconds, or a number with a unit (`30s`, `2m`, `1h`, `1.5m`).
struct DurationArgument: ExpressibleByArgument, Equatable {
    let seconds: Double

    init(seconds: Double) { self.seconds = seconds }

    init?(argument: String) {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("min", 60), ("m", 60), ("h", 3600)]
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let unit = units.first { text.hasSuffix($0.suffix) }
        guard let number = Double(text.dropLast(unit?.suffix.count ?? 0)), number.isFinite, number >= 0 else { return nil }
        seconds = number * (unit?.seconds ?? 1)
    }

    var defaultValueDescription: String {
        seconds.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(seconds / 60))m" : "\(seconds)s"
    }
}
