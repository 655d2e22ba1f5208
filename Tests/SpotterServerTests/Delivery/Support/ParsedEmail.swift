import Foundation

/// A received message read back as a mail client would: headers unfolded, RFC 2047 words decoded, the
/// multipart body split by its boundary and each part's transfer encoding undone.
struct ParsedEmail {
    struct Part {
        var headers: [String: String]
        /// The decoded text, line ends as `\n`.
        var text: String
    }

    struct Unparseable: Error, CustomStringConvertible { let description: String }

    /// Header names lowercased.
    var headers: [String: String]
    var parts: [Part]

    init(_ raw: String) throws {
        let (head, body) = try Self.split(raw)
        headers = Self.headers(head)
        guard let type = headers["content-type"], type.hasPrefix("multipart/alternative"),
            let boundary = type.components(separatedBy: "boundary=\"").last?.split(separator: "\"").first
        else { throw Unparseable(description: "not multipart/alternative") }
        let sections = body.components(separatedBy: "--\(boundary)")
        guard sections.count >= 3, sections.last?.hasPrefix("--") == true else {
            throw Unparseable(description: "no closing boundary")
        }
        parts = try sections.dropFirst().dropLast().map { section in
            // "\r\n" is one Character in Swift: drop it as such, after the boundary and before the next.
            let (partHead, partBody) = try Self.split(String(section.dropFirst()))
            let partHeaders = Self.headers(partHead)
            let content = partBody.hasSuffix("\r\n") ? String(partBody.dropLast()) : partBody
            let bytes: Data
            switch partHeaders["content-transfer-encoding"]?.lowercased() {
            case "quoted-printable": bytes = Self.quotedPrintable(content)
            case "base64": bytes = Data(base64Encoded: content, options: .ignoreUnknownCharacters) ?? Data()
            default: bytes = Data(content.utf8)
            }
            let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            return Part(headers: partHeaders, text: text)
        }
    }

    /// The subject as the sender wrote it.
    var subject: String { Self.decodeWords(headers["subject"] ?? "") }

    func part(_ type: String) -> Part? {
        parts.first { $0.headers["content-type"]?.hasPrefix(type) == true }
    }

    private static func split(_ raw: String) throws -> (String, String) {
        guard let range = raw.range(of: "\r\n\r\n") else { throw Unparseable(description: "no blank line") }
        return (String(raw[..<range.lowerBound]), String(raw[range.upperBound...]))
    }

    private static func headers(_ head: String) -> [String: String] {
        // RFC 5322 §2.2.3: a line that starts with white space continues the previous header.
        let unfolded = head.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: " ")
        var result: [String: String] = [:]
        for line in unfolded.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            result[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return result
    }

    /// RFC 2047 `=?UTF-8?B?…?=` words; white space between two encoded words is dropped (§6.2).
    private static func decodeWords(_ value: String) -> String {
        value.split(separator: " ").map { word -> (String, Bool) in
            guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?="),
                let data = Data(base64Encoded: String(word.dropFirst(10).dropLast(2)))
            else { return (String(word), false) }
            return (String(decoding: data, as: UTF8.self), true)
        }
        .reduce(into: (text: "", lastEncoded: false)) { result, word in
            let separator = result.text.isEmpty || (result.lastEncoded && word.1) ? "" : " "
            result.text += separator + word.0
            result.lastEncoded = word.1
        }.text
    }

    /// RFC 2045 §6.7: soft breaks vanish, `=XX` is a byte.
    private static func quotedPrintable(_ text: String) -> Data {
        let bytes = Array(text.replacingOccurrences(of: "=\r\n", with: "").utf8)
        var output = Data()
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "="), index + 2 < bytes.count,
                let byte = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                output.append(byte)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }
}
