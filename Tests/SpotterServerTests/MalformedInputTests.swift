import Foundation
import HTTPTypes
import NIOCore
import SpotterModels
import SpotterTestSupport
import Testing

/// No input, however malformed, gets a 5xx or a dropped connection: each gets a 4xx problem+json.
@Suite("Malformed input")
struct MalformedInputTests {
    static let cases: [(name: String, body: String, status: HTTPResponse.Status, field: String?)] = [
        ("not JSON", "{nope", .badRequest, nil),
        ("an array instead of an object", "[1,2,3]", .badRequest, nil),
        ("a wrong type", #"{"email": 5, "username": "ana", "password": "correct horse"}"#, .badRequest, "email"),
        ("a missing field", #"{"email": "a@example.com", "password": "correct horse"}"#, .badRequest, "username"),
        ("a null field", #"{"email": null, "username": "ana", "password": "correct horse"}"#, .badRequest, "email"),
        ("an empty body", "", .badRequest, nil),
        ("a huge number", #"{"email": 1e999999, "username": "ana", "password": "x"}"#, .badRequest, "email"),
    ]

    @Test("malformed signup bodies get 400 naming the field", arguments: Self.cases.indices)
    func malformedBodies(index: Int) async throws {
        let testCase = Self.cases[index]
        try await TestApp.run(.sqlite) { api in
            let response = try await api.call(.post, "/api/v1/auth/signup", json: testCase.body)
            #expect(response.status == testCase.status, "\(testCase.name)")
            let problem = try response.problem()
            #expect(problem.status == Int(testCase.status.code))
            if let field = testCase.field { #expect(problem.errors?.first?.field == field, "\(testCase.name)") }
        }
    }

    @Test("invalid UTF-8 is a 400")
    func invalidUTF8() async throws {
        try await TestApp.run(.sqlite) { api in
            var buffer = ByteBuffer(string: #"{"email": ""#)
            buffer.writeBytes([0xFF, 0xFE, 0xC3])
            buffer.writeString(#"", "username": "ana", "password": "correct horse"}"#)
            let response = try await api.client.execute(
                uri: "/api/v1/auth/signup", method: .post, headers: [.contentType: "application/json"], body: buffer)
            #expect(response.status == .badRequest)
            _ = try response.problem()
        }
    }

    @Test("a body over the limit is 413")
    func hugeBody() async throws {
        try await TestApp.run(.sqlite, configure: { $0.maxBodySize = 64 * 1024 }) { api in
            let padding = String(repeating: "a", count: 100 * 1024)
            let response = try await api.call(
                .post, "/api/v1/auth/signin", json: #"{"login": "\#(padding)", "password": "x"}"#)
            #expect(response.status == .contentTooLarge)
            _ = try response.problem()
        }
    }

    @Test("unknown routes and methods are 4xx problems")
    func unknownRoutes() async throws {
        try await TestApp.run(.sqlite) { api in
            for (method, path) in [
                (HTTPRequest.Method.get, "/nope"), (.get, "/api/v1/auth/signup"), (.delete, "/api/v1/me"),
                (.get, "/api/v1/%FF%FE"),
            ] {
                let response = try await api.call(method, path)
                #expect((400..<500).contains(response.status.code), "\(method) \(path)")
                _ = try response.problem()
            }
        }
    }

    @Test("odd strings that parse are judged by the rules, not crashed on")
    func oddStrings() async throws {
        try await TestApp.run(.sqlite) { api in
            for login in ["", "🏋️‍♀️", String(repeating: "x", count: 10_000), "' OR 1=1 --"] {
                let response = try await api.call(
                    .post, "/api/v1/auth/signin", body: SigninRequest(login: login, password: "whatever"))
                #expect(response.status == .unauthorized)
            }
            let nul = try await api.call(
                .post, "/api/v1/auth/signin", body: SigninRequest(login: "\u{0}", password: "whatever"))
            #expect(try nul.problem().errors?.map(\.field) == ["login"])
            let signup = try await api.call(
                .post, "/api/v1/auth/signup",
                body: SignupRequest(email: "a\u{0}@example.com", username: "ana\u{0}", password: "\u{0}\u{0}"))
            #expect(signup.status == .unprocessableContent)
        }
    }
}
