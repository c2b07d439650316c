import Foundation
import Testing

/// The README's "Using it" block runs as written (issue 32, item 5): every line, in order, in a fresh
/// HOME with the built `inkwell` on PATH, exits 0. Lines marked `# (needs …)` (files or servers a
/// reader has and a test has not) or `# (runs until Ctrl-C)` are skipped, as the README says.
@Suite("README")
struct ReadmeTests {
    let cli = CLI()

    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md").standardizedFileURL

    /// The lines of the first ```sh block after "## Using it", with their line numbers in README.md.
    static func usingIt() throws -> [(number: Int, text: String)] {
        let lines = try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n")
        guard let heading = lines.firstIndex(of: "## Using it"),
              let start = lines[heading...].firstIndex(of: "```sh"),
              let end = lines[(start + 1)...].firstIndex(of: "```") else { return [] }
        return (start + 1..<end).map { (number: $0 + 1, text: lines[$0]) }
    }

    /// True for a line a reader runs but the test cannot: it needs something the test does not have, or never ends.
    static func isSkipped(_ line: String) -> Bool {
        line.contains("# (needs ") || line.contains("# (runs until Ctrl-C)")
    }

    @Test("every line of \"Using it\" runs as written, in order, in a fresh library")
    func usingItRuns() throws {
        let block = try Self.usingIt()
        #expect(block.count > 40, "README.md has no \"Using it\" block of commands")
        let skipped = block.filter { Self.isSkipped($0.text) }
        #expect(skipped.count <= 8, "most lines should run: \(skipped.map(\.text))")

        let home = cli.root.appendingPathComponent("home"), work = cli.root.appendingPathComponent("work")
        let logs = cli.root.appendingPathComponent("logs")
        for folder in [home, work, logs] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        // Each line in a group of its own, in one shell (so `export` carries on to the next lines), its
        // standard error kept, the first that fails ending the script with its README line number.
        var script = "set -o pipefail\n"
        for (number, text) in block where !Self.isSkipped(text) && !text.trimmingCharacters(in: .whitespaces).isEmpty {
            script += "{\n\(text)\n} > '\(logs.path)/\(number).out' 2> '\(logs.path)/\(number).err' || { echo \(number) > '\(logs.path)/failed'; exit 1; }\n"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--noprofile", "--norc", "-c", script]
        process.currentDirectoryURL = work
        var environment = ProcessInfo.processInfo.environment
        for name in ["INKWELL_LIBRARY", "INKWELL_INDEX_URL", "XDG_DATA_HOME"] { environment[name] = nil }
        environment["HOME"] = home.path
        environment["PATH"] = CLI.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        try process.run()
        process.waitUntilExit()

        if let failed = try? String(contentsOf: logs.appendingPathComponent("failed"), encoding: .utf8) {
            let number = Int(failed.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            let line = block.first { $0.number == number }?.text ?? "?"
            let stderr = (try? String(contentsOf: logs.appendingPathComponent("\(number).err"), encoding: .utf8)) ?? ""
            Issue.record("README.md line \(number) failed: \(line)\n\(stderr)")
        }
        #expect(process.terminationStatus == 0)
    }
}
