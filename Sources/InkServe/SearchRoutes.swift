import Foundation
import Hummingbird
import HummingbirdWebSocket
import InkwellKit

/// Search: words and tags, as `inkwell search` finds them.
extension WebServer {
    func addSearchRoutes(to router: Router<BasicWebSocketRequestContext>) {
        let workspace = workspace
        router.get("/api/search") { request, _ in
            let words = request.uri.queryParameters.get("q") ?? ""
            let tags = try request.uri.queryParameters.getAll("tag").filter { !$0.isEmpty }.map(Self.tag)
            guard !words.trimmingCharacters(in: .whitespaces).isEmpty || !tags.isEmpty else {
                throw HTTPError(.badRequest, message: "give words to search for, or a tag")
            }
            return try await Self.blocking {
                try JSON.response(["hits": workspace.search(words, tags: tags, limit: 50)])
            }
        }
    }
}
