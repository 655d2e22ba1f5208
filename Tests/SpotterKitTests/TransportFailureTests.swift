import Foundation
import SpotterKit
import SpotterModels
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// No response from the server, said in words: where, and which kind of failure, never an error domain's dump.
@Suite("Network failures in words")
struct TransportFailureTests {
    /// A network that fails every request the same way.
    struct Failing: HTTPTransport {
        let error: URLError

        func send(_ request: HTTPRequestData) async throws -> HTTPResponseData { throw error }
    }

    @Test(
        "each kind of network failure has its phrase, after the server's address",
        arguments: [
            (URLError.Code.cannotConnectToHost, "connection refused"),
            (.timedOut, "no answer (timed out)"),
            (.cannotFindHost, "no such host"),
            (.notConnectedToInternet, "not connected to the internet"),
            (.networkConnectionLost, "the connection was lost"),
            (.serverCertificateUntrusted, "the secure connection failed (TLS)"),
        ])
    func phrases(code: URLError.Code, phrase: String) async throws {
        // Given a client whose network fails that way
        let client = SpotterClient(
            baseURL: URL(string: "https://gym.example:8443/spotter")!, transport: Failing(error: URLError(code)),
            retry: .none)

        // When it asks for a feed
        do {
            _ = try await client.feed(.global)
            Issue.record("the call should fail")
        } catch let error as SpotterClientError {
            // Then it says where it could not reach, and why
            #expect(error.description == "cannot reach https://gym.example:8443: \(phrase)")
            #expect(error.isTransient)
        }
    }
}
