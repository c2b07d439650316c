import Foundation
import Hummingbird
import InkwellKit
import NIOCore

/// An export streamed to the browser: the CLI's exporter writes into a private folder, and the
/// result (one file, or a ZIP when there are several) is sent with its meaningful file name.
struct Download {
    var file: ExportedFile

    var response: Response {
        // The name is the exporter's (already safe as a file name); quotes and non-ASCII are escaped.
        let name = file.name
        let ascii = String(name.map { $0.isASCII && $0 != "\"" && $0 != "\\" ? $0 : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ascii
        return Response(status: .ok, headers: [
            .contentType: file.type,
            .contentDisposition: "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)",
        ], body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }

    /// One note as PDF, Markdown, SVG, InkML or PNG (`scale` 1, 2 or 3); several files come as a ZIP.
    static func note(_ entry: NoteEntry, format: String, scale: Double, workspace: Workspace) throws -> Download {
        guard Workspace.exportFormats.contains(format) else {
            throw HTTPError(.badRequest, message: "format is one of \(Workspace.exportFormats.joined(separator: ", "))")
        }
        guard [1, 2, 3].contains(scale) else { throw HTTPError(.badRequest, message: "scale is 1, 2 or 3") }
        return Download(file: try workspace.export([entry], format: format, scale: scale))
    }

    /// Every note of a notebook (and its sub-notebooks) as PDFs in one ZIP.
    static func notebook(_ notebook: NotebookPath, workspace: Workspace) throws -> Download {
        let notes = try workspace.notes(in: notebook)
        guard !notes.isEmpty else { throw HTTPError(.notFound, message: "notebook \"\(notebook)\" has no notes") }
        return Download(file: try workspace.export(notes, format: "pdf", scale: 1,
                                                   zipName: "\(notebook.name.isEmpty ? "Library" : notebook.name).zip"))
    }
}
