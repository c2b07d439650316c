import Foundation
import Testing

/// Runs the built `inkwell` binary as a user would, against a library in a temporary folder. That
/// folder (`root`) also holds the test's input files, and goes when the test is done.
final class CLI: Sendable {
    let root: URL
    let library: URL

    init() {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-cli-\(UUID().uuidString)")
        library = root.appendingPathComponent("library")
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `inkwell` executable under test: `INKWELL_TEST_COMMAND` where set (`make test` names the
    /// release build, the binary users get, which also runs these tests in half the CPU time of the
    /// debug one), else the one built beside this test binary.
    static let executable: URL = {
        if let named = ProcessInfo.processInfo.environment["INKWELL_TEST_COMMAND"], !named.isEmpty {
            return URL(fileURLWithPath: named)
        }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("inkwell")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../.build/debug/inkwell").standardizedFileURL
        return fallback
    }()

    /// Runs `inkwell ARGS --library LIBRARY`-style (the library comes from the environment), in
    /// `directory` (default: the test's temporary folder, so nothing is found beside the sources).
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:],
             directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        let directory = directory ?? root
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["INKWELL_LIBRARY"] = library.path
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Runs and requires success, returning standard output.
    @discardableResult
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(arguments)
        #expect(result.status == 0, "inkwell \(arguments.joined(separator: " ")) failed: \(result.stderr)",
                sourceLocation: sourceLocation)
        return result.stdout
    }

    /// Runs with `--json` and decodes standard output.
    func json(_ arguments: [String]) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try ok(arguments + ["--json"]).utf8))
    }

    /// Every file in the library with its bytes (the lock file aside): equal snapshots mean nothing changed.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(at: library, includingPropertiesForKeys: [.isRegularFileKey]) else { return files }
        while let url = walker.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true, url.lastPathComponent != ".lock" else { continue }
            files[url.path] = try Data(contentsOf: url)
        }
        return files
    }

    /// Writes a file into a scratch folder beside the library and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let folder = library.deletingLastPathComponent().appendingPathComponent(library.lastPathComponent + "-input")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}

/// A replay log line.
func line(_ object: [String: Any]) -> String {
    String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
}

/// A stroke as replay log lines: down at `t`, `points` moves 8 ms apart, up.
func strokeLines(at t: Double, x: Double = 100, y: Double = 300, points: Int = 10) -> [String] {
    var lines = [line(["type": "down", "t": t, "x": x, "y": y, "p": 0.4])]
    for i in 1...points {
        lines.append(line(["type": "move", "t": t + Double(i) * 0.008, "x": x + Double(i) * 3, "y": y + Double(i), "p": 0.6]))
    }
    lines.append(line(["type": "up", "t": t + Double(points + 1) * 0.008]))
    return lines
}
