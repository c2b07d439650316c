import Foundation
import Hummingbird
import HummingbirdWebSocket
import InkwellKit
import NIOCore

/// A note's pages: its thumbnail, the PDF pages under its pages, and each page's strokes for replay.
extension WebServer {
    /// The address of the PNG of the PDF page under `page` (``Workspace/backgroundImage(of:in:live:)``): it
    /// names the document, the PDF page and the page's size and paper, so a browser may keep it for good.
    static func backgroundAddress(note: NoteID, page: Page, _ background: PageBackground) -> String {
        "/api/notes/\(note.rawValue)/pages/\(page.id.rawValue)/background.png?d=\(background.document.prefix(16))-\(background.page)"
            + "-\(Int(page.size.width))x\(Int(page.size.height))-\(page.template.paper.description.dropFirst())"
    }

    func addPageRoutes(to router: Router<BasicWebSocketRequestContext>) {
        let workspace = workspace
        let thumbnails = thumbnails
        let backgroundImages = backgroundImages
        let rooms = rooms

        // ?page=N (1-based, the first by default): a search shows the page that matched.
        router.get("/api/notes/:id/thumbnail.png") { request, context in
            let id = try noteID(context)
            let page = request.uri.queryParameters.get("page").map { Int($0) ?? 0 } ?? 1
            guard page >= 1 else {
                throw HTTPError(.badRequest, message: "page must be a page number, 1 or more")
            }
            return try await Self.blocking {
                let entry = try workspace.note(id: id)
                guard let png = try thumbnails.thumbnail(of: entry, page: page, make: { try workspace.thumbnail(of: id, page: page, width: 256) }) else {
                    if page > 1 { throw HTTPError(.notFound, message: "no page \(page) in this note") }
                    return Response(status: .noContent)
                }
                return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "private, max-age=31536000, immutable"],
                                body: .init(byteBuffer: ByteBuffer(bytes: png)))
            }
        }

        router.get("/api/notes/:id/pages/:page/background.png") { request, context in
            let target = try await PageTarget(context, rooms: rooms)
            let (id, pageID, live) = (target.note, target.page, target.live)
            let asked = request.uri.queryParameters.get("d").map { String($0) }
            return try await Self.blocking {
                _ = try workspace.note(id: id)
                guard let page = try target.current(in: workspace), let background = page.template.background else {
                    throw HTTPError(.notFound, message: "page \(pageID.rawValue) is not drawn on a PDF page")
                }
                // Kept for good only under the address naming what is drawn now (a request racing a
                // change of the page gets today's picture, not cached).
                let address = WebServer.backgroundAddress(note: id, page: page, background)
                let current = address.hasSuffix("?d=" + (asked ?? "\u{0}"))
                let png = try backgroundImages.image(address) { try workspace.backgroundImage(of: page, in: id, live: live) }
                guard let png else { throw HTTPError(.notFound, message: "page \(pageID.rawValue) is not drawn on a PDF page Inkwell can read") }
                return Response(status: .ok, headers: [.contentType: "image/png",
                                                       .cacheControl: current ? "private, max-age=31536000, immutable" : "no-store"],
                                body: .init(byteBuffer: ByteBuffer(bytes: png)))
            }
        }

        router.get("/api/notes/:id/pages/:page/strokes") { _, context in
            let target = try await PageTarget(context, rooms: rooms)
            return try await Self.blocking {
                guard let page = try target.current(in: workspace) else {
                    throw HTTPError(.notFound, message: "no page \(target.page.rawValue) in this note")
                }
                return try JSON.response(RecordedPage(page))
            }
        }
    }
}

/// The page a page route names, and the live note it is on when a browser has that note open.
struct PageTarget: Sendable {
    var note: NoteID
    var page: PageID
    var live: LiveNote?
    /// The live note's pages as they were when the request came.
    var livePages: [Page]?

    init(_ context: some RequestContext, rooms: LiveRooms) async throws {
        note = try noteID(context)
        page = try WebServer.pageID(context)
        live = await rooms.openNote(note)
        livePages = await live?.pages
    }

    /// The page as it is now: as written in the open note, else as saved; nil when the note has no such page.
    func current(in workspace: Workspace) throws -> Page? {
        try (livePages ?? workspace.pages(of: note)).first { $0.id == page }
    }
}
