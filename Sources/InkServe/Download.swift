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
        // One file goes as itself, named as the exporter names it; several (pages as images, notes) as a ZIP.
        let severalFiles = zipName != nil || notes.count != 1 || (format.isPerPage && notes[0].note.pages.count != 1)
        if !severalFiles {
            let report = try exporter.run(notes, to: .folder(folder))
            try check(report)
            guard let written = report.written.first.map(URL.init(fileURLWithPath:)) else {
                throw HTTPError(.internalServerError, message: "the export wrote no file")
            }
            return Download(name: written.lastPathComponent, type: contentType(written.pathExtension), bytes: Array(try Data(contentsOf: written)))
        }
        let archive = folder.appendingPathComponent("export.zip")
        try check(try exporter.run(notes, to: .zip(archive)))
        let name = zipName ?? "\(ExportNaming.baseName(title: notes[0].note.title, created: notes[0].note.created))-\(format.rawValue).zip"
        return Download(name: name, type: "application/zip", bytes: Array(try Data(contentsOf: archive)))
    }

    /// A note the exporter could not write fails the download, saying which and why.
    private static func check(_ report: ExportReport) throws {
        if let failure = report.failed.first { throw HTTPError(.internalServerError, message: "\(failure.title): \(failure.reason)") }
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
}
