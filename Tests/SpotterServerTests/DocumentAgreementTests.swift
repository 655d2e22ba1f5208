import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// What the OpenAPI document allows, the server takes; what the document refuses, the server refuses the way
/// the document says (issue 24, item 7, found by schemathesis' positive and negative checks).
@Suite("What the document allows, the server takes")
struct DocumentAgreementTests {
    @Test("an empty cursor is the first page on every paged route", arguments: StorageBackend.available)
    func emptyCursor(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, with a post
            let ana = try await api.user("ana")
            let post = try await api.post(ana, "Deadlifts today #legday")
            // When each paged route is asked for `cursor=` (and `since=`, where it takes one)
            let paged = [
                "/api/v1/users/ana/posts", "/api/v1/users/ana/followers", "/api/v1/users/ana/following",
                "/api/v1/me/follow-requests", "/api/v1/posts/\(post.id)/comments", "/api/v1/feeds/following",
                "/api/v1/feeds/featured", "/api/v1/feeds/global", "/api/v1/feeds/tags/legday", "/api/v1/exercises",
                "/api/v1/workout-templates", "/api/v1/notifications",
            ]
            for path in paged {
                let response = try await api.call(.get, "\(path)?cursor=", token: ana)
                // Then it is the first page, as if no cursor had been given
                #expect(response.status == .ok, "\(path): \(response.text)")
            }
            let since = try await api.call(.get, "/api/v1/feeds/global?since=", token: ana)
            #expect(try since.decode(Page<Post>.self).items.map(\.id) == [post.id])
        }
    }
}
