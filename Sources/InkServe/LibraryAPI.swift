import Foundation
import Hummingbird
import HummingbirdWebSocket
import InkwellKit
import NIOCore

/// The library over HTTP (JSON): listing, search, create, rename, move, pin, tag, delete and
/// restore, thumbnails and exports, each through the same Workspace and Library calls as the CLI.
extension WebServer {
    /// The address of the PNG of the PDF page under `page` (``Renderer/backgroundImage(_:)``): it names
    /// the document, the PDF page and the page's size and paper, so a browser may keep it for good.
    static func backgroundAddress(note: NoteID, page: Page, _ background: PageBackground) -> String {
        "/api/notes/\(note.rawValue)/pages/\(page.id.rawValue)/background.png?d=\(background.document.prefix(16))-\(background.page)"
            + "-\(Int(page.size.width))x\(Int(page.size.height))-\(page.template.paper.description.dropFirst())"
    }

    /// Request bodies are small JSON objects.
    static let maxBodyBytes = 64 * 1024
    /// The largest PDF uploaded to write on.
    static let maxUploadBytes = 64 << 20

    func addLibraryAPI(to router: Router<BasicWebSocketRequestContext>) {
        let workspace = workspace
        let library = workspace.library
        let thumbnails = thumbnails
        let backgroundImages = backgroundImages
        let uploads = uploads
        let rooms = rooms

        router.get("/api/library") { _, _ in
            try Self.guarded { try JSON.response(LibraryListing.make(workspace)) }
        }

        router.get("/api/search") { request, _ in
            try Self.guarded {
                let words = request.uri.queryParameters.get("q") ?? ""
                let tags = try request.uri.queryParameters.getAll("tag").filter { !$0.isEmpty }.map(Self.tag)
                guard !words.trimmingCharacters(in: .whitespaces).isEmpty || !tags.isEmpty else {
                    throw HTTPError(.badRequest, message: "give words to search for, or a tag")
                }
                let index = try workspace.index()
                try index.refresh(from: library)
                return try JSON.response(["hits": index.search(SearchQuery(text: words, tags: tags, limit: 50))])
            }
        }

        router.post("/api/notes") { request, _ in
            let body = try await Self.body(NewNote.self, of: request)
            return try Self.guarded {
                let notebook = try body.notebook.map(NotebookPath.init) ?? .inbox
                let stored = try library.createNote(title: body.title, in: notebook)
                return try JSON.response(LibraryNote(stored, states: [:]), status: .created)
            }
        }

        // A PDF to write on: the body is the PDF (`application/pdf`), imported as `inkwell import` does,
        // as a PDF and nothing else; one at a time, off the request threads.
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
            let imported = try await Self.offload {
                try Self.guarded {
                    let notebook = try notebookName.isEmpty ? .inbox : NotebookPath(notebookName)
                    var importer = Importer(library: library)
                    importer.title = title
                    importer.notebook = notebook
                    importer.source = "serve:pdf"
                    let outcome: Importer.FileOutcome
                    do {
                        outcome = try importer.importPDF(data, named: title + ".pdf", replayer: NoteReplayer())
                    } catch let error as ImportError {
                        throw HTTPError(.badRequest, message: "the PDF could not be imported: \(error.reason)")
                    }
                    guard let note = outcome.file.notes.first else { throw HTTPError(.badRequest, message: "the PDF could not be imported") }
                    return try JSON.response(LibraryNote(try Self.stored(note.id, in: library), states: [:]), status: .created)
                }
            }
            return imported
        }

        router.post("/api/notebooks") { request, _ in
            let body = try await Self.body(NewNotebook.self, of: request)
            return try Self.guarded {
                try library.createNotebook(try NotebookPath(body.path))
                return try JSON.response(["path": body.path], status: .created)
            }
        }

        router.patch("/api/notes/:id") { request, context in
            let id = try noteID(context)
            let change = try await Self.body(NoteChange.self, of: request)
            return try Self.guarded {
                _ = try Self.stored(id, in: library)
                // Everything is checked before anything is written: a bad field changes nothing.
                let title = try change.title.map(Library.validTitle)
                let add = try Set((change.addTags ?? []).map(Self.tag)), remove = try Set((change.removeTags ?? []).map(Self.tag))
                let notebook = try change.notebook.map(NotebookPath.init)
                let placement = try change.place.map(Self.placement)
                if title != nil || change.pinned != nil {
                    _ = try library.updateNote(id) { note in
                        if let title { note.title = title }
                        if let pinned = change.pinned { note.pinned = pinned }
                    }
                }
                if !add.isEmpty || !remove.isEmpty { _ = try workspace.tag(id, add: add, remove: remove) }
                if notebook != nil || placement != nil {
                    _ = try library.moveNote(id, to: notebook, placement: placement)
                }
                return try JSON.response(LibraryNote(try Self.stored(id, in: library), states: [:]))
            }
        }

        router.delete("/api/notes/:id") { _, context in
            let id = try noteID(context)
            if await rooms.openNote(id) != nil {
                throw HTTPError(.conflict, message: "the note is open for writing; close it first")
            }
            return try Self.guarded {
                _ = try Self.stored(id, in: library)
                return try JSON.response(try library.deleteNote(id))
            }
        }

        router.get("/api/trash") { _, _ in
            try Self.guarded { try JSON.response(["items": library.trashItems()]) }
        }

        router.post("/api/trash/:item/restore") { _, context in
            let item = context.parameters.get("item") ?? ""
            guard item.count <= 64, item.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw HTTPError(.badRequest, message: "not a trash item id")
            }
            return try Self.guarded { try JSON.response(try library.restore(item)) }
        }

        router.get("/api/notes/:id/thumbnail.png") { _, context in
            let id = try noteID(context)
            return try Self.guarded {
                let stored = try Self.stored(id, in: library)
                guard let png = try thumbnails.thumbnail(of: stored, in: library) else { return Response(status: .noContent) }
                return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "private, max-age=31536000, immutable"],
                                body: .init(byteBuffer: ByteBuffer(bytes: png)))
            }
        }

        router.get("/api/notes/:id/pages/:page/background.png") { request, context in
            let id = try noteID(context)
            guard let raw = context.parameters.get("page"), PageID.isWellFormed(raw) else {
                throw HTTPError(.badRequest, message: "not a page id")
            }
            let live = await rooms.openNote(id)
            let livePages = await live?.pages
            let liveBackgrounds = live?.backgrounds
            let asked = request.uri.queryParameters.get("d").map { String($0) }
            return try await Self.offload {
                try Self.guarded {
                    let stored = try Self.stored(id, in: library)
                    let pages = try livePages ?? library.pages(of: stored)
                    guard let page = pages.first(where: { $0.id == PageID(rawValue: raw) }), let background = page.template.background else {
                        throw HTTPError(.notFound, message: "page \(raw) is not drawn on a PDF page")
                    }
                    // Kept for good only under the address naming what is drawn now (a request racing a
                    // change of the page gets today's picture, not cached).
                    let address = WebServer.backgroundAddress(note: id, page: page, background)
                    let current = address.hasSuffix("?d=" + (asked ?? "\u{0}"))
                    let png = try backgroundImages.image(address) {
                        var options = RenderOptions()
                        options.backgrounds = liveBackgrounds ?? library.backgroundDocuments(of: stored)
                        return Renderer(options: options).backgroundImage(page)
                    }
                    guard let png else { throw HTTPError(.notFound, message: "page \(raw) is not drawn on a PDF page Inkwell can read") }
                    return Response(status: .ok, headers: [.contentType: "image/png",
                                                           .cacheControl: current ? "private, max-age=31536000, immutable" : "no-store"],
                                    body: .init(byteBuffer: ByteBuffer(bytes: png)))
                }
            }
        }

        router.get("/api/notes/:id/pages/:page/strokes") { _, context in
            let id = try noteID(context)
            guard let raw = context.parameters.get("page"), PageID.isWellFormed(raw) else {
                throw HTTPError(.badRequest, message: "not a page id")
            }
            let pageID = PageID(rawValue: raw)
            let live = await rooms.openNote(id)
            let livePages = await live?.pages
            return try Self.guarded {
                let pages = try livePages ?? library.pages(of: try Self.stored(id, in: library))
                guard let page = pages.first(where: { $0.id == pageID }) else { throw HTTPError(.notFound, message: "no page \(raw) in this note") }
                return try JSON.response(RecordedPage(page))
            }
        }

        router.get("/api/notes/:id/export") { request, context in
            let id = try noteID(context)
            let format = request.uri.queryParameters.get("format") ?? "pdf"
            let scale = Double(request.uri.queryParameters.get("scale") ?? "1") ?? 0
            return try Self.guarded {
                let stored = try Self.stored(id, in: library)
                let download = try Download.note(stored, format: format, scale: scale, workspace: workspace)
                return download.response
            }
        }

        router.get("/api/notebooks/export") { request, _ in
            let notebook = request.uri.queryParameters.get("notebook") ?? "Inbox"
            return try Self.guarded {
                try Download.notebook(try NotebookPath(notebook), workspace: workspace).response
            }
        }
    }

    // MARK: Helpers

    /// Runs a library call, turning its errors into HTTP answers that say what went wrong.
    static func guarded(_ body: () throws -> Response) throws -> Response {
        do {
            return try body()
        } catch let error as HTTPError {
            throw error
        } catch let error as StoreError {
            switch error {
            case .noSuchNote, .noSuchNotebook, .noSuchTrashItem: throw HTTPError(.notFound, message: error.description)
            case .notebookExists, .ambiguousNote: throw HTTPError(.conflict, message: error.description)
            case .locked: throw HTTPError(.serviceUnavailable, message: error.description)
            case .invalid: throw HTTPError(.badRequest, message: error.description)
            default: throw HTTPError(.internalServerError, message: error.description)
            }
        } catch let error as NotebookPathError {
            throw HTTPError(.badRequest, message: error.description)
        } catch {
            throw HTTPError(.internalServerError, message: "\(error)")
        }
    }

    /// Runs blocking work (PDF import, rendering) on a queue of its own, so the request threads stay free.
    static func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            workQueue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Where ``offload(_:)`` runs: one job at a time.
    static let workQueue = DispatchQueue(label: "inkwell.serve.work", qos: .userInitiated)

    /// The note with exactly this id (never a title or prefix: ids come from URLs).
    static func stored(_ id: NoteID, in library: Library) throws -> StoredNote {
        guard let stored = try library.notes().first(where: { $0.note.id == id }) else { throw StoreError.noSuchNote(id.rawValue) }
        return stored
    }

    /// A JSON body of at most ``maxBodyBytes``, decoded, or a 400/413 saying why not.
    static func body<T: Decodable>(_ type: T.Type, of request: Request) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBodyBytes)
        } catch {
            throw HTTPError(.contentTooLarge, message: "the request body is larger than \(maxBodyBytes) bytes")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch {
            throw HTTPError(.badRequest, message: "the body is not the JSON expected: \(JSON.describe(error))")
        }
    }

    static func tag(_ name: String) throws -> Tag {
        guard let tag = Tag(name) else { throw HTTPError(.badRequest, message: "\"\(name)\" is not a tag") }
        return tag
    }

    static func placement(_ place: String) throws -> NotePlacement {
        switch place {
        case "first": return .first
        case "last": return .last
        default:
            let parts = place.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, NoteID.isWellFormed(parts[1]) else {
                throw HTTPError(.badRequest, message: "place is first, last, before:ID or after:ID")
            }
            let other = NoteID(rawValue: parts[1])
            switch parts[0] {
            case "before": return .before(other)
            case "after": return .after(other)
            default: throw HTTPError(.badRequest, message: "place is first, last, before:ID or after:ID")
            }
        }
    }
}

struct NewNote: Decodable { var title: String; var notebook: String? }
struct NewNotebook: Decodable { var path: String }
/// What a PATCH of a note may change; absent fields stay as they are.
struct NoteChange: Decodable {
    var title: String?
    var pinned: Bool?
    var notebook: String?
    /// first, last, before:ID or after:ID (in the notebook it ends up in).
    var place: String?
    var addTags: [String]?
    var removeTags: [String]?
}

/// A note as the library view lists it: the CLI's row, with its pages' recognition status and its
/// thumbnail's address.
struct LibraryNote: Encodable {
    var row: NoteRow
    /// Pages by recognition status (pending, processing, recognised, failed), those with any.
    var status: [String: Int]
    /// The thumbnail's address, changing with the note's content.
    var thumbnail: String?

    init(_ stored: StoredNote, states: [PageID: PageState]) {
        row = NoteRow(stored)
        let counts = PageState.counts(stored.note.pages.map { states[$0] ?? PageState(status: .pending) })
        status = Dictionary(uniqueKeysWithValues: counts.filter { $0.value > 0 }.map { ($0.key.rawValue, $0.value) })
        thumbnail = stored.note.pages.isEmpty ? nil : "/api/notes/\(row.id)/thumbnail.png?v=\(ThumbnailCache.version(of: stored))"
    }

    private enum CodingKeys: String, CodingKey { case status, thumbnail }

    /// The row's fields and these two, in one object.
    func encode(to encoder: any Encoder) throws {
        try row.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(thumbnail, forKey: .thumbnail)
    }
}

/// A page's strokes with their timing, for replay: points are `[x, y, pressure, ms since pen down]`.
struct RecordedPage: Encodable {
    struct Line: Encodable {
        var tool: String
        var color: String
        var width: Float
        /// Milliseconds from the page's first pen down.
        var start: Double
        var points: [[Float]]
    }
    var width: Float
    var height: Float
    var strokes: [Line]

    init(_ page: Page) {
        width = page.size.width
        height = page.size.height
        let origin = page.strokes.map(\.startTime).min() ?? 0
        strokes = page.strokes.sorted { $0.startTime < $1.startTime }.map { stroke in
            Line(tool: stroke.tool.description, color: String(stroke.color.description.prefix(7)), width: stroke.width,
                 start: stroke.startTime - origin, points: stroke.points.map { [$0.x, $0.y, $0.pressure, $0.time] })
        }
    }
}

/// The library view's data: notebooks and notes in listing order.
struct LibraryListing: Encodable {
    var notebooks: [String]
    var notes: [LibraryNote]

    static func make(_ workspace: Workspace) throws -> LibraryListing {
        let notes = try workspace.library.notes()
        let states = try workspace.existingIndex()?.pageStates(of: notes, in: workspace.library) ?? [:]
        return LibraryListing(notebooks: try workspace.library.notebooks().map(\.description),
                              notes: notes.map { LibraryNote($0, states: states) })
    }
}

/// JSON answers.
enum JSON {
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): "\"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        case .dataCorrupted: "not valid JSON"
        default: "\(error)"
        }
    }
}

/// First-page thumbnails, kept in memory by the note's content version (its pages and modification
/// time), so the library view renders each once.
/// The PNGs of PDF pages under pages, by address (``WebServer/backgroundAddress(note:page:_:)``): the
/// last 64 made, whoever asked.
final class BackgroundImageCache: @unchecked Sendable {
    private let lock = NSLock()
    private var images: [(key: String, png: [UInt8])] = []

    func image(_ key: String, make: () throws -> [UInt8]?) throws -> [UInt8]? {
        if let hit = lock.withLock({ images.first { $0.key == key }?.png }) { return hit }
        guard let png = try make() else { return nil }
        lock.withLock {
            images.removeAll { $0.key == key }
            images.append((key, png))
            if images.count > 64 { images.removeFirst() }
        }
        return png
    }
}

/// One upload at a time: a second is told to wait rather than doubling the memory held.
final class UploadGate: @unchecked Sendable {
    private let lock = NSLock()
    private var busy = false

    func begin() -> Bool {
        lock.withLock {
            if busy { return false }
            busy = true
            return true
        }
    }
    func end() { lock.withLock { busy = false } }
}

final class ThumbnailCache: @unchecked Sendable {
    private let lock = NSLock()
    private var cache: [String: [UInt8]] = [:]

    static func version(of stored: StoredNote) -> String {
        var hasher = Hasher()
        hasher.combine(stored.note.pages)
        let pages = UInt64(bitPattern: Int64(hasher.finalize())) % 1_000_000
        return "\(Int(stored.note.modified.timeIntervalSince1970))-\(pages)"
    }

    func thumbnail(of stored: StoredNote, in library: Library) throws -> [UInt8]? {
        let key = "\(stored.note.id.rawValue)/\(Self.version(of: stored))"
        if let hit = lock.withLock({ cache[key] }) { return hit }
        guard let first = try library.pages(of: stored).first else { return nil }
        var options = RenderOptions()
        options.backgrounds = library.backgroundDocuments(of: stored)
        let png = try Renderer(options: options).thumbnail(first, width: 256)
        lock.withLock {
            if cache.count > 5000 { cache.removeAll() }
            cache[key] = png
        }
        return png
    }
}
