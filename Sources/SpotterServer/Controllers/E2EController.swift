import Foundation
import HTTPTypes
import Hummingbird
import SpotterCore
import SpotterModels

/// End-to-end encrypted groups (docs/encryption.md): device chains and recovery kits, each encrypted group's
/// chain, epochs and wrapped keys, its encrypted photos, and signed tombstones. Every route is signed in.
struct E2EController {
    let devices: E2EDeviceService
    let groups: E2EGroupService
    let blobs: E2EBlobService
    let posts: PostService

    /// Under `/api/v1/device-chains`: anyone's chain by their user id (usernames change; chains name ids).
    var chainEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get(":user_id") { _, context in
            try await devices.chain(of: try context.id("user_id"), viewer: try context.requireViewer())
        }
        return routes
    }

    /// Under `/api/v1/me`.
    var meEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("device-chain") { _, context in
            let viewer = try context.requireViewer()
            return try await devices.chain(of: viewer.id, viewer: viewer)
        }
        routes.post("device-chain") { request, context in
            let body = try await request.decodeJSON(E2EStatementRequest.self, context: context)
            return EditedResponse(
                status: .created, response: try await devices.append(body.statement, by: try context.requireViewer()))
        }
        routes.get("recovery-kit") { _, context in
            try await devices.recoveryKit(of: try context.requireViewer())
        }
        routes.put("recovery-kit") { request, context in
            let body = try await request.decodeJSON(E2ERecoveryKit.self, context: context)
            try await devices.setRecoveryKit(body, by: try context.requireViewer())
            return Response(status: .noContent)
        }
        addDeviceRequestRoutes(to: routes)
        return routes
    }

    /// Under `/api/v1/groups`.
    var groupEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get(":id/e2e") { _, context in
            try await groups.state(try context.id("id"), viewer: try context.requireViewer())
        }
        routes.get(":id/e2e/chain") { _, context in
            try await groups.chain(try context.id("id"), viewer: try context.requireViewer())
        }
        // Path parameters are read before the body, so a bad one is named as itself.
        routes.post(":id/e2e/chain") { request, context in
            let id: GroupID = try context.id("id")
            let body = try await request.decodeJSON(E2EGroupChangeRequest.self, context: context)
            return try await groups.change(id, body, by: try context.requireViewer())
        }
        routes.post(":id/e2e/keys") { request, context in
            let id: GroupID = try context.id("id")
            let body = try await request.decodeJSON(E2EEpochKeys.self, context: context)
            try await groups.addKeys(id, body, by: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.get(":id/e2e/keys") { request, context in
            let id: GroupID = try context.id("id")
            guard let text = request.uri.queryParameters["device_id"], let device = UUIDText.parse(String(text)) else {
                throw SpotterError.invalid("device_id", "is required: one of your devices' ids")
            }
            return try await groups.keys(id, device: device, viewer: try context.requireViewer())
        }
        routes.post(":id/e2e/blobs") { request, context in
            let id: GroupID = try context.id("id")
            let body = try await request.decodeJSON(CreateSealedBlobRequest.self, context: context)
            return EditedResponse(
                status: .created, response: try await blobs.create(in: id, body, by: try context.requireViewer()))
        }
        routes.post(":id/e2e/blobs/:blob/complete") { _, context in
            try await blobs.complete(
                try Self.blobID(context), in: try context.id("id"), by: try context.requireViewer())
            return Response(status: .noContent)
        }
        routes.get(":id/e2e/blobs/:blob") { _, context in
            let blob = try await blobs.bytes(
                try Self.blobID(context), in: try context.id("id"), viewer: try context.requireViewer())
            var headers = HTTPFields()
            headers[.contentType] = "application/octet-stream"
            // Only members may have it, checked at each fetch: nothing in between may keep it.
            headers[.cacheControl] = "private, no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: blob.data)))
        }
        return routes
    }

    /// Under `/api/v1/posts`.
    var postEndpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.post(":id/tombstone") { request, context in
            let id: PostID = try context.id("id")
            let body = try await request.decodeJSON(E2EStatementRequest.self, context: context)
            try await groups.tombstone(id, body.statement, by: try context.requireViewer(), posts: posts)
            return Response(status: .noContent)
        }
        return routes
    }

    private static func blobID(_ context: AppRequestContext) throws -> UUID {
        guard let text = context.parameters.get("blob"), let id = UUIDText.parse(text) else {
            throw SpotterError.malformed(detail: "blob is not an id.", field: "blob")
        }
        return id
    }
}

extension E2EChain: ResponseEncodable {}
extension E2EChainHead: ResponseEncodable {}
extension E2ERecoveryKit: ResponseEncodable {}
extension E2EGroupState: ResponseEncodable {}
extension E2EEpochKeys: ResponseEncodable {}
extension SealedBlobUpload: ResponseEncodable {}
