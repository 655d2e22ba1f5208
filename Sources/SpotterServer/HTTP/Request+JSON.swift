import Foundation
import HTTPTypes
import Hummingbird
import SpotterCore

extension Request {
    /// Decodes a JSON body, turning every way it can be wrong into a 400 that names the field.
    ///
    /// Hummingbird's own `decode` reports only a message; clients (and schemathesis) need the field.
    func decodeJSON<T: Decodable>(_ type: T.Type, context: AppRequestContext) async throws -> T {
        let buffer = try await body.collect(upTo: context.maxUploadSize)
        guard buffer.readableBytes > 0 else {
            throw SpotterError.malformed(detail: "The request needs a JSON body.", field: nil)
        }
        let data = Data(buffer: buffer)
        do {
            return try JSONCoding.decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            if UnfitNumber.isUnlocated(error),
                let problem = UnfitNumber.problem(decoding: T.self, from: data, with: JSONCoding.decoder)
            {
                throw problem
            }
            throw SpotterError(decoding: error)
        }
    }

    /// The bearer token of the `Authorization` header, if any.
    var bearerToken: String? {
        guard let value = headers.value(of: .authorization) else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        // Spaces and tabs, the header's optional whitespace (RFC 9110 §5.6.3), trimmed by hand: Foundation's
        // `trimmingCharacters(in: .whitespaces)` goes through its character sets, far dearer than this loop on
        // every signed-in request.
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = parts[1].firstIndex(where: { !isSpace($0) }),
            let end = parts[1].lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(parts[1][start...end])
    }

    /// The client's address: the first `X-Forwarded-For` hop when the proxy is trusted, else the peer.
    func clientAddress(context: AppRequestContext, trustForwardedFor: Bool) -> String? {
        if trustForwardedFor, let forwarded = headers[HTTPField.Name("X-Forwarded-For")!],
            let first = forwarded.split(separator: ",").first
        {
            return first.trimmingCharacters(in: .whitespaces)
        }
        return context.peerAddress
    }
}

extension SpotterError {
    /// A field by its JSON path (`user.email`, `items[2]`), or `nil` for the body as a whole.
    static func path(_ codingPath: [any CodingKey]) -> String? {
        guard !codingPath.isEmpty else { return nil }
        return codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacingOccurrences(of: ".[", with: "[")
    }

    /// The path of the field a decoding error is about (for a missing key, the key's own).
    static func path(of error: DecodingError) -> String? {
        switch error {
        case .keyNotFound(let key, let context): path(context.codingPath + [key])
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path(context.codingPath)
        @unknown default: nil
        }
    }

    /// Maps a `DecodingError` to a 400 naming the field by its JSON path (`user.email`, `items[2]`).
    init(decoding error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            let field = Self.path(context.codingPath + [key]) ?? key.stringValue
            self = .malformed(detail: "\(field) is required.", field: field)
        case .typeMismatch(let type, let context):
            let field = Self.path(context.codingPath)
            self = .malformed(detail: "\(field ?? "The body") must be \(Self.describe(type)).", field: field)
        case .valueNotFound(let type, let context):
            let field = Self.path(context.codingPath)
            self = .malformed(detail: "\(field ?? "The body") must be \(Self.describe(type)), not null.", field: field)
        case .dataCorrupted(let context):
            if let field = Self.path(context.codingPath) {
                self = .malformed(detail: "\(field) is not valid: \(context.debugDescription)", field: field)
            } else {
                self = .malformed(detail: "The body is not valid JSON.", field: nil)
            }
        @unknown default:
            self = .malformed(detail: "The body could not be read.", field: nil)
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}
