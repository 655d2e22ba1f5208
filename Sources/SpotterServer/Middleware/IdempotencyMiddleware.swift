import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SpotterCore
import SpotterModels

/// Makes every mutating request safe to retry: with an `Idempotency-Key` header the first response is stored,
/// a repeat gets that response back (with `Idempotent-Replayed: true`) and changes nothing, and the same key
/// with a different request gets 422. Keys are scoped per user.
///
/// The handler's writes and the stored response are one unit of work (the request's, `UnitOfWorkMiddleware`),
/// so they commit together or not at all. A process killed mid-request leaves nothing, and the retry runs
/// afresh at once; a request that committed has its response stored, and the retry replays it.
///
/// The key is claimed last, with the response, in one statement (`IdempotencyStore.record`), so a unit takes
/// SQLite's writer at its first real write and not for its whole handler: first the stored record is only
/// read (a retry of a finished request replays it at once), then the handler runs, then its answer is stored
/// with the key. A duplicate that ran at the same time finds the first one's record there (SQLite: committed
/// or earlier in the same batch, on the one writer; PostgreSQL: its insert waits on the key's unique index
/// for the first one's commit); its own writes roll back with its unit (`UndoneResponse`), and it replays the
/// first answer.
///
/// It runs behind authentication. The sign-up, sign-in and refresh routes are outside it on purpose: their
/// responses hold bearer tokens, and storing them for replay would keep live credentials in the clear.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let header = HTTPField.Name("Idempotency-Key")!
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!

    let storage: any SpotterStorage
    let clock: any WallClock
    let retention: TimeInterval

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard UnitOfWorkMiddleware<Context>.changes(request.method),
            let key = request.headers.value(of: Self.header), let session = context.identity
        else { return try await next(request, context) }
        guard (1...255).contains(key.count), key.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw SpotterError.malformed(
                detail: "Idempotency-Key must be 1 to 255 visible ASCII characters.", field: "Idempotency-Key")
        }
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let scope = session.account.id.description
        let fingerprint = Self.fingerprint(request: request, body: body)
        let store = storage.idempotency

        if let found = try await store.find(scope: scope, key: key)?.claim(
            fingerprint: fingerprint, now: clock.now, retention: retention)
        {
            return try Self.answer(to: found)
        }
        let (response, collected) = try await answer(request, context: context, next: next)
        let claim = try await store.record(
            scope: scope, key: key, fingerprint: fingerprint,
            response: StoredResponse(
                status: Int(response.status.code), contentType: response.headers.value(of: .contentType),
                body: collected),
            now: clock.now, retention: retention)
        // Another run of the same key stored its answer first: this one's writes roll back with the request's
        // unit, and it answers as that one did.
        guard claim == .claimed else { throw UndoneResponse(response: try Self.answer(to: claim)) }
        return response
    }

    /// The answer to a request whose key has a record already.
    private static func answer(to claim: IdempotencyClaim) throws -> Response {
        switch claim {
        case .replay(let stored):
            var headers: HTTPFields = [Self.replayedHeader: "true"]
            if let contentType = stored.contentType { headers[.contentType] = contentType }
            return Response(
                status: .init(code: stored.status), headers: headers,
                body: .init(byteBuffer: ByteBuffer(data: stored.body)))
        case .inProgress, .claimed:
            throw SpotterError.conflict(
                field: "Idempotency-Key", detail: "A request with this Idempotency-Key is still being processed.")
        case .mismatch:
            throw SpotterError.invalid("Idempotency-Key", "This key was already used for a different request.")
        }
    }

    /// The handler's answer to store, with its body read. A handler that fails is undone (a savepoint) and its
    /// client error stored in its place, so a retry gets the same answer. An answer that is not final undoes the
    /// whole request's unit (`UndoneResponse`, or the error): nothing of the request stays, and the key is free
    /// for a retry.
    private func answer(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> (Response, Data) {
        do {
            return try await storage.write {
                var response = try await next(request, context)
                guard Self.isFinal(response.status) else { throw UndoneResponse(response: response) }
                let collected = try await Self.collect(&response)
                return (response, collected)
            }
        } catch let undone as UndoneResponse {
            throw undone
        } catch {
            // A thrown error becomes a problem response outside this middleware. Client errors (4xx) are
            // stored like any response; server errors and 429 roll the unit back and go on as errors.
            var problem = ProblemResponse.make(for: error, context: context)
            guard Self.isFinal(problem.status) else { throw error }
            let collected = try await Self.collect(&problem)
            return (problem, collected)
        }
    }

    /// Whether an answer is the request's last word, to replay on every retry. Server errors and 429 are not:
    /// "too many requests, retry after an hour" must let the retry through after the hour (a replayed 429
    /// would also lack its `Retry-After`, found by schemathesis).
    static func isFinal(_ status: HTTPResponse.Status) -> Bool {
        status.code < 500 && status != .tooManyRequests
    }

    /// What makes two requests the same: method, path and query, and the body's meaning. A JSON body counts in
    /// its canonical form (parsed, then written with sorted keys and no whitespace), so a retry whose encoder
    /// ordered keys differently is still the same request. Numbers compare as `JSONSerialization` reads them:
    /// `1.5` and `1.50` are one value, while `1` and `1.0` may not be (an integer and a double); a client's
    /// retry sends the same digits, so that is enough. Any other body counts byte for byte. A canonical form is
    /// always valid JSON and a raw one never is, so the two cannot collide.
    static func fingerprint(request: Request, body: ByteBuffer) -> String {
        var hasher = SHA256()
        hasher.update(data: Data("\(request.method) \(request.uri.path)?\(request.uri.query ?? "")\n".utf8))
        let bytes = Data(buffer: body)
        hasher.update(data: canonicalJSON(bytes) ?? bytes)
        return Hex.encode(hasher.finalize())
    }

    /// `body` as canonical JSON, or `nil` when it is not JSON.
    static func canonicalJSON(_ body: Data) -> Data? {
        guard !body.isEmpty,
            let value = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        else { return nil }
        return try? JSONSerialization.data(
            withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
    }

    /// Reads a response's body into memory (API responses are small) and puts it back, so it can be stored.
    static func collect(_ response: inout Response) async throws -> Data {
        let box = CollectedBody()
        let body = response.body
        try await body.write(CollectingWriter(box: box))
        response.body = .init(byteBuffer: box.buffer)
        return Data(buffer: box.buffer)
    }
}

private final class CollectedBody: @unchecked Sendable {
    var buffer = ByteBuffer()
}

private struct CollectingWriter: ResponseBodyWriter {
    let box: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        box.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
