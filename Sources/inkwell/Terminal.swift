import ArgumentParser
import Foundation

// What the command line prints may hold names it did not choose: file and folder names, titles and
// text from other software's files. A control character in them (an escape sequence, a carriage
// return) would be obeyed by the terminal, so everything printed goes through `terminalSafe`: those
// characters are shown as `\x1B`, line breaks and tabs are kept. JSON output escapes them itself.

/// `text` with every control character other than a line break or a tab shown as `\xHH` (C0, DEL)
/// or `\u{HH}` (C1).
func terminalSafe(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
        guard isUnsafe(scalar) else {
            out.unicodeScalars.append(scalar)
            continue
        }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{" + hex + "}"
    }
    return out
}

private func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    scalar != "\n" && scalar != "\t" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
}

/// The command line's `print`: Swift's, made ``terminalSafe(_:)``.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Swift.print(terminalSafe(items.map { "\($0)" }.joined(separator: separator)), terminator: terminator)
}

extension Inkwell {
    /// Runs the command as ArgumentParser's own `main` does, but prints the message of an error
    /// that ends it through ``printError(_:)``, so a hostile name in it reaches the terminal escaped;
    /// `--library DIR` is accepted before the command too (``libraryBeforeCommand(_:)``).
    static func main() async {
        do {
            var command = try parseAsRoot(libraryBeforeCommand(Array(CommandLine.arguments.dropFirst())))
            let options = Chatter.options(of: command)
            Chatter.current = options?.chatter ?? .normal
            let started = Date()
            defer {
                printDetail(String(format: "%@ took %.3f s", type(of: command)._commandName, Date().timeIntervalSince(started)))
            }
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { Swift.print(message) }
            } else if !message.isEmpty {
                printError(message)
            }
            Foundation.exit(code.rawValue)
        }
    }
}
