import Foundation
import HTTPTypes
import Hummingbird
import SpotterModels

/// Gives every request an id: the client's `X-Request-Id` when it is a sane token, else a new UUIDv7. The id
/// goes into every log line of the request and back in the response header, so a user's report can be
/// matched with the log.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let header = HTTPField.Name("X-Request-Id")!

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        var context = context
        let supplied = request.headers[Self.header].flatMap(Self.acceptable)
        context.requestID = supplied ?? UUIDText.format(UUIDv7.make())
        context.logger[metadataKey: "request_id"] = .string(context.requestID)
        var response = try await next(request, context)
        response.headers[Self.header] = context.requestID
        return response
    }

    /// Up to 128 characters of letters, digits, `-`, `_` and `.`: anything else could forge log lines.
    private static func acceptable(_ value: String) -> String? {
        guard (1...128).contains(value.count),
            value.unicodeScalars.allSatisfy({
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
            })
        else { return nil }
        return value
    }
}
