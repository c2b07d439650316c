import Foundation
import Hummingbird
import InkwellKit

/// The rules the browser shares with the engine, as the JavaScript module `/assets/rules.js`:
/// `export const RULES = {ink, limits}` — ``InkRules`` (each tool's shape and look, the stroke
/// geometry's constants, the session's top band) and the socket's limits (``ClientMessage``), written
/// from the Swift values when the server starts so that no number is typed twice.
struct WebRules {
    /// The asset's name under `/assets/`.
    static let name = "rules.js"
    let script: [UInt8]

    private struct Body: Encodable {
        struct Limits: Encodable { var message, points: Int }
        var ink: InkRules
        var limits: Limits
    }

    init(session: SessionConfig) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = Body(ink: InkRules(session: session), limits: .init(message: ClientMessage.maxBytes, points: ClientMessage.maxPoints))
        // Plain numbers, strings and booleans: encoding cannot fail.
        let json = (try? encoder.encode(body)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        script = Array("// Written by inkwell serve from the engine's values (Sources/InkServe/WebRules.swift).\nexport const RULES = \(json);\n".utf8)
    }

    var response: Response {
        Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                 body: .init(byteBuffer: ByteBuffer(bytes: script)))
    }
}
