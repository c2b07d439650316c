import ArgumentParser
import Foundation
import InkwellKit

extension NoteCommand {
    struct Text: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "text",
            abstract: "Print, replace or extend a note's typed text (Markdown beside the ink).",
            discussion: """
                Without --set or --append, prints the text as stored (--numbered adds the line numbers that \
                `inkwell note check --line` takes). FILE may be - for standard input. The text must be UTF-8; \
                hashtags in it become tags (except tags removed with `note tag --remove`). It is saved at once \
                in the note's folder as body.md. See docs/typed-text.md for the line kinds.
                """
        )
        @OptionGroup var library: LibraryOptions
        @OptionGroup var index: IndexOptions
        @Argument(help: "The note.") var note: String
        @Option(name: .customLong("set"), help: ArgumentHelp("Replace the text with this file's (- reads standard input).", valueName: "file"))
        var replacement: String?
        @Option(help: ArgumentHelp("Add this file's text at the end, on a new line (- reads standard input).", valueName: "file"))
        var append: String?
        @Flag(help: "Print each line with its number.") var numbered = false
        @OptionGroup var output: OutputOptions

        func validate() throws {
            if replacement != nil, append != nil { throw ValidationError("--set and --append both change the text; give one") }
            if numbered, replacement != nil || append != nil { throw ValidationError("--numbered is for printing; leave out --set/--append") }
        }

        struct Line: Encodable {
            var number: Int
            var kind: String
            var level: Int
            var text: String
            var content: String
            var headingLevel: Int?
            var taskMarker: String?
            var listMarker: String?
            var hashtags: [String]

            init(_ line: BodyLine) {
                number = line.number
                kind = line.kind.name
                level = line.level
                text = line.text
                content = line.content
                switch line.kind {
                case .heading(let level): headingLevel = level
                case .task(let marker): taskMarker = marker.rawValue
                default: break
                }
                listMarker = line.listMarker
                hashtags = line.hashtags.map(\.name)
            }
        }

        struct Report: Encodable {
            var note: String
            var title: String
            var file: String
            var text: String
            var lines: [Line]
            var statistics: TypedTextStatistics
            var addedTags: [String]?
            /// Where the routing rules filed the note because of those tags.
            var routed: [Routing]?
        }

        func run() throws {
            let workspace = index.workspace(try library.open())
            let stored = try workspace.note(matching: note)
            if let source = replacement ?? append {
                let input = try readTypedText(source)
                let edit = replacement != nil
                    ? try workspace.setTypedText(input.text, of: stored.note.id)
                    : try workspace.appendTypedText(input.text, to: stored.note.id)
                if output.json {
                    var report = report(edit.note, edit.text, workspace, added: edit.addedTags)
                    if !edit.routed.isEmpty {
                        report.routed = edit.routed
                        report.file = workspace.typedTextFile(of: try workspace.note(matching: stored.note.id.rawValue)).path
                    }
                    return try printJSON(report)
                }
                let stats = edit.text.statistics
                print("saved the typed text of \"\(edit.note.note.title)\": \(edit.text.lines.count) line\(edit.text.lines.count == 1 ? "" : "s"), "
                      + "\(stats.words) word\(stats.words == 1 ? "" : "s")")
                if !edit.addedTags.isEmpty {
                    print("tagged " + edit.addedTags.map { "#" + $0.name }.joined(separator: " "))
                }
                for routed in edit.routed { print(routed.line) }
                return
            }
            let text = try workspace.typedText(of: stored)
            if output.json { return try printJSON(report(stored, text, workspace, added: nil)) }
            if numbered {
                let width = String(text.lines.count).count
                for line in text.lines {
                    print(String(repeating: " ", count: width - String(line.number).count) + "\(line.number)  \(line.text)")
                }
            } else {
                FileHandle.standardOutput.write(Data(text.text.utf8))
            }
        }

        func report(_ stored: NoteEntry, _ text: TypedText, _ workspace: Workspace, added: [Tag]?) -> Report {
            Report(note: stored.note.id.rawValue, title: stored.note.title, file: workspace.typedTextFile(of: stored).path,
                   text: text.text, lines: text.lines.map(Line.init), statistics: TypedTextStatistics(text),
                   addedTags: added?.map(\.name))
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Tick or untick the checkbox on one line of a note's typed text, and save at once.",
            discussion: """
                Line numbers are those of `inkwell note text NOTE --numbered`. [ ] becomes [x] and [x] (or [X]) \
                becomes [ ]; any other task marker ([!], [?], [>] …) becomes [x]. A line that is not a checkbox \
                is an error, and nothing changes.
                """
        )
        @OptionGroup var library: LibraryOptions
        @Argument(help: "The note.") var note: String
        @Option(help: "The line (1-based).") var line: Int
        @OptionGroup var output: OutputOptions

        struct Report: Encodable {
            var note: String
            var line: Int
            var before: String
            var after: String
            var text: String
        }

        func run() throws {
            let workspace = try library.open()
            let stored = try workspace.note(matching: note)
            let toggle = try workspace.toggleCheckbox(line: line, of: stored.note.id)
            let text = toggle.text.lines[toggle.line - 1].text
            if output.json {
                return try printJSON(Report(note: stored.note.id.rawValue, line: toggle.line, before: toggle.before.rawValue,
                                            after: toggle.after.rawValue, text: text))
            }
            print("\"\(stored.note.title)\" line \(toggle.line): [\(toggle.before.rawValue)] → [\(toggle.after.rawValue)]  \(text)")
        }
    }
}

/// Why text given to `note text` was refused, naming where it came from.
struct TypedTextInputError: Error, CustomStringConvertible {
    let source: String
    let reason: String
    var description: String { "\(source): \(reason)" }
}

/// Reads typed text from a file, or standard input for `-`, refusing what is not UTF-8 or too large.
func readTypedText(_ source: String) throws -> TypedText {
    let name = source == "-" ? "standard input" : source
    let handle: FileHandle
    if source == "-" {
        handle = FileHandle.standardInput
    } else {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: source, isDirectory: &isFolder), isFolder.boolValue {
            throw TypedTextInputError(source: name, reason: "is a folder, not a text file; nothing was changed")
        }
        guard let opened = FileHandle(forReadingAtPath: source) else {
            throw TypedTextInputError(source: name, reason: "cannot be read (\(String(cString: strerror(errno))))")
        }
        handle = opened
    }
    defer { if source != "-" { try? handle.close() } }
    var bytes: [UInt8] = []
    do {
        // Read a little past the limit so that too much is reported, not silently cut.
        while bytes.count <= TypedText.maximumBytes, let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
            bytes += chunk
        }
    } catch {
        throw TypedTextInputError(source: name, reason: "cannot be read (\(String(cString: strerror(errno)))); nothing was changed")
    }
    do {
        return try TypedText(utf8: bytes)
    } catch {
        throw TypedTextInputError(source: name, reason: "\(error); nothing was changed")
    }
}
