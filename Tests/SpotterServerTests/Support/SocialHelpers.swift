import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterModels

/// Shorthands for the social routes, so scenario tests read as what people do.
extension APIClient {
    /// Signs up and returns the access token.
    func user(_ name: String) async throws -> String { try await signup(name).accessToken }

    @discardableResult
    func post(_ token: String, _ text: String, visibility: Visibility? = nil) async throws -> Post {
        let response = try await call(
            .post, "/api/v1/posts", token: token,
            body: CreatePostRequest(kind: .note, text: text, visibility: visibility))
        guard response.status == .created else { throw UnexpectedStatus(response: response) }
        return try response.decode(Post.self)
    }

    @discardableResult
    func workout(
        _ token: String, _ title: String, sets: [WorkoutSet], exercise: String = "Back Squat", at start: Date
    )
        async throws -> Post
    {
        let workout = WorkoutRecord(
            title: title, type: .strength, startTime: start, endTime: start + 3600,
            exercises: [ExerciseEntry(name: exercise, sets: sets)])
        let response = try await call(
            .post, "/api/v1/posts", token: token, body: CreatePostRequest(kind: .workout, text: "", workout: workout))
        guard response.status == .created else { throw UnexpectedStatus(response: response) }
        return try response.decode(Post.self)
    }

    func feed(_ path: String, token: String?) async throws -> Page<Post> {
        let response = try await call(.get, path, token: token)
        guard response.status == .ok else { throw UnexpectedStatus(response: response) }
        return try response.decode(Page<Post>.self)
    }

    @discardableResult
    func follow(_ token: String, _ username: String) async throws -> Relationship {
        try await call(.post, "/api/v1/users/\(username)/follow", token: token).decode(Relationship.self)
    }

    /// Suspends `username` the way an admin does: an account granted the role (as `spotter admin grant`
    /// does) calls the admin route.
    func suspend(_ username: String) async throws {
        let moderator = try await signup("moderator_\(Int.random(in: 1000...9999))")
        _ = try await AdminService(storage: storage, clock: clock).setRole(moderator.user.username, .admin)
        let response = try await call(.post, "/api/v1/admin/users/\(username)/suspend", token: moderator.accessToken)
        guard response.status == .noContent else { throw UnexpectedStatus(response: response) }
    }
}
