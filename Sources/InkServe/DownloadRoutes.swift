import Foundation
import Hummingbird
import HummingbirdWebSocket
import InkwellKit

/// Downloads: a note in any export format, a notebook as PDFs in a ZIP.
extension WebServer {
    func addDownloadRoutes(to router: Router<BasicWebSocketRequestContext>) {
        let workspace = workspace

        router.get("/api/notes/:id/export") { request, context in
            let id = try noteID(context)
            let format = request.uri.queryParameters.get("format") ?? "pdf"
            let scale = Double(request.uri.queryParameters.get("scale") ?? "1") ?? 0
            return try await Self.blocking {
                return try Download.note(try workspace.note(id: id), format: format, scale: scale, workspace: workspace).response
            }
        }

        router.get("/api/notebooks/export") { request, _ in
            let notebook = request.uri.queryParameters.get("notebook") ?? "Inbox"
            return try await Self.blocking {
                try Download.notebook(try NotebookPath(notebook), workspace: workspace).response
            }
        }
    }
}
