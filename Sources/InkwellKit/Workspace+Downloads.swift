import Foundation
import InkCore
import InkExport
import InkWorkspace

/// One file of an export, in memory, for a front end to send: its name as the exporter names it,
/// its media type and its bytes.
public struct ExportedFile: Sendable {
    public var name: String
    public var type: String
    public var bytes: [UInt8]
}

/// An export that did not write what was asked, and why.
public struct ExportFailed: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// Exports into memory, for a front end to hand over (the web notebook's downloads).
extension Workspace {
    /// The formats a note exports to, by name: pdf, png, svg, md, inkml.
    public static var exportFormats: [String] { NoteFormat.allCases.map(\.rawValue) }

    /// `notes` exported in the format named `format` (one of ``exportFormats``), images at `scale`, by the
    /// exporter the CLI uses, into a private folder and read back: one file as itself, several (pages as
    /// images, several notes) as a ZIP, named `zipName` or after the first note.
    public func export(_ notes: [NoteEntry], format name: String, scale: Double, zipName: String? = nil) throws -> ExportedFile {
        guard let format = NoteFormat(rawValue: name) else { throw ExportFailed(description: "no format \(name)") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-download-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var settings = ExportSettings(format: format)
        settings.scale = scale
        let severalFiles = zipName != nil || notes.count != 1 || (format.format.isPerPage && notes[0].note.pages.count != 1)
        if !severalFiles {
            let outcome = try export(notes, as: settings, to: .folder(folder))
            try Self.check(outcome)
            guard let written = outcome.written.first.map(URL.init(fileURLWithPath:)) else {
                throw ExportFailed(description: "the export wrote no file")
            }
            return ExportedFile(name: written.lastPathComponent, type: Self.mediaType(written.pathExtension),
                                bytes: Array(try Data(contentsOf: written)))
        }
        let archive = folder.appendingPathComponent("export.zip")
        try Self.check(try export(notes, as: settings, to: .zip(archive)))
        let zip = zipName ?? "\(ExportNaming.baseName(title: notes[0].note.title, created: notes[0].note.created))-\(format.rawValue).zip"
        return ExportedFile(name: zip, type: "application/zip", bytes: Array(try Data(contentsOf: archive)))
    }

    /// A note the exporter could not write fails the export, saying which and why.
    private static func check(_ outcome: ExportReport) throws {
        if let failure = outcome.failed.first { throw ExportFailed(description: "\(failure.title): \(failure.reason)") }
    }

    private static func mediaType(_ ext: String) -> String {
        switch ext {
        case "pdf": "application/pdf"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        case "md": "text/markdown; charset=utf-8"
        case "inkml": "application/inkml+xml"
        default: "application/octet-stream"
        }
    }
}
