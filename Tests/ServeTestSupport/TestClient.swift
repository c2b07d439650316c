import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

extension ApplicationProtocol {
    /// Runs the application on the address it is configured with (port 0: one the system picks)
    /// until `test` returns, `test` talking to it over real sockets with a ``TestClient``; then shuts
    /// it down gracefully, as a signal would.
    @discardableResult
    public func test<Value>(_ test: (TestClient) async throws -> Value) async throws -> Value {
        let (ports, port) = AsyncStream<Int>.makeStream()
        let services = ServiceGroup(configuration: .init(services: [Listening(base: self, port: port)], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { port.finish() }
                try await services.run()
            }
            guard let listening = await ports.first(where: { _ in true }) else {
                try await group.waitForAll()  // throws why the server did not start, if it says
                throw ClientError("the server ended without listening")
            }
            do {
                let value = try await test(TestClient(port: listening))
                await services.triggerGracefulShutdown()
                return value
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
        }
    }
}

/// `base`, telling `port` the port it listens on once it does.
struct Listening<Base: ApplicationProtocol>: ApplicationProtocol {
    typealias Responder = Base.Responder
    let base: Base
    let port: AsyncStream<Int>.Continuation

    var responder: Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        port.yield(channel.localAddress?.port ?? 0)
    }
}

/// A response as the server sent it, its body whole.
public struct TestResponse: Sendable {
    /// The status (compared by its code).
    public var status: HTTPResponse.Status
    /// The header fields, in the order sent.
    public var headers: HTTPFields
    /// The body, every part of it.
    public var body: ByteBuffer
}

/// What went wrong talking to the server, in words.
public struct ClientError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A client of a server on 127.0.0.1: each request over a new HTTP/1.1 connection, WebSocket
/// sessions with ``WebSocketClient``.
public struct TestClient: Sendable {
    /// The port the server listens on.
    public let port: Int

    /// Sends a request and hands the whole response to `check`. The request names its host as
    /// `Host: localhost` before `headers` (which may name another: a second Host header), and gives
    /// its body's length. There is no time limit: with the suite's other tests holding every thread
    /// of the process, a response may take minutes.
    @discardableResult
    public func execute<Value>(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
                               _ check: (TestResponse) async throws -> Value) async throws -> Value {
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method.rawValue), uri: uri)
        head.headers.add(name: "Host", value: "localhost")
        for field in headers { head.headers.add(name: field.name.rawName, value: field.value) }
        if let body { head.headers.replaceOrAdd(name: "Content-Length", value: "\(body.readableBytes)") }
        let connection = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        let response = try await connection.executeThenClose { inbound, outbound in
            try await outbound.write(.head(head))
            if let body { try await outbound.write(.body(.byteBuffer(body))) }
            try await outbound.write(.end(nil))
            var response: TestResponse?
            for try await part in inbound {
                switch part {
                case .head(let head):
                    let fields = head.headers.compactMap { name, value in HTTPField.Name(name).map { HTTPField(name: $0, value: value) } }
                    response = TestResponse(status: .init(code: Int(head.status.code), reasonPhrase: head.status.reasonPhrase),
                                            headers: HTTPFields(fields), body: ByteBuffer())
                case .body(var bytes):
                    response?.body.writeBuffer(&bytes)
                case .end:
                    if let response { return response }
                }
            }
            throw ClientError("\(method) \(uri): the connection closed before the whole response came")
        }
        return try await check(response)
    }

    /// Opens a WebSocket session at `path` (see ``WebSocketClient/connect(url:configuration:logger:handler:)``).
    @discardableResult
    public func ws(_ path: String, configuration: WebSocketClient.Configuration = .init(),
                   handler: @escaping WebSocketDataHandler<WebSocketClient.Context>) async throws -> WebSocketCloseFrame? {
        try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)\(path)", configuration: configuration,
                                          logger: Logger(label: "TestClient"), handler: handler)
    }
}
