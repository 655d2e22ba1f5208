import Crypto
import Foundation
import Testing

@testable import SpotterServer

/// Our SigV4 signer against botocore's, byte for byte, from `scripts/sigv4-vectors.py` with a frozen clock:
/// 210 presigned URLs (keys with spaces, unicode, emoji, `+`, `=`, `&`, `?`, `#`, quotes, double and trailing
/// slashes and the other reserved characters; GET and PUT with and without a signed content type; path-style
/// and virtual-hosted buckets; default and explicit ports; expiries from a second to a week), and 200 server
/// requests signed in their headers (PUT with bodies and content types, GET, HEAD, DELETE) as botocore's
/// client sends them.
@Suite("SigV4 against botocore")
struct SigV4Tests {
    struct Vectors: Decodable {
        let presigned: [Vector]
        let headers: [Vector]
    }

    struct Vector: Decodable {
        let endpoint: String
        let addressing: String
        let region: String
        let bucket: String
        let key: String
        let method: String
        let contentType: String?
        let expires: Int?
        let body: String?
        let date: String
        let url: String
        let authorization: String?

        enum CodingKeys: String, CodingKey {
            case endpoint, addressing, region, bucket, key, method, expires, body, date, url, authorization
            case contentType = "content_type"
        }

        func signer() throws -> SigV4 {
            SigV4(
                endpoint: try #require(URL(string: endpoint)), region: region,
                addressing: try #require(SigV4.Addressing(rawValue: addressing)),
                credentials: .init(
                    accessKeyID: "AKIDSPOTTEREXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"))
        }

        func signingDate() throws -> Date {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            return try #require(formatter.date(from: date))
        }
    }

    static let vectors: Vectors = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "sigv4-botocore.json")
        // A missing or unreadable file fails the tests below (no vectors), rather than passing with none.
        guard let data = try? Data(contentsOf: file) else { return Vectors(presigned: [], headers: []) }
        return (try? JSONDecoder().decode(Vectors.self, from: data)) ?? Vectors(presigned: [], headers: [])
    }()

    @Test("the file holds botocore's vectors: at least 200 presigned URLs and 200 signed requests")
    func vectorsPresent() {
        #expect(Self.vectors.presigned.count == 210)
        #expect(Self.vectors.headers.count == 200)
    }

    @Test("each presigned URL is botocore's, byte for byte", arguments: Self.vectors.presigned.indices)
    func matchesBotocore(index: Int) throws {
        let vector = Self.vectors.presigned[index]
        let url = try vector.signer().presignedURL(
            method: vector.method, bucket: vector.bucket, key: vector.key, contentType: vector.contentType,
            expires: try #require(vector.expires), date: try vector.signingDate())
        #expect(url.absoluteString == vector.url, "\(vector.method) \(vector.key) \(vector.endpoint)")
    }

    @Test("each request signed in its headers is botocore's, byte for byte", arguments: Self.vectors.headers.indices)
    func headersMatchBotocore(index: Int) throws {
        let vector = Self.vectors.headers[index]
        let signer = try vector.signer()
        let body = Data((vector.body ?? "").utf8)
        let payloadHash = SigV4.hex(SHA256.hash(data: body))
        let headers = signer.signedHeaders(
            method: vector.method, bucket: vector.bucket, key: vector.key,
            headers: vector.contentType.map { ["Content-Type": $0] } ?? [:], payloadHash: payloadHash,
            date: try vector.signingDate())
        #expect(headers["Authorization"] == vector.authorization, "\(vector.method) \(vector.key) \(vector.endpoint)")
        #expect(headers["X-Amz-Date"] == vector.date)
        // The URL the request goes to is the one botocore sent it to.
        let (host, path) = signer.location(bucket: vector.bucket, key: vector.key)
        #expect("\(URL(string: vector.endpoint)!.scheme!)://\(host)\(path)" == vector.url)
        #expect(headers["Host"] == host)
    }
}
