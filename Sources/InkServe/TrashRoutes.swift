import Foundation
import Hummingbird
import HummingbirdWebSocket
import InkwellKit

/// The trash: what is in it, and putting an entry back.
extension WebServer {
    func addTrashRoutes(to router: Router<BasicWebSocketRequestContext>) {
        let workspace = workspace
        router.get("/api/trash") { _, _ in
            try await Self.blocking { try JSON.response(["items": workspace.trash()]) }
        }

        router.post("/api/trash/:item/restore") { _, context in
            let item = context.parameters.get("item") ?? ""
            guard item.count <= 64, item.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw HTTPError(.badRequest, message: "not a trash item id")
            }
            return try await Self.blocking { try JSON.response(try workspace.restore(item)) }
        }
    }
}
