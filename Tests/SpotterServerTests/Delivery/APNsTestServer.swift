import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// APNs on 127.0.0.1: TLS with a fresh self-signed certificate, ALPN `h2`, HTTP/2 and nothing else, each
/// request checked and answered by an `APNsStandIn`.
///
/// Like APNs it offers no HTTP/1.1 at all, so a client that can't negotiate HTTP/2 fails to connect.
struct APNsTestServer {
    let apns: APNsStandIn
    let certificate: NIOSSLCertificate
    let port: Int
    private let channel: any Channel

    /// What the client is configured with: `localhost`, which the certificate names.
    var url: String { "https://localhost:\(port)" }

    /// Starts a server, runs `body` against it, and stops it however `body` ends.
    static func serving<T>(_ apns: APNsStandIn, _ body: (APNsTestServer) async throws -> T) async throws -> T {
        let server = try await start(apns)
        do {
            let result = try await body(server)
            try await server.channel.close()
            return result
        } catch {
            try? await server.channel.close()
            throw error
        }
    }

    private static func start(_ apns: APNsStandIn) async throws -> APNsTestServer {
        let identity = try SelfSignedCertificate()
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(identity.certificate)], privateKey: .privateKey(identity.privateKey))
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLServerHandler(context: context))
                    _ = try sync.configureHTTP2Pipeline(
                        mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                    ) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandlers(
                                HTTP2FramePayloadToHTTP1ServerCodec(), APNsStreamHandler(apns: apns))
                        }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else { throw ChannelError.inappropriateOperationForState }
        return APNsTestServer(apns: apns, certificate: identity.certificate, port: port, channel: channel)
    }

    /// An `HTTPClient` that trusts this server's certificate (and nothing else) and may speak HTTP/2.
    func makeHTTPClient() -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([certificate])
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        // Everything is local: a connection that takes longer than this is not coming.
        configuration.timeout.connect = .seconds(1)
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }
}

/// Serves one HTTP/2 stream, which carries one request: collects it, asks the stand-in, writes the answer.
private final class APNsStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let apns: APNsStandIn
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(apns: APNsStandIn) { self.apns = apns }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(var part):
            body.writeBuffer(&part)
        case .end:
            guard let head else { return context.close(promise: nil) }
            let answer = apns.answer(head, body: Array(body.readableBytesView))
            var headers = HTTPHeaders(answer.headers)
            headers.add(name: "content-length", value: String(answer.body.count))
            let status = HTTPResponseStatus(statusCode: answer.status)
            context.write(
                wrapOutboundOut(.head(.init(version: head.version, status: status, headers: headers))), promise: nil)
            if !answer.body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: answer.body)))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
