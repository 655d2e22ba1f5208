import Foundation
import SpotterModels

/// The Spotter REST API as typed `async` calls, with the retry policy of `RetryPolicy`, tokens kept in a
/// `TokenStore`, and an idempotency key on every change so a retried request lands once.
///
/// ```swift
/// let client = SpotterClient(baseURL: URL(string: "https://spotter.example")!,
///                            tokens: KeychainTokenStore())
/// try await client.signIn(login: "ana", password: "correct horse battery")
/// let page = try await client.feed(.following)
/// for post in page.items { print(post.author.username, post.text) }
/// ```
public actor SpotterClient {
    public nonisolated let baseURL: URL
    let transport: any HTTPTransport
    let tokens: any TokenStore
    let retry: RetryPolicy
    let sleep: @Sendable (Duration) async throws -> Void
    let random: @Sendable () -> Double
    /// Told what requests met and how signing in went (`SpotterSession`'s connectivity and auth state).
    let events: (any ClientEventSink)?
    /// The refresh in flight: concurrent 401s wait for this one instead of each spending the refresh token
    /// (the server treats a second use as theft and signs the whole login out).
    private var refreshing: Task<SessionTokens, any Error>?

    /// - Parameters:
    ///   - sleep: how the client waits between tries; tests pass one that moves a manual clock.
    ///   - random: the jitter source, in 0...1.
    ///   - events: where to report what requests met and how signing in went.
    public init(
        baseURL: URL, tokens: any TokenStore = MemoryTokenStore(),
        transport: any HTTPTransport = URLSessionTransport(), retry: RetryPolicy = RetryPolicy(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        events: (any ClientEventSink)? = nil
    ) {
        self.events = events
        self.baseURL = baseURL
        self.tokens = tokens
        self.transport = transport
        self.retry = retry
        self.sleep = sleep
        self.random = random
    }

    /// Whether a session is stored (it may still turn out to be revoked).
    public var isSignedIn: Bool {
        get async { (try? await tokens.load()) != nil }
    }

    // MARK: Sending

    struct Call: Sendable {
        var method: String
        var path: String
        var query: [URLQueryItem] = []
        var body: Data?
        var authenticated = true
        /// Sent as `Idempotency-Key`; the same for every try of one call.
        var idempotencyKey: String?
        /// Where to send it instead of `baseURL` + `path`: a presigned upload link, which may be another host.
        var absoluteURL: URL?
        /// Sent as they are, over the defaults: a presigned upload's signed headers.
        var headers: [String: String] = [:]

        /// A change: signed in, with the caller's idempotency key or a new one.
        static func change(_ method: String, _ path: String, body: Data? = nil, key: String?) -> Call {
            Call(method: method, path: path, body: body, idempotencyKey: key ?? SpotterClient.newKey())
        }
    }

    /// Query items for the values given, leaving out the nil ones.
    static func query(_ items: KeyValuePairs<String, String?>) -> [URLQueryItem] {
        items.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
    }

    /// The wire's JSON (`WireJSON`): sorted keys, so a request sent again is the same bytes in any process.
    static let encoder = WireJSON.encoder()
    static let decoder = WireJSON.decoder()

    func call<Response: Decodable>(_ call: Call, as type: Response.Type = Response.self) async throws -> Response {
        let response = try await send(call)
        do {
            return try Self.decoder.decode(Response.self, from: response.body)
        } catch {
            throw SpotterClientError.unreadableResponse(status: response.status, detail: "\(error)")
        }
    }

    /// Sends with retries (see `RetryPolicy`) and returns the first 2xx response, or throws.
    func send(_ call: Call) async throws -> HTTPResponseData {
        var attempt = 0
        var refreshed = false
        while true {
            attempt += 1
            var request = try makeRequest(call)
            var accessToken: String?
            if call.authenticated {
                guard let session = try await tokens.load() else { throw SpotterClientError.signedOut }
                accessToken = session.accessToken
                request.headers["Authorization"] = "Bearer \(session.accessToken)"
            }
            let response: HTTPResponseData
            do {
                response = try await transport.send(request)
                // A presigned upload answered by another host says nothing of this server.
                if call.absoluteURL == nil { events?.clientDid(.reached) }
            } catch {
                if call.absoluteURL == nil { events?.clientDid(.unreachable) }
                try await wait(after: .unreachable(request.url, error), attempt: attempt)
                continue
            }
            switch response.status {
            case 200..<300:
                return response
            case 401 where call.authenticated && !refreshed:
                refreshed = true
                attempt -= 1  // a refresh is not a try
                try await refreshTokens(replacing: accessToken)
            default:
                try await wait(after: Self.problem(from: response, now: Date()), attempt: attempt)
            }
        }
    }

    /// Waits before the next try as `retry` says, or throws `failure` when there is to be none.
    private func wait(after failure: SpotterClientError, attempt: Int) async throws {
        guard attempt < retry.maxAttempts, let wait = retry.wait(after: failure, attempt: attempt, random: random())
        else { throw failure }
        try await sleep(wait)
    }

    private func makeRequest(_ call: Call) throws -> HTTPRequestData {
        if let url = call.absoluteURL {
            return HTTPRequestData(method: call.method, url: url, headers: call.headers, body: call.body)
        }
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw SpotterClientError.unreadableResponse(status: 0, detail: "bad base URL \(baseURL)")
        }
        components.path = components.path.trimmingSuffix("/") + call.path
        if !call.query.isEmpty { components.queryItems = call.query }
        guard let url = components.url else {
            throw SpotterClientError.unreadableResponse(status: 0, detail: "bad URL for \(call.path)")
        }
        var headers = ["Accept": "application/json"]
        if call.body != nil { headers["Content-Type"] = "application/json" }
        if let key = call.idempotencyKey { headers["Idempotency-Key"] = key }
        headers.merge(call.headers) { _, given in given }
        return HTTPRequestData(method: call.method, url: url, headers: headers, body: call.body)
    }

    /// The error a refusal is: its problem document (or one made of the status and body), and, for a 429 or
    /// a 5xx with `Retry-After`, when the server said to come back.
    static func problem(from response: HTTPResponseData, now: Date) -> SpotterClientError {
        let problem =
            (try? decoder.decode(Problem.self, from: response.body))
            ?? Problem(
                title: HTTPStatus.title(response.status), status: response.status,
                detail: String(decoding: response.body.prefix(500), as: UTF8.self))
        guard response.status == 429 || response.status >= 500,
            let header = response.headers["retry-after"], let wait = RetryPolicy.retryAfter(header, now: now)
        else { return .problem(problem) }
        return .retryLater(problem, after: wait)
    }

    // MARK: Tokens

    /// Replaces the session after a 401. If another call already refreshed (the stored access token is no
    /// longer the one refused), there is nothing to do; if one is refreshing, wait for it.
    private func refreshTokens(replacing refused: String?) async throws {
        if let current = try await tokens.load(), current.accessToken != refused { return }
        if let refreshing {
            _ = try await refreshing.value
            return
        }
        let task = Task { try await self.performRefresh() }
        refreshing = task
        defer { refreshing = nil }
        events?.clientDid(.refreshing)
        do {
            _ = try await task.value
            events?.clientDid(.refreshed)
        } catch SpotterClientError.signedOut {
            events?.clientDid(.sessionEnded)
            throw SpotterClientError.signedOut
        } catch {
            events?.clientDid(.refreshFailed)
            throw error
        }
    }

    private func performRefresh() async throws -> SessionTokens {
        guard let session = try await tokens.load() else { throw SpotterClientError.signedOut }
        do {
            let response: TokenResponse = try await call(
                Call(
                    method: "POST", path: "/api/v1/auth/refresh",
                    body: try Self.encoder.encode(RefreshRequest(refreshToken: session.refreshToken)),
                    authenticated: false))
            let fresh = SessionTokens(accessToken: response.accessToken, refreshToken: response.refreshToken)
            try await tokens.save(fresh)
            return fresh
        } catch let error as SpotterClientError where error.status == 401 {
            try await tokens.clear()  // the login is over (expired, signed out, or revoked as stolen)
            throw SpotterClientError.signedOut
        }
    }

    func store(_ response: TokenResponse) async throws {
        try await tokens.save(SessionTokens(accessToken: response.accessToken, refreshToken: response.refreshToken))
    }

    /// Every way of signing in: reported as it starts and ends, the session kept on success.
    func signingIn(_ request: () async throws -> TokenResponse) async throws -> Account {
        events?.clientDid(.signingIn)
        do {
            let response = try await request()
            try await store(response)
            events?.clientDid(.signedIn(response.user))
            return response.user
        } catch {
            events?.clientDid(.signInFailed)
            throw error
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

/// Titles for statuses whose body was not a problem document.
enum HTTPStatus {
    static func title(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500..<600: "Server Error"
        default: "HTTP \(status)"
        }
    }
}
