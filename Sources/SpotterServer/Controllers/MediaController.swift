import Foundation
import HTTPTypes
import Hummingbird
import SpotterCore
import SpotterModels

/// `/api/v1/media/…`: uploads, as in Mastodon's media API and the Nova seed's upload flow.
struct MediaController {
    let media: MediaService

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post { request, context in
            let body = try await request.decodeJSON(CreateMediaRequest.self, context: context)
            let upload = try await media.createUpload(body, owner: try context.requireViewer())
            return EditedResponse(status: .created, response: upload)
        }
        routes.post("direct") { request, context in
            let form = try await Self.form(request, context: context)
            guard let file = form.part("file") else {
                throw SpotterError.invalid("file", "is required: the photo, as a file part named file")
            }
            var focus: FocalPoint?
            if let text = form.text("focus") {
                let numbers = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard numbers.count == 2 else { throw SpotterError.invalid("focus", "must be two numbers, x,y") }
                focus = FocalPoint(x: numbers[0], y: numbers[1])
            }
            let purpose = try form.text("purpose").map { text in
                guard let purpose = MediaPurpose(rawValue: text) else {
                    throw SpotterError.invalid("purpose", "must be post or avatar")
                }
                return purpose
            }
            let uploaded = try await media.upload(
                file.data, contentType: file.contentType ?? "application/octet-stream", purpose: purpose ?? .post,
                description: form.text("description"), focus: focus, owner: try context.requireViewer())
            return EditedResponse(status: .accepted, response: uploaded)
        }
        routes.get(":id") { _, context in
            try await media.get(try Self.mediaID(context), owner: try context.requireViewer())
        }
        routes.patch(":id") { request, context in
            let id = try Self.mediaID(context)
            let body = try await request.decodeJSON(UpdateMediaRequest.self, context: context)
            return try await media.update(id, with: body, owner: try context.requireViewer())
        }
        routes.delete(":id") { _, context in
            try await media.delete(try Self.mediaID(context), owner: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.post(":id/complete") { _, context in
            EditedResponse(
                status: .accepted,
                response: try await media.complete(try context.id("id"), owner: try context.requireViewer()))
        }
        return routes
    }

    /// The upload `:id` names. `direct` is the upload route's own path, which `:id` also matches: another method
    /// on it is 405, as on any path that does not take it.
    static func mediaID(_ context: AppRequestContext) throws -> MediaID {
        if context.parameters.get("id") == "direct" {
            throw HTTPError(
                .methodNotAllowed, headers: [.allow: "POST"], message: "/api/v1/media/direct takes POST only.")
        }
        return try context.id("id")
    }

    /// The request's `multipart/form-data` body, or a 400/415 saying what it should be.
    static func form(_ request: Request, context: AppRequestContext) async throws -> MultipartForm {
        guard let type = request.headers[.contentType], let boundary = MultipartForm.boundary(of: type) else {
            throw HTTPError(.unsupportedMediaType, message: "Send the photo as multipart/form-data with a boundary.")
        }
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        return try MultipartForm(body: Data(buffer: buffer), boundary: boundary)
    }
}

/// `GET /media/<id>/<large|small>.jpg`: a photo's bytes for anyone its URL was meant for (`MediaService`'s
/// rule). Everything else, whatever the reason, is the same 404, so a URL tells nobody a photo exists.
struct MediaFilesController {
    let media: MediaService

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get(":id/:file") { request, context in
            // Anything but an id and `large.jpg` or `small.jpg` names no photo: 404, never a 4xx of its own.
            let file = context.parameters.get("file") ?? ""
            guard let id = MediaID(context.parameters.get("id") ?? ""), file.hasSuffix(".jpg"),
                let rendition = MediaRendition(rawValue: String(file.dropLast(4)))
            else { throw SpotterError.notFound("No such photo.") }
            let query = request.uri.queryParameters
            let expires = query["expires"].flatMap { Int(String($0)) }
            let signature = query["signature"].map(String.init)
            if (expires == nil) != (signature == nil) { throw SpotterError.notFound("No such photo.") }
            guard let served = try await media.rendition(id, rendition, expires: expires, signature: signature)
            else { throw SpotterError.notFound("No such photo.") }
            var headers: HTTPFields = [
                .contentType: served.contentType,
                .cacheControl: served.isPublic
                    ? "public, max-age=\(served.maxAge)" : "private, max-age=\(served.maxAge), no-transform",
                .contentLength: String(served.data.count),
            ]
            headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
            return Response(
                status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(data: served.data)))
        }
        return routes
    }
}

extension Media: ResponseEncodable {}
extension MediaUpload: ResponseEncodable {}
