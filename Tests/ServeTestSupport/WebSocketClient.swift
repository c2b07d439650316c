import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
// The frames, messages and close handshake are WSCore's, as on the server's side of the socket.
@_exported import WSCore
@_spi(WSInternal) import WSCore

/// A WebSocket client for `ws://` addresses: the HTTP/1.1 upgrade over NIO, then WSCore's handling
/// of the session (text and binary messages, ping, the close handshake; frames masked as RFC 6455
/// asks of a client).
public enum WebSocketClient {
    /// What the session's handler is given besides the socket.
    public struct Context: WebSocketContext {
        /// The logger `connect` was given.
        public let logger: Logger
    }

    /// The session's frame size and the upgrade request's own headers.
    public struct Configuration: Sendable {
        /// The largest frame the client reads (the outbound writer's `writeTextMessage` and
        /// `writeBinaryMessage` split messages into frames of this size; `write` sends one frame).
        public var maxFrameSize: Int
        /// Headers of the upgrade request; each replaces the client's own field of its name (Host, Origin).
        public var additionalHeaders: HTTPFields

        /// Frames of up to 16 KiB, and no headers of the test's own.
        public init(maxFrameSize: Int = 1 << 14, additionalHeaders: HTTPFields = [:]) {
            self.maxFrameSize = maxFrameSize
            self.additionalHeaders = additionalHeaders
        }
    }

    /// Connects to `url` (`ws://host:port/path?query`), asking for the upgrade with `Host` and an
    /// `Origin` of `ws://host`, and runs `handler` on the session. Throws if the server refuses the
    /// upgrade. Returns how the server closed the socket (nil if it did not say).
    @discardableResult
    public static func connect(url: String, configuration: Configuration = .init(), logger: Logger,
                               handler: @escaping WebSocketDataHandler<Context>) async throws -> WebSocketCloseFrame? {
        guard let address = URLComponents(string: url), address.scheme == "ws", let host = address.host else {
            throw ClientError("not a ws:// address: \(url)")
        }
        let port = address.port ?? 80
        var headers = HTTPHeaders([("Host", "\(host):\(port)"), ("Origin", "ws://\(host)")])
        for field in configuration.additionalHeaders { headers.replaceOrAdd(name: field.name.rawName, value: field.value) }
        let request = HTTPRequestHead(version: .http1_1, method: .GET,
                                      uri: address.percentEncodedPath + (address.percentEncodedQuery.map { "?\($0)" } ?? ""), headers: headers)
        let upgrade = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<NIOAsyncChannel<WebSocketFrame, WebSocketFrame>?>(
                        maxFrameSize: configuration.maxFrameSize,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel(wrappingChannelSynchronously: channel) }
                        })
                    var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: .init(
                        upgradeRequestHead: request, upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.close().map { nil } }))
                    pipeline.leftOverBytesStrategy = .forwardBytes
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: pipeline)
                }
            }
        guard let socket = try await upgrade.get() else { throw ClientError("\(url): the server refused the WebSocket upgrade") }
        return try await WebSocketHandler.handle(
            type: .client,
            configuration: .init(extensions: [], autoPing: .disabled, validateUTF8: false, maxFrameSize: configuration.maxFrameSize),
            asyncChannel: socket, context: Context(logger: logger), handler: handler)
    }
}
