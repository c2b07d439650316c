import Foundation
import Hummingbird
import HummingbirdWebSocket
import InkwellKit

/// Notebooks: creating one (the listing comes with the library's, exports with the downloads).
extension WebServer {
    func addNotebookRoutes(to router: Router<BasicWebSocketRequestContext>) {
        let workspace = workspace
        router.post("/api/notebooks") { request, _ in
            let body = try await Self.body(NewNotebook.self, of: request)
            return try await Self.blocking {
                try workspace.createNotebook(try NotebookPath(body.path))
                return try JSON.response(["path": body.path], status: .created)
            }
        }
    }
}
