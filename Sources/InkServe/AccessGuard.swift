import Foundation
import Hummingbird
import HTTPTypes

/// The access rules every request passes: the token (when the server has one), the Host header
/// (a server without a token answers only to loopback names, so a web page cannot reach it by
/// rebinding its own name to 127.0.0.1), and the security headers on every answer.
struct AccessGuard<Context: RequestContext>: RouterMiddleware {
    let token: String?
    let loopbackOnly: Bool
    static var cookieName: String { "inkwell_token" }

    /// The `Host` header as a field: the first becomes the request's authority, so any left here is one more.
    static var hostField: HTTPField.Name { HTTPField.Name("Host")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Two Host headers name two servers: a proxy in front may go by the other one than the check here.
        if request.headers[Self.hostField] != nil {
            throw HTTPError(.badRequest, message: "the request names its host more than once (one Host header)")
        }
        // Browsers always send Host; only a program can leave it out, and a program is not a web page.
        if loopbackOnly, let authority = request.head.authority, !Self.isLoopbackHost(authority) {
            throw HTTPError(.misdirectedRequest, message: "this server answers only to 127.0.0.1 and localhost")
        }
        // A page of another site may send requests here (a form, a fetch without CORS): anything that
        // changes the library must come from this server's own pages (or a program, which sends no Origin).
        if ![.get, .head].contains(request.method), let origin = request.headers[.origin], !Self.sameOrigin(request) {
            throw HTTPError(.forbidden, message: "requests that change the library must come from this server's pages, not \(origin)")
        }
        if let token {
            if let given = request.uri.queryParameters.get("token") {
                guard Self.same(given, token) else { throw HTTPError(.unauthorized, message: "wrong token") }
                // The token moves into a cookie and out of the address bar (and the history).
                // Back to the same path on this server (never `//elsewhere`).
                let path = "/" + request.uri.path.drop { $0 == "/" || $0 == "\\" }
                var response = Response(status: .seeOther, headers: [.location: path])
                response.headers[.setCookie] = "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
                return Self.secured(response)
            }
            let cookie = request.cookies[Self.cookieName]?.value
            let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            guard let presented = cookie ?? bearer, Self.same(presented, token) else {
                throw HTTPError(.unauthorized, message: "this server needs its token: open the address `inkwell serve` printed (…/?token=…)")
            }
        }
        do {
            return Self.secured(try await next(request, context))
        } catch let error as HTTPError {
            var headers = error.headers
            Self.secure(&headers)
            throw HTTPError(error.status, headers: headers, message: error.body)
        }
    }

    static func secured(_ response: Response) -> Response {
        var response = response
        secure(&response.headers)
        return response
    }

    static func secure(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
    }

    /// Whether a WebSocket upgrade comes from a page of this server: its Origin is this host and port.
    /// A program may send none, or a ws:// origin naming this host (WebSocket clients leave the port out).
    static func sameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return true }
        let authority = request.head.authority ?? ""
        if origin == "http://\(authority)" || origin == "https://\(authority)" { return true }
        let hostname = authority.hasPrefix("[") ? String(authority.prefix { $0 != "]" }) + "]"
            : String(authority.prefix { $0 != ":" })
        return origin == "ws://\(hostname)" || origin == "wss://\(hostname)"
    }

    /// Whether `authority` (a Host header: a name or address and an optional port, nothing else)
    /// names this machine's loopback. Userinfo (`127.0.0.1:80@evil.example` names evil.example) and
    /// a port that is not a number are refused.
    static func isLoopbackHost(_ authority: String) -> Bool {
        var host = authority
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return false }
            port = rest.isEmpty ? nil : rest.dropFirst()
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            port = host[host.index(after: colon)...]
            host = String(host[..<colon])
        }
        if let port, port.isEmpty || port.count > 5 || !port.allSatisfy({ $0.isASCII && $0.isNumber }) { return false }
        if host == "localhost" || host == "::1" { return true }
        // An address in 127.0.0.0/8 written as four numbers: a name such as 127.attacker.example is not one.
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }
    }

    /// Compares without stopping at the first difference.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension HTTPField.Name {
    static var xContentTypeOptions: Self { .init("X-Content-Type-Options")! }
    static var referrerPolicy: Self { .init("Referrer-Policy")! }
}
