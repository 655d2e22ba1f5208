import Foundation
import Testing

@testable import SpotterServer

/// Our SigV4 presigner against botocore's, byte for byte: 81 URLs botocore made with a frozen clock
/// (`scripts/sigv4-vectors.py`) for keys with spaces, unicode, `+`, `=`, `&`, quotes and the other reserved
/// characters, GET and PUT with and without a signed content type, path-style and virtual-hosted buckets,
/// default and explicit ports, and expiries from a minute to a week.
@Suite("SigV4 presigned URLs")
struct SigV4Tests {
    struct Vector: Decodable {
        let endpoint: String
        let addressing: String
        let region: String
        let bucket: String
        let key: String
        let method: String
        let contentType: String?
        let expires: Int
        let date: String
        let url: String

        enum CodingKeys: String, CodingKey {
            case endpoint, addressing, region, bucket, key, method, expires, date, url
            case contentType = "content_type"
        }
    }

    static let vectors: [Vector] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "sigv4-botocore.json")
        // A missing or unreadable file fails the test below (no vectors), rather than passing with none.
        guard let data = try? Data(contentsOf: file) else { return [] }
        return (try? JSONDecoder().decode([Vector].self, from: data)) ?? []
    }()

    @Test("the file holds botocore's vectors")
    func vectorsPresent() {
        #expect(Self.vectors.count == 81)
    }

    @Test("each presigned URL is botocore's, byte for byte", arguments: Self.vectors.indices)
    func matchesBotocore(index: Int) throws {
        let vector = Self.vectors[index]
        let signer = SigV4(
            endpoint: try #require(URL(string: vector.endpoint)), region: vector.region,
            addressing: try #require(SigV4.Addressing(rawValue: vector.addressing)),
            credentials: .init(
                accessKeyID: "AKIDSPOTTEREXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let date = try #require(formatter.date(from: vector.date))
        let url = signer.presignedURL(
            method: vector.method, bucket: vector.bucket, key: vector.key, contentType: vector.contentType,
            expires: vector.expires, date: date)
        #expect(url.absoluteString == vector.url, "\(vector.method) \(vector.key) \(vector.endpoint)")
    }
}
