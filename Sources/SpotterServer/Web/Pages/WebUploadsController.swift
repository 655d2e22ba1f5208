import Foundation
import HTTPTypes
import Hummingbird
import SpotterCore
import SpotterModels

/// `POST /uploads` and `GET /uploads/<id>`: the photo picker's upload, for the signed-in browser.
///
/// The picker sends each photo as soon as it is chosen (`XMLHttpRequest`, for its progress events), as
/// `multipart/form-data` with the CSRF token in the `X-CSRF-Token` header or the `_csrf` field, then asks
/// `GET /uploads/<id>` until the photo is ready or failed. Both answer JSON (`Media`, or problem+json naming the
/// field), never a page: a script reads them.
struct WebUploadsController {
    let media: MediaService

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post("uploads") { request, context in
            await Self.answer(request, context) { owner in
                if let malformed = context.web.malformedMultipart {
                    throw SpotterError.malformed(detail: malformed, field: "file")
                }
                guard let file = context.web.files.first(where: { $0.name == "file" && !$0.data.isEmpty }) else {
                    throw SpotterError.invalid("file", "is required: choose a photo")
                }
                let purpose = context.web.form["purpose"].flatMap(MediaPurpose.init(rawValue:)) ?? .post
                let uploaded = try await media.upload(
                    file.data, contentType: file.contentType ?? "application/octet-stream", purpose: purpose,
                    description: context.web.form["description"], focus: nil, owner: owner)
                return try EditedResponse(status: .accepted, response: uploaded).response(
                    from: request, context: context)
            }
        }
        routes.get("uploads/:id") { request, context in
            await Self.answer(request, context) { owner in
                let id: MediaID = try context.webID("id")
                return try await media.get(id, owner: owner).response(from: request, context: context)
            }
        }
        return routes
    }

    /// Runs `body` for the signed-in viewer; what it throws, and a missing session, become problem+json.
    private static func answer(
        _ request: Request, _ context: AppRequestContext, _ body: (AccountRecord) async throws -> Response
    ) async -> Response {
        do {
            return try await body(try context.requireViewer())
        } catch {
            return ProblemResponse.make(for: error, context: context)
        }
    }
}

extension MediaService {
    /// The upload once it is ready or failed, or as it is when `limit` has passed: the form without script
    /// waits this long for its photos before it posts.
    func settled(_ id: MediaID, owner: AccountRecord, within limit: Duration) async throws -> Media {
        let deadline = ContinuousClock.now + limit
        while true {
            let media = try await get(id, owner: owner)
            if media.status == .ready || media.status == .failed || ContinuousClock.now >= deadline { return media }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
