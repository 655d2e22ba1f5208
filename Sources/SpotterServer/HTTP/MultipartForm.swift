import Foundation
import SpotterCore

/// A `multipart/form-data` body (RFC 7578, on RFC 2046's multipart syntax), read whole: the web app's photo
/// form and the direct upload route send one.
///
/// Written by hand: neither Hummingbird nor any package on this machine reads multipart bodies. It is tested
/// against bodies made by independent encoders (curl's `-F`, Chromium's form submission).
struct MultipartForm {
    struct Part {
        var name: String
        var filename: String?
        var contentType: String?
        var data: Data
    }

    var parts: [Part]

    /// The first part named `name`.
    func part(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// The text of the first part named `name`, as UTF-8.
    func text(_ name: String) -> String? { part(name).map { String(decoding: $0.data, as: UTF8.self) } }

    /// The boundary of a `multipart/form-data` content type, or `nil` for any other type.
    static func boundary(of contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value =
                pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2
                ? String(pair[1].dropFirst().dropLast()) : pair[1]
            // RFC 2046 §5.1.1: 1 to 70 characters.
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    /// Reads `body` with `boundary`; throws a 400 naming what is wrong.
    init(body: Data, boundary: String) throws {
        let delimiter = Data("--\(boundary)".utf8)
        let crlf = Data("\r\n".utf8)
        guard var cursor = body.range(of: delimiter)?.upperBound else { throw Self.malformed("no part begins") }
        var parts: [Part] = []
        while true {
            // After a delimiter: `--` ends the body, CRLF starts a part.
            if body[cursor...].starts(with: Data("--".utf8)) { break }
            guard body[cursor...].starts(with: crlf) else { throw Self.malformed("a boundary line is not ended") }
            cursor += 2
            guard let headerEnd = body.range(of: Data("\r\n\r\n".utf8), in: cursor..<body.endIndex) else {
                throw Self.malformed("a part's headers are not ended")
            }
            let headers = String(decoding: body[cursor..<headerEnd.lowerBound], as: UTF8.self)
            let contentStart = headerEnd.upperBound
            guard let next = body.range(of: crlf + delimiter, in: contentStart..<body.endIndex) else {
                throw Self.malformed("a part is not ended by the boundary")
            }
            parts.append(try Self.part(headers: headers, data: body[contentStart..<next.lowerBound]))
            cursor = next.upperBound
            if parts.count > 32 { throw Self.malformed("more than 32 parts") }
        }
        self.parts = parts
    }

    private static func part(headers: String, data: Data) throws -> Part {
        var name: String?
        var filename: String?
        var contentType: String?
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            switch pair[0].lowercased() {
            case "content-disposition":
                let parameters = Self.parameters(pair[1])
                name = parameters["name"]
                filename = parameters["filename"]
            case "content-type":
                contentType = pair[1]
            default:
                break
            }
        }
        guard let name else { throw malformed("a part has no name") }
        return Part(name: name, filename: filename, contentType: contentType, data: Data(data))
    }

    /// `form-data; name="file"; filename="a b.jpg"` → name, filename. Quoted values may hold `;` and escaped
    /// quotes (browsers write a quote in a file name as `%22`, which stays as written).
    static func parameters(_ value: String) -> [String: String] {
        var result: [String: String] = [:]
        var scalars = Substring(value)
        // Skip the disposition type.
        guard let first = scalars.firstIndex(of: ";") else { return result }
        scalars = scalars[scalars.index(after: first)...]
        while !scalars.isEmpty {
            scalars = scalars.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            guard let equals = scalars.firstIndex(of: "=") else { break }
            let key = scalars[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            scalars = scalars[scalars.index(after: equals)...]
            var value = ""
            if scalars.first == "\"" {
                scalars = scalars.dropFirst()
                var escaped = false
                while let character = scalars.first {
                    scalars = scalars.dropFirst()
                    if escaped {
                        value.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        break
                    } else {
                        value.append(character)
                    }
                }
            } else {
                let end = scalars.firstIndex(of: ";") ?? scalars.endIndex
                value = scalars[..<end].trimmingCharacters(in: .whitespaces)
                scalars = scalars[end...]
            }
            result[key] = value
        }
        return result
    }

    private static func malformed(_ detail: String) -> SpotterError {
        .malformed(detail: "The multipart body is malformed: \(detail).", field: nil)
    }
}
