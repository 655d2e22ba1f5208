import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/me/device-requests`: a new device of mine waiting for one of my devices to add it (docs/encryption.md,
/// "Approving a new device"). Mounted with the other `/me` routes, so the web app has them under `/e2e/me` too.
extension E2EController {
    func addDeviceRequestRoutes(to routes: RouteCollection<AppRequestContext>) {
        routes.post("device-requests") { request, context in
            let body = try await request.decodeJSON(CreateE2EDeviceRequest.self, context: context)
            return EditedResponse(
                status: .created, response: try await devices.requestDevice(body, by: try context.requireViewer()))
        }
        routes.get("device-requests") { _, context in
            try await devices.deviceRequests(of: try context.requireViewer())
        }
        routes.get("device-requests/:id") { _, context in
            try await devices.deviceRequest(try Self.requestID(context), of: try context.requireViewer())
        }
        routes.delete("device-requests/:id") { _, context in
            try await devices.removeDeviceRequest(try Self.requestID(context), by: try context.requireViewer())
            return Response(status: .noContent)
        }
    }

    private static func requestID(_ context: AppRequestContext) throws -> UUID {
        guard let text = context.parameters.get("id"), let id = UUIDText.parse(text) else {
            throw SpotterError.malformed(detail: "id is not an id.", field: "id")
        }
        return id
    }
}

extension E2EDeviceRequest: ResponseEncodable {}
extension E2EDeviceRequests: ResponseEncodable {}
