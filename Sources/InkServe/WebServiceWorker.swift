import Foundation
import Hummingbird
import InkwellKit

/// The service worker, `/sw.js`: `Web/sw.js` with what it keeps written above it — the addresses of
/// the pages' shell (every file in ``WebAssets`` and `rules.js`) and a version naming the server and
/// those files' bytes. A server whose files differ (a new version, or other rules) serves other bytes,
/// so the browser installs the new worker, which fills a new cache and drops the old one.
struct WebServiceWorker {
    let script: [UInt8]

    init(rules: WebRules) {
        let shell = ["/", "/manifest.webmanifest"] + (WebAssets.names + [WebRules.name]).map { "/assets/\($0)" }
        let files = WebAssets.names.flatMap(WebAssets.bytes) + rules.script + PackageResources.sw_js
        let version = "\(InkwellVersion.current)-\(FNV1a.hex(files).prefix(12))"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Strings only: encoding cannot fail.
        let list = (try? encoder.encode(shell)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        script = Array("// Written by inkwell serve (Sources/InkServe/WebServiceWorker.swift).\nconst VERSION = \"\(version)\";\nconst SHELL = \(list);\n".utf8)
            + PackageResources.sw_js
    }

    var response: Response {
        Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                 body: .init(byteBuffer: ByteBuffer(bytes: script)))
    }
}
