import Foundation
import Hummingbird
import InkwellKit
import NIOCore

/// An export streamed to the browser: the CLI's exporter writes into a private folder, and the
/// result (one file, or a ZIP when there are several) is sent with its meaningful file name.
struct Download {
    var name: String
    var type: String
    var bytes: [UInt8]

    var response: Response {
        // The name is the exporter's (already safe as a file name); quotes and non-ASCII are escaped.
        let ascii = String(name.map { $0.isASCII && $0 != "\"" && $0 != "\\" ? $0 : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ascii
        return Response(status: .ok, headers: [
            .contentType: type,
            .contentDisposition: "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)",
        ], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// One note as PDF, Markdown, SVG, InkML or PNG (`scale` 1, 2 or 3); several files come as a ZIP.
    static func note(_ stored: StoredNote, format name: String, scale: Double, workspace: Workspace) throws -> Download {
        guard let format = ExportFormat(rawValue: name) else {
            throw HTTPError(.badRequest, message: "format is one of \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard [1, 2, 3].contains(scale) else { throw HTTPError(.badRequest, message: "scale is 1, 2 or 3") }
        return try export([stored], format: format, scale: scale, workspace: workspace, zipName: nil)
    }

    /// Every note of a notebook (and its sub-notebooks) as PDFs in one ZIP.
    static func notebook(_ notebook: NotebookPath, workspace: Workspace) throws -> Download {
        let notes = try workspace.library.notes(in: notebook)
        guard !notes.isEmpty else { throw HTTPError(.notFound, message: "notebook \"\(notebook)\" has no notes") }
        return try export(notes, format: .pdf, scale: 1, workspace: workspace, zipName: "\(notebook.name.isEmpty ? "Library" : notebook.name).zip")
    }

    private static func export(_ notes: [StoredNote], format: ExportFormat, scale: Double, workspace: Workspace,
                               zipName: String?) throws -> Download {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-download-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var exporter = Exporter(library: workspace.library, index: try workspace.existingIndex(), format: format)
        exporter.scale = scale
        let files = folder.appendingPathComponent("files", isDirectory: true)
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        var report = try exporter.run(notes, to: .folder(files))
        if let failure = report.failed.first { throw HTTPError(.internalServerError, message: "\(failure.title): \(failure.reason)") }
        if report.written.count == 1, zipName == nil {
            let url = URL(fileURLWithPath: report.written[0])
            return Download(name: url.lastPathComponent, type: contentType(url.pathExtension), bytes: Array(try Data(contentsOf: url)))
        }
        let archive = folder.appendingPathComponent("export.zip")
        report = try exporter.run(notes, to: .zip(archive))
        if let failure = report.failed.first { throw HTTPError(.internalServerError, message: "\(failure.title): \(failure.reason)") }
        let name = zipName ?? "\(notes[0].note.title.isEmpty ? "note" : Self.fileSafe(notes[0].note.title))-\(format.rawValue).zip"
        return Download(name: name, type: "application/zip", bytes: Array(try Data(contentsOf: archive)))
    }

    private static func contentType(_ ext: String) -> String {
        switch ext {
        case "pdf": "application/pdf"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        case "md": "text/markdown; charset=utf-8"
        case "inkml": "application/inkml+xml"
        default: "application/octet-stream"
        }
    }

    private static func fileSafe(_ title: String) -> String {
        String(title.prefix(80).map { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" ? $0 : "_" })
    }
}
