import Foundation
import HTTPTypes
import SpotterModels
import SpotterTestSupport
import Testing

/// A method a path does not take is a 405 naming the methods it does (RFC 9110 §15.5.6); a path that isn't
/// there at all stays a 404 (issue 24, item 8).
@Suite("Methods a path does not take")
struct MethodNotAllowedTests {
    @Test(
        "an undeclared method on an existing path is a 405 problem with Allow",
        arguments: [
            (HTTPRequest.Method.put, "/api/v1/me", "GET, PATCH"),
            (.delete, "/api/v1/me", "GET, PATCH"),
            (.init("TRACE")!, "/healthz", "GET"),
            (
                .post,
                "/api/v1/posts/01a2130c-7a56-72f7-9efc-ad04463f2def/comments/01a2130c-7a56-72f7-9efc-ad04463f2def",
                "DELETE, PATCH"
            ),
            (.patch, "/api/v1/users/ana/follow", "DELETE, POST"),
            (.get, "/api/v1/auth/signup", "POST"),
        ])
    func methodNotAllowed(method: HTTPRequest.Method, path: String, allow: String) async throws {
        try await TestApp.run(.sqlite) { api in
            // Given a signed-in caller, so authentication is not what answers
            let ana = try await api.user("ana")
            // When she uses a method the path does not take
            let response = try await api.call(method, path, token: ana)
            // Then the answer is 405, naming the methods it does take
            #expect(response.status == .methodNotAllowed, "\(method) \(path)")
            #expect(response.headers[.allow] == allow)
            #expect(try response.problem().status == 405)
        }
    }

    @Test("a path that does not exist stays a 404, whatever the method")
    func unknownPath() async throws {
        try await TestApp.run(.sqlite) { api in
            for method in [HTTPRequest.Method.get, .put, .init("TRACE")!] {
                let response = try await api.call(method, "/api/v1/nothing-here")
                #expect(response.status == .notFound, "\(method)")
                #expect(response.headers[.allow] == nil)
                _ = try response.problem()
            }
        }
    }
}
