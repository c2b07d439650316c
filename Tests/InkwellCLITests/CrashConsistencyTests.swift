import Foundation
import Testing

/// A power cut at any point of a save leaves a readable library, with the note as it was before
/// or after: scripts/crash-states.py records the command's file-system calls with strace and
/// checks the library rebuilt at every point (see docs/reliability.md).
@Suite("Crash consistency")
struct CrashConsistencyTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/crash-states.py")
    /// strace and python3 are there, and strace may trace here (containers can forbid ptrace).
    static let available: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        probe.arguments = ["-qq", "-o", "/dev/null", "/bin/true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    @Test("every crash state of text set, tag, import, import again (an update), sync (an update and a note trashed), move, delete, restore, trash empty, notebook rename, note create and export --zip is a whole library, and nothing temporary outlives a command",
          .enabled(if: available, "needs strace and python3 (scripts/install-deps.sh installs them), and a machine that lets strace trace"))
    func everyCrashState() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [CrashConsistencyTests.script.path, CLI.executable.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let report = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let scenarios = try #require(try JSONSerialization.jsonObject(with: report) as? [[String: Any]], "\(stderr)")
        #expect(scenarios.count == 12)
        for scenario in scenarios {
            let name = scenario["scenario"] as? String ?? "?"
            #expect(scenario["error"] == nil, "\(name): \(scenario["error"] ?? "")")
            #expect((scenario["states"] as? Int ?? 0) >= 2, "\(name) was not explored: \(scenario)")
            #expect(scenario["model_matches"] as? Bool == true, "\(name): the model's end state is not the real library")
            #expect((scenario["failures"] as? [Any])?.isEmpty == true, "\(name): \(scenario["failures"] ?? [])")
        }
        #expect(process.terminationStatus == 0)
    }
}
