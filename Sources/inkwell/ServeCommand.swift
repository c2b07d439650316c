import ArgumentParser
import Foundation
import InkServe
import InkwellKit
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Write in the browser: the library, search and a pen editor driven by the editor session.",
        discussion: """
            Serves the library at http://HOST:PORT/ (printed when ready). A pen (Wacom tablet, Apple Pencil, \
            any Pointer Events stylus) or the mouse writes; touch scrolls. Every note has its own address \
            (/notes/ID). Saving, navigation and recognition follow the editor session's rules, as imports do.

            Only this machine can connect by default. With any other --host every request needs a token: \
            one is generated and printed (open the printed address once, a cookie keeps it), or read from \
            --token-file. Stop with Ctrl-C or SIGTERM: the browsers are told, open notes are saved and \
            the sockets closed, then it exits 0 (within --stop-within seconds; past them, or on a second \
            signal, it stops at once, and exits 1 if a note was not saved yet: its confirmed strokes stay \
            in its journal, applied by the next serve or `inkwell check`).
            """
    )

    @OptionGroup var library: LibraryOptions
    @OptionGroup var index: IndexOptions

    @Option(help: "The address to listen on. Anything but a loopback address needs a token.")
    var host = "127.0.0.1"

    @Option(help: "The port (0: any free port).")
    var port = 7878

    @Option(help: ArgumentHelp("A file holding the token every request must carry (first line).", valueName: "file"))
    var tokenFile: String?

    @Flag(help: "Open the library in the default browser when ready.")
    var open = false

    @Flag(help: "Do not recognise handwriting after saves (tags come only from typed text and by hand).")
    var noRecognize = false

    @Option(help: ArgumentHelp("How long stopping may take (saving open notes) before it gives up.", valueName: "seconds"))
    var stopWithin = 10.0

    @OptionGroup var output: OutputOptions

    /// What `--json` prints, as one line, once the server is listening.
    struct Ready: Encodable {
        var library: String
        var url: String
        var port: Int
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard stopWithin > 0, stopWithin <= 3600 else { throw ValidationError("--stop-within must be more than 0 and at most 3600 seconds") }
    }

    func run() async throws {
        let workspace = index.workspace(try library.open())
        let token = try self.token()
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "inkwell.serve")
        logger.logLevel = .notice
        let options = ServeOptions(host: host, port: port, token: token, recognize: !noRecognize, stopWithin: .seconds(stopWithin))
        let server = WebServer(workspace: workspace, options: options)
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        let open = self.open, json = output.json
        let stop = try await server.run(logger: logger) { port in
            let address = "http://\(host):\(port)/" + (token.map { "?token=\($0)" } ?? "")
            if json {
                printJSONLine(Ready(library: workspace.libraryFolder.path, url: address, port: port))
            } else {
                print("Inkwell is serving \(workspace.libraryFolder.path) at \(address)")
            }
            fflush(nil) // standard output is not line-buffered in a pipe
            if open { Self.openInBrowser(address) }
        } onStopping: { open in
            printNote("stopping: saving \(open) open note\(open == 1 ? "" : "s") (a second Ctrl-C or SIGTERM stops at once)")
        }
        let unsaved = stop.unsaved.map(\.rawValue).joined(separator: ", ")
        switch stop.how {
        case .stopped:
            printNote("stopped")
        case .timedOut, .interrupted:
            let why = stop.how == .timedOut ? "not done in \(stopWithin.formatted()) s" : "stopped at once (a second signal)"
            guard !stop.unsaved.isEmpty else {
                // Nothing is lost: only connections still open (a download, say) were cut.
                return printError("stopped: \(why); every open note was saved, connections still open were cut")
            }
            printError("stopped: \(why), before saving \(unsaved): their confirmed strokes are in their journals, "
                       + "applied by the next `inkwell serve` or `inkwell check`")
            // The saves still running stop here; what they had not stored is in the journals.
            throw ExitCode(1)
        }
    }

    /// The token: from --token-file, else a new random one when the host is not loopback, else none.
    private func token() throws -> String? {
        if let tokenFile {
            let text = try String(contentsOfFile: tokenFile, encoding: .utf8)
            let token = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard token.count >= 16, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw ValidationError("\(tokenFile): the token must be at least 16 letters, digits, - or _ on the first line")
            }
            return token
        }
        guard !ServeOptions.isLoopback(host) else { return nil }
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(UInt8.random(in: 0...15, using: &generator), radix: 16) }.joined()
    }

    private static func openInBrowser(_ address: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", address]
        try? process.run()
    }
}
