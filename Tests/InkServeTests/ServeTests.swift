import Foundation
import HTTPTypes
import Hummingbird
@testable import InkServe
import HummingbirdWebSocket
@testable import InkwellKit
import Logging
import NIOCore
import ServeTestSupport
import Testing
import InkRender
import InkStore

/// Every route of `inkwell serve`, run on a port of its own, through a small test client: what a
/// browser (or a hostile page or program) gets back, and that refused requests leave the library
/// exactly as it was.
@Suite struct ServeTests {
    let folder: URL
    let workspace: Workspace

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-serve-\(UUID().uuidString)")
        workspace = Workspace(library: try Library.create(at: folder))
    }

    func app(token: String? = nil, session: SessionConfig = SessionConfig()) -> some ApplicationProtocol {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return WebServer(workspace: workspace, options: ServeOptions(port: 0, token: token, recognize: false, session: session))
            .application(logger: logger)
    }

    /// The library's notes as they are on disk, to compare before and after a refused request.
    func snapshot() throws -> [Note] {
        try workspace.library.notes().map(\.note)
    }

    func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any])
    }

    func body(_ object: [String: Any]) throws -> ByteBuffer {
        ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))
    }

    // MARK: Pages and assets

    @Test func pagesAndAssetsComeWithTheSecurityHeaders() async throws {
        try await app().test { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline';") || policy.contains("script-src 'self';"))
                #expect(String(buffer: response.body).contains("/assets/library.js"))
            }
            try await client.execute(uri: "/assets/note.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/javascript") == true)
            }
            try await client.execute(uri: "/assets/..%2F..%2FPackage.swift", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/notes/..%2F..%2Fetc", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    // MARK: The library

    @Test func notesAreCreatedRenamedPinnedTaggedMovedDeletedAndRestored() async throws {
        try await app().test { client in
            let id = try await client.execute(uri: "/api/notes", method: .post, body: try body(["title": "Groceries"])) { response in
                #expect(response.status == .created)
                return try #require(try json(response.body)["id"] as? String)
            }
            // A notebook that does not exist is made only when asked for (as `note move --create`):
            // without that the change is refused by name and nothing of it is made.
            let before = try snapshot(), notebooksBefore = try workspace.library.notebooks()
            let change: [String: Any] = ["title": "Shopping", "pinned": true, "addTags": ["home"], "notebook": "Errands/Weekly"]
            try await client.execute(uri: "/api/notes/\(id)", method: .patch, body: try body(change)) { response in
                #expect(response.status == .unprocessableContent)
                let message = (try json(response.body)["error"] as? [String: Any])?["message"] as? String
                #expect(message?.hasPrefix("no notebook \"Errands/Weekly\"") == true, "\(String(describing: message))")
            }
            #expect(try snapshot() == before)
            #expect(try workspace.library.notebooks() == notebooksBefore)
            try await client.execute(uri: "/api/notes/\(id)", method: .patch,
                                     body: try body(change.merging(["notebook": "Errands", "createNotebook": true]) { $1 })) { response in
                #expect(response.status == .ok)
            }
            let stored = try workspace.library.note(matching: id)
            #expect(stored.note.title == "Shopping")
            #expect(stored.note.pinned)
            #expect(stored.note.tags == [Tag("home")!])
            #expect(stored.notebook.description == "Errands")

            try await client.execute(uri: "/api/library", method: .get) { response in
                let listing = try json(response.body)
                let notes = try #require(listing["notes"] as? [[String: Any]])
                #expect(notes.map { $0["title"] as? String } == ["Shopping"])
                #expect((listing["notebooks"] as? [String])?.contains("Errands") == true)
            }
            let trashID = try await client.execute(uri: "/api/notes/\(id)", method: .delete) { response in
                #expect(response.status == .ok)
                return try #require(try json(response.body)["id"] as? String)
            }
            #expect(try workspace.library.notes().isEmpty)
            try await client.execute(uri: "/api/trash/\(trashID)/restore", method: .post) { response in
                #expect(response.status == .ok)
            }
            #expect(try workspace.library.note(matching: id).note.title == "Shopping")
        }
    }

    @Test func pagesOfOtherSitesCannotChangeTheLibrary() async throws {
        try await app().test { client in
            try await client.execute(uri: "/api/notes", method: .post, headers: [.origin: "http://attacker.example"],
                                     body: try body(["title": "planted"])) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/api/notes", method: .post, headers: [.origin: "http://localhost"],
                                     body: try body(["title": "mine"])) { response in
                #expect(response.status == .created)
            }
        }
        #expect(try workspace.library.notes().map(\.note.title) == ["mine"])
    }

    @Test func aPDFUploadedFromThePageBecomesANoteToWriteOnAndBadOnesChangeNothing() async throws {
        let source = Page(id: PageID(rawValue: "8d2h5k0w3q1r"), size: .a4Points,
                          strokes: [Stroke(id: StrokeID(1), width: 8, points: [InkPoint(x: 100, y: 100), InkPoint(x: 400, y: 300)])])
        let pdf = try Renderer().pdf([source, source])
        try await app().test { client in
            // Another format saying %PDF- early (a Xournal++ document naming a file on the server) is not read as that format.
            let disguised = #"<xournal creator="%PDF-"><page width="100" height="100"><background type="pdf" domain="absolute" filename="/etc/secret.pdf" pageno="1"/><layer/></page></xournal>"#
            for (bytes, reason) in [(Array("not a pdf".utf8), "not a PDF"), (Array("%PDF-1.7 and then nothing".utf8), "could not be imported"),
                                    (Array(disguised.utf8), "does not start with %PDF-")] {
                try await client.execute(uri: "/api/import?title=Bad", method: .post, headers: [.contentType: "application/pdf"],
                                         body: ByteBuffer(bytes: bytes)) { response in
                    #expect(response.status == .badRequest)
                    #expect(String(buffer: response.body).contains(reason), "\(String(buffer: response.body))")
                }
            }
            try await client.execute(uri: "/api/import?title=Paper", method: .post, headers: [.origin: "http://attacker.example"],
                                     body: ByteBuffer(bytes: pdf)) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/api/import?title=Paper", method: .post, headers: [.contentType: "text/plain"],
                                     body: ByteBuffer(bytes: pdf)) { response in
                #expect(response.status == .unsupportedMediaType)
            }
            #expect(try snapshot().isEmpty)
            try await client.execute(uri: "/api/import?title=Reading%20list&notebook=Work", method: .post,
                                     headers: [.contentType: "application/pdf", .origin: "http://localhost"], body: ByteBuffer(bytes: pdf)) { response in
                #expect(response.status == .created)
                let note = try json(response.body)
                #expect(note["title"] as? String == "Reading list" && note["notebook"] as? String == "Work")
            }
        }
        let stored = try workspace.library.note(matching: "Reading list")
        let pages = try workspace.library.pages(of: stored)
        #expect(pages.map { $0.template.background?.page } == [0, 1])
        #expect(pages.allSatisfy { $0.size == PageSize(width: 595.28, height: 841.89) || abs($0.size.width - 595.28) < 0.01 })
    }

    @Test func dragToReorderWritesTheNotebooksOrder() async throws {
        let first = try workspace.library.createNote(title: "First")
        let second = try workspace.library.createNote(title: "Second")
        try await app().test { client in
            try await client.execute(uri: "/api/notes/\(first.note.id)", method: .patch,
                                     body: try body(["place": "after:\(second.note.id)"])) { response in
                #expect(response.status == .ok)
            }
        }
        #expect(try workspace.library.notes(in: .inbox).map(\.note.title) == ["Second", "First"])
    }

    @Test func badRequestsSayWhyAndChangeNothing() async throws {
        let note = try workspace.library.createNote(title: "Keep me")
        let before = try snapshot()
        try await app().test { client in
            let cases: [(String, HTTPRequest.Method, ByteBuffer?, HTTPResponse.Status, String)] = [
                ("/api/notes", .post, ByteBuffer(string: "{not json"), .badRequest, "JSON"),
                ("/api/notes", .post, try body(["title": 42]), .badRequest, "title"),
                ("/api/notes", .post, try body(["title": "   "]), .badRequest, "empty"),
                ("/api/notes", .post, try body(["title": "x", "notebook": "../../etc"]), .badRequest, "notebook"),
                ("/api/notes", .post, ByteBuffer(string: "{\"title\":\"" + String(repeating: "a", count: 100_000) + "\"}"), .contentTooLarge, "larger"),
                ("/api/notes/zzzzzzzzzzzz", .patch, try body(["title": "x"]), .notFound, "no note"),
                ("/api/notes/..%2F..", .patch, try body(["title": "x"]), .badRequest, "not a note id"),
                ("/api/notes/\(note.note.id)", .patch, try body(["place": "beside:me"]), .badRequest, "place"),
                ("/api/notes/\(note.note.id)", .patch, try body(["addTags": ["not a tag!"]]), .badRequest, "tag"),
                // A good field beside a bad one is not written either.
                ("/api/notes/\(note.note.id)", .patch, try body(["title": "Renamed", "pinned": true, "addTags": ["not a tag!"]]), .badRequest, "tag"),
                ("/api/notes/\(note.note.id)/export?format=docx", .get, nil, .badRequest, "format"),
                ("/api/notes/\(note.note.id)/export?format=png&scale=7", .get, nil, .badRequest, "scale"),
                ("/api/trash/..%2F/restore", .post, nil, .badRequest, "trash"),
                ("/api/search", .get, nil, .badRequest, "words"),
            ]
            for (uri, method, payload, status, reason) in cases {
                try await client.execute(uri: uri, method: method, body: payload) { response in
                    #expect(response.status == status, "\(method) \(uri)")
                    let message = String(buffer: response.body)
                    #expect(message.localizedCaseInsensitiveContains(reason), "\(method) \(uri): \(message)")
                }
            }
        }
        #expect(try snapshot() == before)
    }

    @Test func exportsAreTheCLIsFilesWithTheirNames() async throws {
        let stored = try workspace.library.createNote(title: "Trip plan")
        try workspace.library.save([PageDelta(pageID: .random(), isNew: true, addedStrokes: [
            Stroke(id: StrokeID(1), points: [InkPoint(x: 100, y: 100), InkPoint(x: 400, y: 300)]),
        ])], to: stored.note.id)
        try await app().test { client in
            try await client.execute(uri: "/api/notes/\(stored.note.id)/export?format=pdf", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/pdf")
                #expect(response.headers[.contentDisposition]?.contains("trip-plan.pdf") == true)
                #expect(String(buffer: response.body).hasPrefix("%PDF"))
            }
            try await client.execute(uri: "/api/notes/\(stored.note.id)/export?format=png&scale=2", method: .get) { response in
                #expect(response.status == .ok)
                #expect(Array(response.body.readableBytesView.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            }
            try await client.execute(uri: "/api/notebooks/export?notebook=Inbox", method: .get) { response in
                #expect(response.headers[.contentType] == "application/zip")
                #expect(Array(response.body.readableBytesView.prefix(2)) == [0x50, 0x4B])
            }
            try await client.execute(uri: "/api/notes/\(stored.note.id)/thumbnail.png", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
            }
        }
    }

    @Test("a search hit's thumbnail is the page that matched: ?page=N, 404 past the last page, 400 for no page number")
    func thumbnailOfAPage() async throws {
        let stored = try workspace.library.createNote(title: "Two pages")
        let strokes = [[InkPoint(x: 100, y: 100), InkPoint(x: 400, y: 300)], [InkPoint(x: 100, y: 900), InkPoint(x: 1300, y: 900)]]
        try workspace.library.save(strokes.map { points in
            PageDelta(pageID: .random(), isNew: true, addedStrokes: [Stroke(id: StrokeID(1), points: points)])
        }, to: stored.note.id)
        try await app().test { client in
            var images: [[UInt8]] = []
            for uri in ["thumbnail.png", "thumbnail.png?page=1", "thumbnail.png?page=2"] {
                try await client.execute(uri: "/api/notes/\(stored.note.id)/\(uri)", method: .get) { response in
                    #expect(response.status == .ok && response.headers[.contentType] == "image/png", "\(uri)")
                    images.append(Array(response.body.readableBytesView))
                }
            }
            #expect(images[0] == images[1] && images[1] != images[2])
            for (query, status) in [("page=3", HTTPResponse.Status.notFound), ("page=0", .badRequest), ("page=two", .badRequest)] {
                try await client.execute(uri: "/api/notes/\(stored.note.id)/thumbnail.png?\(query)", method: .get) { response in
                    #expect(response.status == status, "\(query)")
                }
            }
        }
    }

    // MARK: Access

    @Test func aTokenGuardsEveryRequestAndMovesIntoAnHttpOnlyCookie() async throws {
        let token = "0123456789abcdef0123456789abcdef"
        try await app(token: token).test { client in
            try await client.execute(uri: "/api/library", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/?token=wrong", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/?token=\(token)", method: .get) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/")
                let cookie = try #require(response.headers[.setCookie])
                #expect(cookie.contains("inkwell_token=\(token)") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            }
            try await client.execute(uri: "/api/library", method: .get, headers: [.cookie: "inkwell_token=\(token)"]) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/library", method: .get, headers: [.authorization: "Bearer \(token)"]) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/notes", method: .post, body: try body(["title": "sneaky"])) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "//attacker.example/?token=\(token)", method: .get) { response in
                #expect(response.headers[.location] == "/attacker.example/", "never a redirect to another host")
            }
        }
        #expect(try workspace.library.notes().isEmpty)
    }

    @Test func withoutATokenOnlyLoopbackNamesAreAnswered() {
        // (The browser test sends a request with a foreign Host header to a running server.)
        for host in ["127.0.0.1:7878", "localhost:7878", "[::1]:7878", "localhost", "127.0.0.2"] {
            #expect(AccessGuard<BasicWebSocketRequestContext>.isLoopbackHost(host), "\(host)")
        }
        for host in ["attacker.example:7878", "localhost.attacker.example", "127.attacker.example", "127.0.0.1.nip.io:7878",
                     "127.0.0.999", "192.168.1.4:7878", "[fe80::1]:7878", "",
                     // Userinfo names another host (issue 40); a port must be a number.
                     "127.0.0.1:80@evil.example", "localhost:80@evil.example", "[::1]:80@evil.example", "127.0.0.1:x", "localhost:",
                     "[::1]x"] {
            #expect(!AccessGuard<BasicWebSocketRequestContext>.isLoopbackHost(host), "\(host)")
        }
    }

    @Test func aRequestNamingItsHostTwiceIsRefusedAndChangesNothing() async throws {
        // The test client sends Host: localhost first; a second Host names another server.
        let twice: HTTPFields = [HTTPField.Name("Host")!: "attacker.example"]
        let before = try snapshot()
        try await app().test { client in
            try await client.execute(uri: "/api/library", method: .get, headers: twice) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("more than once"))
            }
            var headers = twice
            headers[.contentType] = "application/json"
            try await client.execute(uri: "/api/notes", method: .post, headers: headers, body: try body(["title": "Sneaky"])) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/library", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
        #expect(try snapshot() == before)
    }

    // MARK: The live note

    @Test func penInputOverTheSocketIsSavedWhenTheLastWriterLeaves() async throws {
        let stored = try workspace.library.createNote(title: "Live")
        try await app().test { client in
            try await client.ws("/api/notes/\(stored.note.id)/live") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                let hello = try await Self.next(&messages)
                #expect(hello["t"] as? String == "hello")
                let page = try #require((hello["pages"] as? [[String: Any]])?.first?["id"] as? String)
                try await outbound.write(.text(##"{"t":"down","k":"w1:1","page":"\##(page)","pt":[10,10,0.2],"tool":"pen","color":"#1f4fbf","w":3}"##))
                try await outbound.write(.text(#"{"t":"move","k":"w1:1","pts":[[20,20,0.5],[30,25,0.9,0.8,1.2]]}"#))
                try await outbound.write(.text(#"{"t":"up","k":"w1:1"}"#))
                // The same stroke again (a reconnect resending it) is not drawn twice.
                try await outbound.write(.text(##"{"t":"down","k":"w1:1","page":"\##(page)","pt":[10,10,0.2],"tool":"pen","color":"#1f4fbf","w":3}"##))
                try await outbound.write(.text(#"{"t":"up","k":"w1:1"}"#))
                var update = try await Self.next(&messages)
                while update["t"] as? String != "ink" { update = try await Self.next(&messages) }
                #expect(update["keys"] as? [String] == ["w1:1"])
                #expect(update["strokes"] as? Int == 1)
                let added = try #require(update["add"] as? [[String: Any]])
                #expect(added.count == 1 && (added.first?["svg"] as? String)?.hasPrefix("<path") == true)
                try await outbound.close(.normalClosure, reason: nil)
            }
            // The last writer went: the note is saved without waiting for the autosave.
            try await Self.eventually { try workspace.library.pages(of: workspace.library.note(matching: stored.note.id.rawValue)).first?.strokes.count == 1 }
            let pages = try workspace.library.pages(of: workspace.library.note(matching: stored.note.id.rawValue))
            let points = try #require(pages.first?.strokes.first?.points)
            // (The page file keeps pressure in 1/1024 steps.)
            #expect(zip(points.map(\.pressure), [0.2, 0.5, 0.9]).allSatisfy { abs($0 - $1) < 0.001 })
            #expect(points.count == 3)
            #expect(points.last?.tilt == Tilt(altitude: 0.8, azimuth: 1.2))
            #expect(pages.first?.strokes.first?.color == RGBA(hex: "#1f4fbf"))
        }
    }

    @Test(.timeLimit(.minutes(20)))
    func aPenHeldDownOnOneSocketBlocksNoOtherWritersStrokesErasuresOrUndo() async throws {
        let stored = try workspace.library.createNote(title: "Held")
        // The pen stays down however slowly a busy machine runs the test (at the default 10 s without a
        // move the session would end it, and B's stroke would be the page's second).
        try await app(session: SessionConfig(strokeStallTimeout: 3600)).test { client in
            try await client.ws("/api/notes/\(stored.note.id)/live") { holderInbound, holder, _ in
                var held = holderInbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                let hello = try await Self.next(&held)
                let page = try #require((hello["pages"] as? [[String: Any]])?.first?["id"] as? String)
                try await holder.write(.text(##"{"t":"down","k":"a:1","page":"\##(page)","pt":[10,10,0.5],"tool":"pen","color":"#000000","w":3}"##))
                try await holder.write(.text(#"{"t":"move","k":"a:1","pts":[[20,20,0.5]]}"#))
                try await client.ws("/api/notes/\(stored.note.id)/live") { inbound, outbound, _ in
                    var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                    _ = try await Self.next(&messages)
                    try await outbound.write(.text(##"{"t":"down","k":"b:1","page":"\##(page)","pt":[500,10,0.5],"tool":"pen","color":"#000000","w":3}"##))
                    try await outbound.write(.text(#"{"t":"move","k":"b:1","pts":[[520,30,0.5]]}"#))
                    try await outbound.write(.text(#"{"t":"up","k":"b:1"}"#))
                    let drawn = try await Self.nextChange(&messages) { ($0["keys"] as? [String]) == ["b:1"] }
                    #expect(drawn["strokes"] as? Int == 1, "B's stroke is on the page, confirmed, while A's pen is down")
                    try await outbound.write(.text(##"{"t":"erase","page":"\##(page)","ids":[1]}"##))
                    _ = try await Self.nextChange(&messages) { $0["strokes"] as? Int == 0 }
                    try await outbound.write(.text(#"{"t":"undo"}"#))
                    _ = try await Self.nextChange(&messages) { $0["strokes"] as? Int == 1 }
                    try await outbound.close(.normalClosure, reason: nil)
                }
                try await holder.write(.text(#"{"t":"up","k":"a:1"}"#))
                let ended = try await Self.nextChange(&held) { ($0["keys"] as? [String]) == ["a:1"] }
                #expect(ended["strokes"] as? Int == 2)
                try await holder.close(.normalClosure, reason: nil)
            }
        }
    }

    @Test(.timeLimit(.minutes(20)))
    func aBrowserJoiningWhileEveryOtherTabIsHiddenCanWrite() async throws {
        let stored = try workspace.library.createNote(title: "Hidden tabs")
        try await app().test { client in
            try await client.ws("/api/notes/\(stored.note.id)/live") { hiddenInbound, hidden, _ in
                var first = hiddenInbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                let hello = try await Self.next(&first)
                let page = try #require((hello["pages"] as? [[String: Any]])?.first?["id"] as? String)
                // The only tab goes to the background (another tab opened in its window): the session sleeps.
                try await hidden.write(.text(#"{"t":"visibility","hidden":true}"#))
                try await Task.sleep(for: .milliseconds(100))
                try await client.ws("/api/notes/\(stored.note.id)/live") { inbound, outbound, _ in
                    var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                    _ = try await Self.next(&messages)
                    try await outbound.write(.text(##"{"t":"down","k":"b:1","page":"\##(page)","pt":[500,10,0.5],"tool":"pen","color":"#000000","w":3}"##))
                    try await outbound.write(.text(#"{"t":"up","k":"b:1"}"#))
                    let drawn = try await Self.nextChange(&messages) { ($0["keys"] as? [String]) == ["b:1"] }
                    #expect(drawn["strokes"] as? Int == 1, "the new tab's stroke is drawn and confirmed")
                    try await outbound.close(.normalClosure, reason: nil)
                }
                try await hidden.close(.normalClosure, reason: nil)
            }
        }
    }

    @Test func aPageOnAPDFLinksItsBackgroundOnceInsteadOfEmbeddingItInEveryUpdate() async throws {
        // A one-page PDF (Inkwell's own export of a page with a stroke), imported to write on.
        let source = Page(id: PageID(rawValue: "8d2h5k0w3q1r"), size: .a4Points,
                          strokes: [Stroke(id: StrokeID(1), width: 8, points: [InkPoint(x: 100, y: 100), InkPoint(x: 400, y: 300)])])
        let pdf = folder.deletingLastPathComponent().appendingPathComponent("paper-\(UUID().uuidString).pdf")
        try Data(try Renderer().pdf([source])).write(to: pdf)
        defer { try? FileManager.default.removeItem(at: pdf) }
        let report = Importer(library: workspace.library).run([pdf], replayer: NoteReplayer(), keepGoing: false)
        let id = try #require(report.imported.first?.notes.first?.id, "\(report.failures)")
        let plain = try workspace.library.createNote(title: "Plain")
        let page = try #require(try workspace.library.pages(of: workspace.library.note(matching: id.rawValue)).first)
        let address = WebServer.backgroundAddress(note: id, page: page, try #require(page.template.background))
        try await app().test { client in
            try await client.ws("/api/notes/\(id)/live") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                let hello = try await Self.next(&messages)
                let svg = try #require((hello["pages"] as? [[String: Any]])?.first?["paper"] as? String)
                #expect(!svg.contains("data:image/png"))
                #expect(svg.contains("xlink:href=\"\(address.replacingOccurrences(of: "&", with: "&amp;"))\""), "\(svg.prefix(600))")
                try await outbound.close(.normalClosure, reason: nil)
            }
            try await client.execute(uri: address, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(Array(response.body.readableBytesView.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            }
            // A note without such a page: not found (an address never reads outside the note's pages).
            try await client.execute(uri: "/api/notes/\(plain.note.id)/pages/8d2h5k0w3q1r/background.png", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func aStrokeOnAFullPageSendsThatStrokeAloneAndEraseUndoRedoSendIDs() async throws {
        // A page of 1,500 strokes of 40 points: the old page update was the whole page's SVG (~230 KB).
        let stored = try workspace.library.createNote(title: "Dense")
        let pageID = PageID.random()
        let strokes = (1...1500).map { (i: Int) -> Stroke in
            let x0 = Float(20 + (i % 40) * 34), y0 = Float(20 + (i / 40) * 45)
            let points = (0..<40).map { (j: Int) -> InkPoint in InkPoint(x: x0 + Float(j) * 0.7, y: y0 + Float(j % 9 * 2), pressure: 0.5) }
            return Stroke(id: StrokeID(UInt64(i)), width: 3, points: points)
        }
        try workspace.library.save([PageDelta(pageID: pageID, isNew: true, addedStrokes: strokes)], to: stored.note.id)
        try await app().test { client in
            // (The hello carries the 1,500 strokes: bigger than the test client's default frame.)
            try await client.ws("/api/notes/\(stored.note.id)/live", configuration: .init(maxFrameSize: 1 << 24)) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
                let hello = try await Self.next(&messages)
                let page = try #require((hello["pages"] as? [[String: Any]])?.first)
                #expect((page["ink"] as? [Any])?.count == 1500)
                #expect((page["paper"] as? String)?.contains("<path fill=\"#") == false, "the paper has no ink")
                try await outbound.write(.text(##"{"t":"down","k":"w1:1","page":"\##(pageID)","pt":[700,1800,0.2],"tool":"pen","color":"#1f4fbf","w":3}"##))
                let points = (1..<40).map { "[\(700 + $0 * 3),\(1800 + $0 % 5),0.6]" }.joined(separator: ",")
                try await outbound.write(.text(#"{"t":"move","k":"w1:1","pts":[\#(points)]}"#))
                try await outbound.write(.text(#"{"t":"up","k":"w1:1"}"#))
                let (added, addedBytes) = try await Self.nextInk(&messages)
                #expect(added["keys"] as? [String] == ["w1:1"])
                #expect(added["strokes"] as? Int == 1501)
                let ink = try #require((added["add"] as? [[String: Any]])?.first)
                let id = try #require(ink["id"] as? Int)
                #expect(id == 1501 && (added["add"] as? [Any])?.count == 1 && (added["remove"] as? [Any])?.isEmpty == true)
                #expect(ink["before"] == nil, "a new stroke goes on top")
                #expect(addedBytes <= 8 * 1024, "\(addedBytes) bytes for one 40-point stroke")
                // Erase, undo, redo: removals and adds by id, never the page.
                try await outbound.write(.text(##"{"t":"erase","page":"\##(pageID)","ids":[1501, 7]}"##))
                let (erased, _) = try await Self.nextInk(&messages)
                #expect(Set(erased["remove"] as? [Int] ?? []) == [1501, 7] && (erased["add"] as? [Any])?.isEmpty == true)
                try await outbound.write(.text(#"{"t":"undo"}"#))
                let (undone, _) = try await Self.nextInk(&messages)
                let back = try #require(undone["add"] as? [[String: Any]])
                #expect(Set(back.compactMap { $0["id"] as? Int }) == [1501, 7])
                // Stroke 7 goes back under the strokes drawn after it, where the page has it.
                if let seven = back.first(where: { $0["id"] as? Int == 7 }), let before = seven["before"] as? Int {
                    #expect(before > 7 && before != 1501)
                }
                try await outbound.write(.text(#"{"t":"redo"}"#))
                let (redone, _) = try await Self.nextInk(&messages)
                #expect(Set(redone["remove"] as? [Int] ?? []) == [1501, 7])
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
    }

    @Test func aStrokeUndoneAndANewOneAfterTheNoteClosedNeverShareAnID() async throws {
        let stored = try workspace.library.createNote(title: "Ids")
        let library = workspace.library
        try await app().test { client in
            func drawn(_ key: String, undo: Bool) async throws -> Int {
                let given = Given()
                try await client.ws("/api/notes/\(stored.note.id)/live") { inbound, outbound, _ in
                    var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                    let hello = try await Self.next(&messages)
                    let page = try #require((hello["pages"] as? [[String: Any]])?.first?["id"] as? String)
                    try await outbound.write(.text(##"{"t":"down","k":"\##(key)","page":"\##(page)","pt":[10,10,0.2],"tool":"pen","color":"#000000","w":3}"##))
                    try await outbound.write(.text(#"{"t":"move","k":"\#(key)","pts":[[20,20,0.5]]}"#))
                    try await outbound.write(.text(#"{"t":"up","k":"\#(key)"}"#))
                    let (added, _) = try await Self.nextInk(&messages)
                    let id = try #require((added["add"] as? [[String: Any]])?.first?["id"] as? Int)
                    await given.set(id)
                    if undo {
                        try await outbound.write(.text(#"{"t":"undo"}"#))
                        let (undone, _) = try await Self.nextInk(&messages)
                        #expect(undone["remove"] as? [Int] == [id])
                    }
                    try await outbound.close(.normalClosure, reason: nil)
                }
                // The last browser left: the note is saved and let go before the next one opens it.
                try await Self.eventually { library.leaseHolder(of: stored.note.id) == nil }
                return await given.id
            }
            let undone = try await drawn("w1:1", undo: true)
            let next = try await drawn("w1:2", undo: false)
            #expect(next > undone, "stroke \(undone) was undone; the next stroke took id \(next)")
        }
    }

    @Test func aNoteOpenForWritingIsNotMovedToAnotherNotebookAndNothingChanges() async throws {
        let stored = try workspace.library.createNote(title: "Open")
        try workspace.library.save([PageDelta(pageID: .random(), isNew: true)], to: stored.note.id)
        let before = try snapshot()
        let change = try body(["notebook": "Archive", "title": "Moved"])
        try await app().test { client in
            try await client.ws("/api/notes/\(stored.note.id)/live") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                _ = try await Self.next(&messages)  // the hello: the note is open for writing
                try await client.execute(uri: "/api/notes/\(stored.note.id)", method: .patch,
                                         headers: [.contentType: "application/json"], body: change) { response in
                    #expect(response.status == .conflict)
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        #expect(try snapshot() == before, "neither moved nor renamed")
    }

    @Test func aMalformedMessageClosesThatSocketWithTheReasonAndChangesNothing() async throws {
        let stored = try workspace.library.createNote(title: "Careful")
        try workspace.library.save([PageDelta(pageID: .random(), isNew: true, addedStrokes: [
            Stroke(id: StrokeID(1), points: [InkPoint(x: 100, y: 100), InkPoint(x: 400, y: 300)]),
        ])], to: stored.note.id)
        let before = try snapshot()
        let pagesBefore = try workspace.library.pages(of: workspace.library.note(matching: stored.note.id.rawValue))
        let bad = [
            "not json",
            #"{"t":"down"}"#,
            ##"{"t":"down","k":"a b","page":"x","pt":[1,2,0.5],"tool":"pen","color":"#000000","w":2}"##,
            #"{"t":"move","k":"w:1","pts":[[1e400,2,0.5]]}"#,
            #"{"t":"teleport"}"#,
        ]
        for message in bad {
            try await app().test { client in
                let close = try await client.ws("/api/notes/\(stored.note.id)/live") { inbound, outbound, _ in
                    var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                    _ = try await Self.next(&messages)
                    try await outbound.write(.text(message))
                    while try await messages.next() != nil {}
                }
                #expect(close?.closeCode == .unacceptableData, "\(message)")
                #expect(close?.reason?.isEmpty == false, "\(message)")
            }
        }
        #expect(try snapshot() == before)
        #expect(try workspace.library.pages(of: workspace.library.note(matching: stored.note.id.rawValue)) == pagesBefore)
    }

    @Test func aMessageOverTheLimitInOneFrameIsClosedWith1003AndChangesNothing() async throws {
        let stored = try workspace.library.createNote(title: "Big")
        try workspace.library.save([PageDelta(pageID: .random(), isNew: true)], to: stored.note.id)
        let before = try snapshot()
        let pagesBefore = try workspace.library.pages(of: workspace.library.note(matching: stored.note.id.rawValue))
        // 300 KB of points in one frame, as a browser sends a message (the limit is 256 KB).
        let points = Array(repeating: "[10,10,0.5]", count: 300 * 1024 / 12).joined(separator: ",")
        let message = #"{"t":"move","k":"w:1","pts":[\#(points)]}"#
        #expect(message.utf8.count > ClientMessage.maxBytes)
        try await app().test { client in
            let close = try await client.ws("/api/notes/\(stored.note.id)/live", configuration: .init(maxFrameSize: 1 << 20)) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                _ = try await Self.next(&messages)
                try await outbound.write(.text(message))
                while try await messages.next() != nil {}
            }
            #expect(close?.closeCode == .unacceptableData)
            #expect(close?.reason?.contains("at most \(ClientMessage.maxBytes)") == true, "\(String(describing: close?.reason))")
        }
        #expect(try snapshot() == before)
        #expect(try workspace.library.pages(of: workspace.library.note(matching: stored.note.id.rawValue)) == pagesBefore)
    }

    @Test func socketsOfOtherOriginsAndUnknownNotesAreRefused() async throws {
        let stored = try workspace.library.createNote(title: "Mine")
        try await app().test { client in
            await #expect(throws: (any Error).self) {
                try await client.ws("/api/notes/\(stored.note.id)/live",
                                    configuration: .init(additionalHeaders: [.origin: "http://attacker.example"])) { _, _, _ in }
            }
            await #expect(throws: (any Error).self) {
                try await client.ws("/api/notes/zzzzzzzzzzzz/live") { _, _, _ in }
            }
        }
    }

    // MARK: Helpers

    static func next(_ iterator: inout WebSocketInboundMessageStream.AsyncIterator) async throws -> [String: Any] {
        guard case .text(let text) = try #require(try await iterator.next()) else { throw CancellationError() }
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The next change of a page (an `ink` message, or a whole `page`) that `matches` (both carry
    /// `keys` and `strokes`), skipping everything else.
    static func nextChange(_ iterator: inout WebSocketInboundMessageStream.AsyncIterator,
                         where matches: ([String: Any]) -> Bool) async throws -> [String: Any] {
        while true {
            let message = try await next(&iterator)
            if ["page", "ink"].contains(message["t"] as? String), matches(message) { return message }
        }
    }

    /// The next `ink` message (other messages skipped) and its size in bytes.
    static func nextInk(_ iterator: inout WebSocketInboundMessageStream.AsyncIterator) async throws -> ([String: Any], Int) {
        while true {
            guard case .text(let text) = try #require(try await iterator.next()) else { throw CancellationError() }
            let message = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(message["t"] as? String != "page", "a whole page where a change of strokes was due")
            if message["t"] as? String == "ink" { return (message, text.utf8.count) }
        }
    }

    /// A stroke id the socket's closure saw.
    actor Given {
        var id = 0
        func set(_ id: Int) { self.id = id }
    }

    static func eventually(_ condition: () throws -> Bool) async throws {
        for _ in 0..<100 {
            if (try? condition()) == true { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try condition())
    }
}

/// The socket's message decoder on bytes nobody meant: every input is a message or a refusal with a
/// reason, never a crash (mutations of valid messages, seeded, so a failure repeats).
@Suite struct ClientMessageDecodingTests {
    static let valid = [
        ##"{"t":"down","k":"w1:1","page":"8d2h5k0w3q1r","pt":[10,10,0.2,0.5,1],"tool":"pen","color":"#1f4fbf","w":3}"##,
        #"{"t":"move","k":"w1:1","pts":[[20,20,0.5],[30,25,0.9,0.8,1.2]]}"#,
        #"{"t":"up","k":"w1:1"}"#,
        #"{"t":"eraseAlong","page":"8d2h5k0w3q1r","pts":[[1,2,0.5],[3,4,0.5]],"r":15}"#,
        #"{"t":"erase","page":"8d2h5k0w3q1r","ids":[1,2,3]}"#,
        #"{"t":"eraseAlong","page":"8d2h5k0w3q1r","pts":[[1,2,0.5]],"r":15,"k":"w1:a-4"}"#,
        #"{"t":"erase","page":"8d2h5k0w3q1r","ids":[1],"k":"w1:a-5"}"#,
        #"{"t":"undo","k":"w1:a-6"}"#,
        #"{"t":"redo","k":"w1:a-7"}"#,
        #"{"t":"tap","x":10,"y":20,"n":2}"#,
        #"{"t":"addPage","template":"grid"}"#,
        #"{"t":"visibility","hidden":true}"#,
        #"{"t":"nav"}"#,
        #"{"t":"answer","a":"save"}"#,
    ]

    @Test func aBrowsersWriterIDIsTakenOnlyWhenWellFormed() {
        #expect(WebServer.writerID("3f2a-b9C1") == "browser:3f2a-b9C1")
        #expect(WebServer.writerID(String(repeating: "a", count: 64)) == "browser:" + String(repeating: "a", count: 64))
        for refused in [nil, "", String(repeating: "a", count: 65), "a:b", "../x", "é", "a b", "a\u{0}"] {
            #expect(WebServer.writerID(refused) == nil, "\(String(describing: refused))")
        }
    }

    @Test func everyValidMessageDecodes() throws {
        for text in Self.valid { _ = try ClientMessage.decode(text) }
    }

    @Test func everyMessageRoundTripsThroughItsJSON() throws {
        for text in Self.valid + [#"{"t":"undo"}"#, #"{"t":"redo"}"#, #"{"t":"leave"}"#, #"{"t":"sendPage","page":"8d2h5k0w3q1r"}"#,
                                  #"{"t":"answer","a":"discard"}"#, #"{"t":"answer","a":"stay"}"#] {
            let message = try ClientMessage.decode(text)
            #expect(try ClientMessage.decode(message.json) == message, "\(text) → \(message.json)")
        }
        let ink = ServerMessage.StrokeInk(id: 12, under: false, svg: "<path fill=\"#000000\" d=\"M1 2l3 4z\"/>", before: 3)
        let page = ServerMessage.PageView(id: "8d2h5k0w3q1r", width: 1404, height: 1872, template: "grid", tolerance: 0.31, strokes: 2,
                                          paper: "<svg/>", ink: [ink], wholeInk: nil, keys: ["w:1"])
        let server: [ServerMessage] = [
            .hello(.init(note: .init(id: "n", title: "T", notebook: "Inbox"), pages: [page], nav: true, saving: .init(state: "saved"),
                         tags: ["a"])),
            .page(page), .ink(.init(page: "8d2h5k0w3q1r", strokes: 1, add: [ink], remove: [4, 5], keys: [])),
            .nav(visible: false), .saving(.init(state: "retrying", in: 3.5, reason: "disk full")), .tags(["x", "y"]),
            .confirmLeave, .left, .error("nope"),
        ]
        for message in server {
            #expect(try JSONDecoder().decode(ServerMessage.self, from: Data(message.json.utf8)) == message, "\(message.json)")
        }
        // The names and fields the browser reads.
        #expect(ServerMessage.nav(visible: true).json == #"{"t":"nav","visible":true}"#)
        #expect(ServerMessage.ink(.init(page: "p", strokes: 1, add: [], remove: [2], keys: ["k"])).json
                == #"{"add":[],"keys":["k"],"page":"p","remove":[2],"strokes":1,"t":"ink"}"#)
    }

    @Test func eachWrongFieldIsRefusedNamingIt() {
        let cases: [(String, String)] = [
            ("[1,2]", "not a JSON object"),
            ("{", "not a JSON object"),
            (#"{"k":"w:1"}"#, #""t" must be a string"#),
            (##"{"t":"down","k":"w:1","page":"8d2h5k0w3q1r","pt":[1,2,0.5],"tool":"brush","color":"#000000","w":2}"##, "unknown tool"),
            (#"{"t":"down","k":"w:1","page":"8d2h5k0w3q1r","pt":[1,2,0.5],"tool":"pen","color":"black","w":2}"#, "colour is not #rrggbb"),
            (##"{"t":"down","k":"w:1","page":"8d2h5k0w3q1r","pt":[1,2,0.5],"tool":"pen","color":"#000000","w":900}"##, #""w" must be a number in 0.1…200.0"#),
            (##"{"t":"down","k":"w:1","page":"8d2h5k0w3q1r","pt":[1,2],"tool":"pen","color":"#000000","w":2}"##, "a point is [x, y, pressure]"),
            (#"{"t":"move","k":"w 1","pts":[]}"#, #""k" must be a stroke key"#),
            (#"{"t":"move","k":"w:1","pts":"none"}"#, #""pts" must be an array of points"#),
            (#"{"t":"undo","k":"../1"}"#, #""k" must be a stroke key"#),
            (#"{"t":"erase","page":"8d2h5k0w3q1r","ids":[1.5]}"#, #""ids" must be an array of whole numbers"#),
            (#"{"t":"erase","page":"../etc","ids":[1]}"#, #""page" is not a page id"#),
            (#"{"t":"visibility","hidden":"yes"}"#, #""hidden" must be true or false"#),
            (#"{"t":"addPage","template":"music"}"#, "unknown template music"),
            (#"{"t":"answer","a":"maybe"}"#, "unknown answer maybe"),
            (#"{"t":"teleport"}"#, "unknown message type teleport"),
            (#"{"t":"move","k":"w:1","pts":["# + Array(repeating: "[1,2,0.5]", count: 4097).joined(separator: ",") + "]}", "more than 4096 points"),
            (String(repeating: " ", count: 256 * 1024 + 1), "at most 262144"),
        ]
        for (text, reason) in cases {
            #expect(throws: MessageError.self, "\(text.prefix(80))") { try ClientMessage.decode(text) }
            do {
                _ = try ClientMessage.decode(text)
            } catch {
                #expect(error.description.contains(reason), "\(text.prefix(80)): \(error.description)")
            }
        }
    }

    @Test func mutatedMessagesDecodeOrAreRefusedWithAReason() {
        var random = SplitMix(seed: 20261125)
        let alphabet = Array(#"{}[]",:.-+eE0123456789tkpwxyzn"\ "#.utf8) + [0, 0xFF, 0xC3]
        var refused = 0
        for round in 0..<20_000 {
            var bytes = Array(Self.valid[round % Self.valid.count].utf8)
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let position = Int(random.next() % UInt64(bytes.count + 1))
                switch random.next() % 3 {
                case 0 where position < bytes.count: bytes.remove(at: position)
                case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
                default: if position < bytes.count { bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))] }
                }
            }
            do {
                _ = try ClientMessage.decode(String(decoding: bytes, as: UTF8.self))
            } catch let error as MessageError {
                #expect(!error.description.isEmpty)
                refused += 1
            } catch {
                Issue.record("\(error) is not a MessageError")
            }
        }
        #expect(refused > 1000, "the mutations must reach the refusals")
    }
}

/// A small seeded generator (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
