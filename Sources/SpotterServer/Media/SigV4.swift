import Crypto
import Foundation
import SpotterCore

/// AWS Signature Version 4 for S3, in both forms: presigned URLs (query auth) a client can PUT to or GET
/// from without credentials of its own until they expire, and the `Authorization` header that signs the
/// server's own requests over their payload's SHA-256.
///
/// Written by hand because no Swift S3 library is available here (the blob store's S3 adapter is the first
/// user). It is tested byte for byte against botocore with a frozen clock
/// (`Tests/SpotterServerTests/Media/sigv4-botocore.json`, made by `scripts/sigv4-vectors.py`): 210 presigned
/// URLs and 200 header-signed requests, keys with spaces, unicode, `+` and other reserved characters, both
/// addressing styles, content types and expiries.
struct SigV4: Sendable {
    struct Credentials: Sendable {
        let accessKeyID: String
        let secretAccessKey: String
    }

    typealias Addressing = S3Addressing

    let endpoint: URL
    let region: String
    let addressing: Addressing
    let credentials: Credentials

    /// A presigned URL for `method` on `key` in `bucket`, valid for `expires` seconds from `date`. A content
    /// type, when given, is signed: the upload must send exactly that `Content-Type`.
    func presignedURL(
        method: String, bucket: String, key: String, contentType: String? = nil, expires: Int, date: Date
    ) -> URL {
        let (host, path) = location(bucket: bucket, key: key)
        let (day, stamp) = Self.timestamps(date)
        let scope = "\(day)/\(region)/s3/aws4_request"
        var headers = ["host": host]
        if let contentType { headers["content-type"] = contentType }
        let signedHeaders = headers.keys.sorted().joined(separator: ";")
        let query = [
            ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
            ("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope)"),
            ("X-Amz-Date", stamp),
            ("X-Amz-Expires", String(expires)),
            ("X-Amz-SignedHeaders", signedHeaders),
        ]
        .map { (Self.encode($0.0, keepSlash: false), Self.encode($0.1, keepSlash: false)) }
        .sorted { $0.0 < $1.0 }
        .map { "\($0.0)=\($0.1)" }
        .joined(separator: "&")
        let canonicalRequest = [
            method, path, query,
            headers.keys.sorted().map { "\($0):\(headers[$0]!.trimmingCharacters(in: .whitespaces))\n" }.joined(),
            signedHeaders, "UNSIGNED-PAYLOAD",
        ].joined(separator: "\n")
        let signature = sign(canonicalRequest, day: day, stamp: stamp)
        let scheme = endpoint.scheme ?? "https"
        return URL(string: "\(scheme)://\(host)\(path)?\(query)&X-Amz-Signature=\(signature)")!
    }

    /// The headers that sign a server request in its `Authorization` header: `headers` (a content type, say)
    /// with `Host`, `X-Amz-Date`, `X-Amz-Content-SHA256` (`payloadHash`, the body's SHA-256 in hex) and the
    /// `Authorization` itself. Every header returned is signed, so none may change on the way; a transport may
    /// add unsigned ones (`Content-Length`).
    func signedHeaders(
        method: String, bucket: String, key: String, headers: [String: String] = [:], payloadHash: String,
        date: Date
    ) -> [String: String] {
        let (host, path) = location(bucket: bucket, key: key)
        let (day, stamp) = Self.timestamps(date)
        let scope = "\(day)/\(region)/s3/aws4_request"
        var signed: [String: String] = [:]
        for (name, value) in headers {
            // As botocore does: trimmed, runs of spaces as one.
            signed[name.lowercased()] = value.split(separator: " ", omittingEmptySubsequences: true).joined(
                separator: " ")
        }
        signed["host"] = host
        signed["x-amz-date"] = stamp
        signed["x-amz-content-sha256"] = payloadHash
        let names = signed.keys.sorted()
        let signedHeaders = names.joined(separator: ";")
        let canonicalRequest = [
            method, path, "", names.map { "\($0):\(signed[$0]!)\n" }.joined(), signedHeaders, payloadHash,
        ].joined(separator: "\n")
        let signature = sign(canonicalRequest, day: day, stamp: stamp)
        var out = headers
        out["Host"] = host
        out["X-Amz-Date"] = stamp
        out["X-Amz-Content-SHA256"] = payloadHash
        out["Authorization"] =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), "
            + "Signature=\(signature)"
        return out
    }

    /// The hex HMAC of the string to sign made from `canonicalRequest`, under the day's signing key.
    private func sign(_ canonicalRequest: String, day: String, stamp: String) -> String {
        let stringToSign = [
            "AWS4-HMAC-SHA256", stamp, "\(day)/\(region)/s3/aws4_request",
            Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8))),
        ].joined(separator: "\n")
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: signingKey(day)))
    }

    /// The `Host` header's value and the request's path, already percent-encoded as S3 signs it.
    func location(bucket: String, key: String) -> (host: String, path: String) {
        var host = endpoint.host ?? ""
        if let port = endpoint.port, port != (endpoint.scheme == "https" ? 443 : 80) { host += ":\(port)" }
        switch addressing {
        case .path: return (host, "/" + Self.encode(bucket, keepSlash: true) + "/" + Self.encode(key, keepSlash: true))
        case .virtual: return ("\(bucket).\(host)", "/" + Self.encode(key, keepSlash: true))
        }
    }

    /// kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, day), region), "s3"), "aws4_request").
    private func signingKey(_ day: String) -> SymmetricKey {
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, "s3", "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters (and `/` in paths), as SigV4
    /// wants: S3 signs the path as sent, encoded once.
    static func encode(_ text: String, keepSlash: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: "/") where keepSlash:
                out.append("/")
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// `20261125` and `20261125T183005Z`, in UTC.
    static func timestamps(_ date: Date) -> (day: String, stamp: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = String(format: "%04d%02d%02d", c.year!, c.month!, c.day!)
        return (day, day + String(format: "T%02d%02d%02dZ", c.hour!, c.minute!, c.second!))
    }

    static func hex(_ digest: some ContiguousBytes) -> String { Hex.encode(digest) }
}
