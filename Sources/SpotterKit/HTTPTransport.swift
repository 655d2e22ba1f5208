import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request as SpotterKit sends it: everything a transport needs, nothing tied to one HTTP library.
public struct HTTPRequestData: Sendable, Equatable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A response: status, headers (names lowercased) and body.
public struct HTTPResponseData: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }
}

/// Sends one HTTP request. A transport never retries: `SpotterClient` decides that. It throws only when no
/// response came (the network, a timeout); any HTTP status is a response.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData
}

/// The default transport: URLSession, on Apple platforms and on Linux (FoundationNetworking).
public struct URLSessionTransport: HTTPTransport {
    let session: URLSession
    let timeout: TimeInterval

    public init(session: URLSession = .shared, timeout: TimeInterval = 30) {
        self.session = session
        self.timeout = timeout
    }

    public func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await load(urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields { headers[name] = value }
        return HTTPResponseData(status: http.statusCode, headers: headers, body: data)
    }

    #if canImport(FoundationNetworking)
    /// `URLSession.data(for:)`, cancelled off the cancelling thread. On Linux, FoundationNetworking's own
    /// `data(for:)` cancels its task while Swift holds the cancelled task's status lock, and the network thread,
    /// finishing the same task at that moment, waits for that lock while holding the queue `cancel()` waits
    /// for: both threads stop for good (swift-corelibs-foundation #5412; it hung the test suite with both of
    /// the concurrency pool's threads). Cancelling from another queue takes the lock out of the cycle.
    private func load(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let data, let response {
                        continuation.resume(returning: (data, response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                }
                box.start(task)
            }
        } onCancel: {
            DispatchQueue.global().async { box.cancel() }
        }
    }
    #else
    private func load(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await session.data(for: request)
    }
    #endif
}

#if canImport(FoundationNetworking)
/// The task a request runs as, and whether it was cancelled before it started.
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func start(_ task: URLSessionDataTask) {
        let cancelled = lock.withLock {
            self.task = task
            return self.cancelled
        }
        if cancelled { task.cancel() }
        task.resume()
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }
}
#endif
