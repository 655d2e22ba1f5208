import Foundation

/// A string a JSON API request can carry, as the OpenAPI document lists it: a path or query parameter, or a
/// string anywhere in a JSON request body (nested objects, array items and map values included).
struct OpenAPITextField: Sendable, CustomStringConvertible {
    enum Place: String, Sendable { case path, query, body }

    let method: String
    /// As documented: `/api/v1/posts/{id}`.
    let path: String
    let place: Place
    /// The parameter's name, or the body field's JSON path as problems name it: `workout.exercises[0].name`.
    /// A map's values are under `*`, for whichever key the request uses.
    let field: String
    /// An id, a date or one of a fixed set of words: a value that can't be read as one may be refused as
    /// malformed (400) rather than judged (422).
    let isFormatted: Bool

    var description: String { "\(method) \(path) \(place.rawValue) \(field)" }

    /// Every such string of every `/api/` operation of the document.
    static func all(in document: YAMLNode) -> [OpenAPITextField] {
        var fields: [OpenAPITextField] = []
        for route in document["paths"]?.entries ?? [] where route.key.hasPrefix("/api/") {
            for operation in route.value.entries
            where ["get", "post", "put", "patch", "delete"].contains(operation.key) {
                let method = operation.key.uppercased()
                for reference in operation.value["parameters"]?.items ?? [] {
                    let parameter = resolve(reference, in: document)
                    guard let name = parameter["name"]?.string,
                        let place = parameter["in"]?.string.flatMap(Place.init(rawValue:)),
                        let schema = parameter["schema"].map({ resolve($0, in: document) }), isString(schema)
                    else { continue }
                    fields.append(
                        .init(
                            method: method, path: route.key, place: place, field: name,
                            isFormatted: isFormatted(schema)))
                }
                let body = operation.value["requestBody"]?["content"]?["application/json"]?["schema"]
                for (field, schema) in strings(in: body, path: "", document: document) {
                    fields.append(
                        .init(
                            method: method, path: route.key, place: .body, field: field,
                            isFormatted: isFormatted(schema)))
                }
            }
        }
        return fields
    }

    /// The string leaves under `schema`, each with its JSON path.
    private static func strings(in schema: YAMLNode?, path: String, document: YAMLNode) -> [(String, YAMLNode)] {
        guard let schema = schema.map({ resolve($0, in: document) }) else { return [] }
        if isString(schema) { return [(path, schema)] }
        var found: [(String, YAMLNode)] = []
        for property in schema["properties"]?.entries ?? [] {
            let child = path.isEmpty ? property.key : "\(path).\(property.key)"
            found += strings(in: property.value, path: child, document: document)
        }
        if let values = schema["additionalProperties"], values.string == nil {
            found += strings(in: values, path: path.isEmpty ? "*" : "\(path).*", document: document)
        }
        if let items = schema["items"] {
            found += strings(in: items, path: "\(path)[0]", document: document)
        }
        return found
    }

    /// The node a `$ref` points at (only references inside the document), or the node itself.
    static func resolve(_ node: YAMLNode, in document: YAMLNode) -> YAMLNode {
        guard let reference = node["$ref"]?.string, reference.hasPrefix("#/") else { return node }
        var target: YAMLNode? = document
        for part in reference.dropFirst(2).split(separator: "/") { target = target?[String(part)] }
        return target.map { resolve($0, in: document) } ?? node
    }

    private static func isString(_ schema: YAMLNode) -> Bool {
        switch schema["type"] {
        case .scalar("string"): true
        case .list(let types): types.contains { $0.string == "string" }
        default: false
        }
    }

    private static func isFormatted(_ schema: YAMLNode) -> Bool {
        // `hex`: a Nostr event's id, key or signature, which its type reads as hex or refuses as malformed.
        schema["enum"] != nil || ["uuid", "date-time", "hex"].contains(schema["format"]?.string ?? "")
    }
}
