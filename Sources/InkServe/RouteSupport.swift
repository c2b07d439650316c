import Foundation
import Hummingbird
import InkwellKit
import NIOCore

/// What every route of the library API shares: limits, running work off the request threads, error
/// answers, and parsing what requests carry.
extension WebServer {
    /// Request bodies are small JSON objects.
    static let maxBodyBytes = 64 * 1024
    /// The largest PDF uploaded to write on.
    static let maxUploadBytes = 64 << 20

    /// Runs `body`, blocking work on the library, index or renderer, on ``BlockingExecutor/shared`` (never
    /// on the request threads of the cooperative pool), its errors turned into HTTP answers by ``guarded(_:)``.
    static func blocking(_ body: @escaping @Sendable () throws -> Response) async throws -> Response {
        try await BlockingExecutor.shared.run { try guarded(body) }
    }

    /// Runs a workspace call, turning its errors into HTTP answers that say what went wrong.
    static func guarded(_ body: () throws -> Response) throws -> Response {
        do {
            return try body()
        } catch let error as HTTPError {
            throw error
        } catch let error as NotebookPathError {
            throw HTTPError(.badRequest, message: error.description)
        } catch {
            switch LibraryFailure(error) {
            case .notFound: throw HTTPError(.notFound, message: "\(error)")
            case .conflict: throw HTTPError(.conflict, message: "\(error)")
            case .busy: throw HTTPError(.serviceUnavailable, message: "\(error)")
            case .invalid: throw HTTPError(.badRequest, message: "\(error)")
            case .other, nil: throw HTTPError(.internalServerError, message: "\(error)")
            }
        }
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

    static func placement(_ place: String) throws -> NotePlace {
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

    /// The page id in the route, checked to be an id (never a path).
    static func pageID(_ context: some RequestContext) throws -> PageID {
        guard let raw = context.parameters.get("page"), PageID.isWellFormed(raw) else {
            throw HTTPError(.badRequest, message: "not a page id")
        }
        return PageID(rawValue: raw)
    }
}
