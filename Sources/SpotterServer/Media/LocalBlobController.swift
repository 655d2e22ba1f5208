import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SpotterCore
import SpotterModels

/// Serves the local blob store's presigned URLs: `PUT /blobs/<key>` stores an upload, `GET /blobs/<key>`
/// answers the bytes, each only with the signature and expiry `LocalBlobStore` put in the URL. No session or
/// token is asked: the URL is the capability, as with S3.
///
/// Register it with `addLocalBlobRoutes(to:store:clock:maxUploadSize:)`, and give `/blobs/` its own body
/// limit in `BodyLimitMiddleware` (uploads are larger than API bodies).
struct LocalBlobController: Sendable {
    let store: LocalBlobStore
    let clock: any WallClock
    let maxUploadSize: Int

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.put("**", use: upload)
        routes.get("**", use: download)
        return routes
    }

    @Sendable func upload(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let contentType = request.headers[.contentType] else {
            return refusal(400, "Bad Request", "An upload needs the Content-Type its link was signed for.", context)
        }
        let key: BlobKey
        switch authorize(request, method: "PUT", contentType: contentType, context: context) {
        case .success(let authorized): key = authorized.key
        case .failure(let refusal): return refusal.response
        }
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > maxUploadSize {
            return tooLarge(context)
        }
        let file: BlobFile
        do {
            file = try await store.create(key, contentType: contentType)
        } catch let error as BlobStoreError {
            return refusal(for: error, context)
        }
        do {
            for try await chunk in request.body {
                guard file.size + chunk.readableBytes <= maxUploadSize else {
                    await file.abandon()
                    return tooLarge(context)
                }
                try await file.append(chunk.readableBytesView)
            }
            try await file.commit()
        } catch let error as BlobStoreError {
            await file.abandon()
            return refusal(for: error, context)
        } catch {
            await file.abandon()
            throw error
        }
        return Response(status: .ok)
    }

    @Sendable func download(_ request: Request, context: AppRequestContext) async throws -> Response {
        let authorized: Authorized
        switch authorize(request, method: "GET", contentType: nil, context: context) {
        case .success(let value): authorized = value
        case .failure(let refusal): return refusal.response
        }
        let found: Blob?
        do {
            found = try await store.get(authorized.key)
        } catch let error as BlobStoreError {
            return refusal(for: error, context)
        }
        guard let blob = found else {
            return refusal(404, "Not Found", "There is no blob at this link.", context)
        }
        let secondsLeft = max(0, authorized.expires - Int(clock.now.timeIntervalSince1970.rounded(.down)))
        var headers = HTTPFields()
        headers[.contentType] = blob.contentType
        headers[.cacheControl] = "private, max-age=\(secondsLeft)"
        headers[.xContentTypeOptions] = "nosniff"
        headers[.contentLength] = String(blob.data.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: blob.data)))
    }

    private struct Authorized {
        let key: BlobKey
        let expires: Int
    }

    private struct Refusal: Error {
        let response: Response
    }

    /// The key, when the URL's signature is this store's for this request and has not expired. The signature
    /// is checked first, so a changed expiry reads as a bad signature, not as a fresh link.
    private func authorize(
        _ request: Request, method: String, contentType: String?, context: AppRequestContext
    ) -> Result<Authorized, Refusal> {
        let prefix = "/blobs/"
        let path = request.uri.path
        let query = request.uri.queryParameters
        guard path.hasPrefix(prefix), let key = BlobKey(String(path.dropFirst(prefix.count))) else {
            return .failure(Refusal(response: refusal(404, "Not Found", "There is no blob at this link.", context)))
        }
        guard let expires = query["expires"].flatMap({ Int(String($0)) }),
            let signature = query["signature"].map(String.init),
            store.isValid(signature: signature, method: method, key: key, expires: expires, contentType: contentType)
        else {
            let detail =
                contentType == nil
                ? "The signature does not match."
                : "The signature does not match (an upload must send the Content-Type its link was signed for)."
            return .failure(Refusal(response: refusal(403, "Forbidden", detail, context)))
        }
        guard Double(expires) > clock.now.timeIntervalSince1970 else {
            return .failure(Refusal(response: refusal(403, "Forbidden", "The link has expired.", context)))
        }
        return .success(Authorized(key: key, expires: expires))
    }

    /// The store's own refusal (a key that is another's folder: 409) as the client's problem; the disk
    /// failing as the server's (503, the detail in the log only).
    private func refusal(for error: BlobStoreError, _ context: AppRequestContext) -> Response {
        switch error {
        case .refused(let status, let detail):
            return refusal(status, HTTPResponse.Status(code: status).reasonPhrase, detail, context)
        case .unavailable(let detail):
            context.logger.error("blob store unavailable", metadata: ["error": "\(detail)"])
            return refusal(503, "Service Unavailable", "The blob store could not be reached.", context)
        }
    }

    private func tooLarge(_ context: AppRequestContext) -> Response {
        refusal(413, "Content Too Large", "An upload is at most \(maxUploadSize) bytes.", context)
    }

    private func refusal(_ status: Int, _ title: String, _ detail: String, _ context: AppRequestContext) -> Response {
        ProblemResponse.response(
            for: Problem(title: title, status: status, detail: detail), requestID: context.requestID)
    }
}

/// Adds the local blob store's `/blobs/…` routes: call it only when that store is the configured one.
func addLocalBlobRoutes(
    to router: Router<AppRequestContext>, store: LocalBlobStore, clock: any WallClock, maxUploadSize: Int
) {
    router.addRoutes(
        LocalBlobController(store: store, clock: clock, maxUploadSize: maxUploadSize).endpoints, atPath: "blobs")
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
}
