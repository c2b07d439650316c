import Foundation
import Testing
import TestSupport

/// The files in deploy/ (a Kubernetes Job, a Slurm batch script, a systemd unit) each start
/// `inkwell index --worker`. These tests read each file's command the way its runner reads it and
/// run it through the real `inkwell`, pointed at a PostgreSQL address where nothing listens. An
/// exit that says "cannot connect to PostgreSQL" shows the arguments parsed and the worker got as
/// far as the database. A mistyped option would instead be a usage error (exit 64).
@Suite("Deployment files start a worker that inkwell accepts")
struct DeploymentTests {
    /// The repository's deploy/ folder.
    static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../deploy").standardizedFileURL

    /// A PostgreSQL URL nothing listens on (port 1), so the worker fails at once when it connects.
    static let refusedURL = "postgres://inkwell@127.0.0.1:1/inkwell?sslmode=disable"

    /// `systemd-analyze`, where it is installed.
    static let systemdAnalyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Why a deployment file's command could not be read.
    struct Unreadable: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The text of a file in deploy/.
    static func contents(of path: String) throws -> String {
        try String(contentsOf: deploy.appendingPathComponent(path), encoding: .utf8)
    }

    /// The lines of `text`, without the spaces around them.
    static func trimmedLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Words split on spaces, refused when they hold anything a runner would change: quotes,
    /// variables (`$`) or systemd specifiers (`%`). The files keep their worker command plain, so a
    /// split on spaces reads it exactly as bash or systemd would.
    static func plainWords(_ text: String, in file: String) throws -> [String] {
        let words = text.split(separator: " ").map(String.init)
        let special: Set<Character> = ["\"", "'", "$", "%", "\\"]
        if let odd = words.first(where: { word in word.contains { special.contains($0) } }) {
            throw Unreadable("\(file): the worker command has \(odd); keep it free of quotes, variables and specifiers")
        }
        return words
    }

    // MARK: Reading each format

    /// The container's command line: its `command:` and `args:` lists, written as flow sequences of
    /// double-quoted strings (which are JSON), then `$(NAME)` replaced by the value of each variable
    /// the container's `env` declares, as Kubernetes does.
    static func kubernetesCommand(_ yaml: String, values: [String: String]) throws -> [String] {
        let lines = trimmedLines(yaml)
        func list(_ key: String) throws -> [String] {
            let found = lines.filter { $0.hasPrefix(key + ":") }
            guard found.count == 1 else { throw Unreadable("Job: expected one `\(key):` line, found \(found.count)") }
            let value = found[0].dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
            guard let words = try? JSONSerialization.jsonObject(with: Data(value.utf8)) as? [String] else {
                throw Unreadable("Job: `\(key):` is not a list of double-quoted strings on one line: \(value)")
            }
            return words
        }
        let declared = Set(lines.filter { $0.hasPrefix("- name:") }.map { $0.dropFirst("- name:".count).trimmingCharacters(in: .whitespaces) })
        var words = try list("command") + list("args")
        for (name, value) in values where declared.contains(name) {
            words = words.map { $0.replacingOccurrences(of: "$(\(name))", with: value) }
        }
        if let unresolved = words.first(where: { $0.contains("$(") }) {
            throw Unreadable("Job: \(unresolved) names a variable the container's env does not declare")
        }
        return words
    }

    /// The command the batch script runs: its one line outside comments whose first word is
    /// `inkwell`, after an optional `exec`.
    static func slurmCommand(_ script: String) throws -> [String] {
        var commands: [[String]] = []
        for text in trimmedLines(script) where !text.hasPrefix("#") {
            var words = text.split(separator: " ")
            if words.first == "exec" { words.removeFirst() }
            if words.first == "inkwell" { commands.append(try plainWords(words.joined(separator: " "), in: "sbatch script")) }
        }
        guard commands.count == 1 else { throw Unreadable("sbatch script: expected one line running inkwell, found \(commands.count)") }
        return commands[0]
    }

    /// The program and arguments of the unit's one `ExecStart=`. The program must be an absolute
    /// path ending in `inkwell`.
    static func systemdExecStart(_ unit: String) throws -> (program: String, arguments: [String]) {
        let found = trimmedLines(unit).filter { $0.hasPrefix("ExecStart=") }
        guard found.count == 1 else { throw Unreadable("unit: expected one ExecStart= line, found \(found.count)") }
        let words = try plainWords(String(found[0].dropFirst("ExecStart=".count)), in: "unit")
        // A prefix such as `-` (ignore failure) or `+` (run as root) would change how the worker runs.
        guard let program = words.first, program.hasPrefix("/"), program.hasSuffix("/inkwell") else {
            throw Unreadable("unit: ExecStart= should start with the absolute path of inkwell, not \(words.first ?? "nothing")")
        }
        return (program, Array(words.dropFirst()))
    }

    /// The unit's command, with `inkwell` for its program, to be run as the build under test.
    static func systemdCommand(_ unit: String) throws -> [String] {
        ["inkwell"] + (try systemdExecStart(unit)).arguments
    }

    // MARK: Running a command

    /// Runs `command` (`inkwell` and its arguments) on a new library, with `$INKWELL_INDEX_URL`
    /// refused, and expects it to fail at the connection: not a usage error.
    static func expectReachesTheDatabase(_ command: [String], file: String,
                                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(command.first == "inkwell", "\(file) runs \(command.first ?? "nothing")", sourceLocation: sourceLocation)
        #expect(command.contains("--worker"), "\(file) does not start a worker: \(command)", sourceLocation: sourceLocation)
        let cli = CLI()
        try cli.ok(["init"], sourceLocation: sourceLocation)
        // A worker waits for a database that is not up yet (a supervisor may start both at once): the
        // run is told to give up after 1 s, so that the refusal shows without waiting 10 minutes.
        let result = try cli.run(Array(command.dropFirst()) + ["--give-up-after", "1"], environment: ["INKWELL_INDEX_URL": refusedURL])
        let shown = command.joined(separator: " ")
        #expect(result.status != 0 && result.status != 64, "\(file): `\(shown)` exited \(result.status): \(result.stderr)",
                sourceLocation: sourceLocation)
        #expect(result.stderr.contains("cannot connect to PostgreSQL"), "\(file): `\(shown)` said: \(result.stderr)",
                sourceLocation: sourceLocation)
    }

    // MARK: The files

    @Test("the Kubernetes Job's worker command reaches the database, with the URL from the container's env")
    func kubernetesJob() throws {
        let yaml = try DeploymentTests.contents(of: "kubernetes/inkwell-index-job.yaml")
        let command = try DeploymentTests.kubernetesCommand(yaml, values: ["INKWELL_INDEX_URL": DeploymentTests.refusedURL])
        #expect(command.contains(DeploymentTests.refusedURL), "the URL should come from $(INKWELL_INDEX_URL): \(command)")
        try DeploymentTests.expectReachesTheDatabase(command, file: "inkwell-index-job.yaml")
    }

    @Test("the Kubernetes Job is a work queue: parallel pods, no completion count, the library read-only")
    func kubernetesWorkQueue() throws {
        let lines = DeploymentTests.trimmedLines(try DeploymentTests.contents(of: "kubernetes/inkwell-index-job.yaml"))
        #expect(lines.contains("kind: Job"))
        #expect(lines.contains { $0.hasPrefix("parallelism:") })
        // With a completion count the Job would count pods instead of work: the queue decides when it is done.
        #expect(!lines.contains { $0.hasPrefix("completions:") })
        #expect(lines.contains("restartPolicy: OnFailure"))
        #expect(lines.contains { $0.hasPrefix("backoffLimit:") })
        #expect(lines.contains("secretKeyRef:"))
        #expect(lines.contains("mountPath: /library") && lines.contains("value: /library") && lines.contains("readOnly: true"))
    }

    @Test("every task of the Slurm array runs the same worker command, and it reaches the database")
    func slurmArray() throws {
        let script = try DeploymentTests.contents(of: "slurm/inkwell-index.sbatch")
        #expect(script.contains("#SBATCH --array="))
        // The tasks share the queue: the array index must not pick the pages.
        #expect(!script.contains("SLURM_ARRAY_TASK_ID") && !script.contains("--shard"))
        try DeploymentTests.expectReachesTheDatabase(try DeploymentTests.slurmCommand(script), file: "inkwell-index.sbatch")
    }

    @Test("the systemd unit's ExecStart reaches the database, as an unprivileged user with the library read-only")
    func systemdUnit() throws {
        let unit = try DeploymentTests.contents(of: "systemd/inkwell-index-worker@.service")
        let lines = DeploymentTests.trimmedLines(unit)
        #expect(lines.contains("EnvironmentFile=/etc/inkwell/index.env"))
        #expect(lines.contains { $0.hasPrefix("ReadOnlyPaths=") })
        #expect(lines.contains { $0.hasPrefix("User=") && $0 != "User=root" })
        try DeploymentTests.expectReachesTheDatabase(try DeploymentTests.systemdCommand(unit), file: "inkwell-index-worker@.service")
    }

    // Runs only where systemd-analyze is installed, and is reported as skipped, with the reason, elsewhere.
    @Test("the systemd units pass systemd-analyze verify",
          .enabled(if: DeploymentTests.systemdAnalyze != nil, "systemd-analyze is not installed (Debian package systemd); the unit's command is still checked above"))
    func systemdVerify() throws {
        let analyze = try #require(DeploymentTests.systemdAnalyze)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // verify refuses an ExecStart= program that does not exist, and /usr/local/bin/inkwell need
        // not exist here: the copy runs the inkwell under test instead.
        let unit = try DeploymentTests.contents(of: "systemd/inkwell-index-worker@.service")
        let program = try DeploymentTests.systemdExecStart(unit).program
        let service = folder.appendingPathComponent("inkwell-index-worker@.service")
        let timer = folder.appendingPathComponent("inkwell-index-worker@.timer")
        try unit.replacingOccurrences(of: "ExecStart=\(program) ", with: "ExecStart=\(CLI.executable.path) ")
            .write(to: service, atomically: true, encoding: .utf8)
        try DeploymentTests.contents(of: "systemd/inkwell-index-worker@.timer").write(to: timer, atomically: true, encoding: .utf8)

        let (status, said) = try tool([analyze, "verify", "--man=no", service.path, timer.path])
        #expect(status == 0, "systemd-analyze verify: \(said)")
        // verify reports unknown keys and bad values as warnings and still exits 0, so any line
        // about these units is a failure too. Lines about other units on this machine are not.
        let complaints = said.split(separator: "\n").filter { $0.contains("inkwell-index-worker") }
        #expect(complaints.isEmpty, "systemd-analyze verify: \(complaints.joined(separator: "\n"))")
    }
}
