import Foundation
import Hummingbird
import HummingbirdWebSocket
import InkwellKit
import NIOCore

/// Uploads: a PDF to write on.
extension WebServer {
    func addUploadRoutes(to router: Router<BasicWebSocketRequestContext>) {
        let workspace = workspace
        let uploads = uploads

        // The body is the PDF (`application/pdf`), imported as `inkwell import` does, as a PDF and
        // nothing else; one at a time, off the request threads.
        router.post("/api/import") { request, _ in
            guard request.headers[.contentType]?.lowercased().hasPrefix("application/pdf") == true else {
                throw HTTPError(.unsupportedMediaType, message: "send the PDF with Content-Type: application/pdf")
            }
            if let length = request.headers[.contentLength].flatMap(Int.init), length > Self.maxUploadBytes {
                throw HTTPError(.contentTooLarge, message: "the PDF is larger than \(Self.maxUploadBytes >> 20) MiB")
            }
            let query = request.uri.queryParameters
            let title = query.get("title").map { String($0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "Document"
            let notebookName = query.get("notebook").map { String($0) } ?? ""
            guard uploads.begin() else {
                throw HTTPError(.serviceUnavailable, message: "another PDF is being imported; try again in a moment")
            }
            defer { uploads.end() }
            let data: Data
            do {
                data = Data(try await request.body.collect(upTo: Self.maxUploadBytes).readableBytesView)
            } catch {
                throw HTTPError(.contentTooLarge, message: "the PDF is larger than \(Self.maxUploadBytes >> 20) MiB")
            }
            return try await Self.blocking {
                let notebook = try notebookName.isEmpty ? .inbox : NotebookPath(notebookName)
                let note: NoteEntry?
                do {
                    note = try workspace.importPDF(data, title: title, notebook: notebook, source: "serve:pdf")
                } catch let refusal as ImportRefused {
                    throw HTTPError(.badRequest, message: "the PDF could not be imported: \(refusal.reason)")
                }
                guard let note else { throw HTTPError(.badRequest, message: "the PDF could not be imported") }
                return try JSON.response(LibraryNote(note, states: .unknown), status: .created)
            }
        }
    }
}
