import Foundation
import SpotterModels

/// Child profiles the signed-in person manages (no login, no keys, no public presence), and posts for them.
/// A post naming a child (`CreatePostRequest.childIDs`) may go only to a private group; the server refuses any
/// other audience with a problem naming `child_ids`, which the outbox keeps as a refusal for good.
///
/// ```swift
/// let lou = try await client.createChild(CreateChildProfileRequest(name: "Lou", birthYear: 2019))
/// try await client.createPost(CreatePostRequest(kind: .note, text: "Her first 5k!", groupID: family.id,
///                                               childIDs: [lou.id]))
/// ```
extension SpotterClient {
    /// The children I manage, by name.
    public func children() async throws -> [ChildProfile] {
        let page: Page<ChildProfile> = try await call(Call(method: "GET", path: "/api/v1/me/children"))
        return page.items
    }

    public func createChild(_ request: CreateChildProfileRequest) async throws -> ChildProfile {
        try await call(.change("POST", "/api/v1/me/children", body: try Self.encoder.encode(request), key: nil))
    }

    public func updateChild(_ id: ChildProfileID, _ request: UpdateChildProfileRequest) async throws -> ChildProfile {
        try await call(.change("PATCH", "/api/v1/me/children/\(id)", body: try Self.encoder.encode(request), key: nil))
    }

    /// Deletes the child and every post that names them.
    public func deleteChild(_ id: ChildProfileID) async throws {
        _ = try await send(.change("DELETE", "/api/v1/me/children/\(id)", key: nil))
    }

    /// Invites another account to manage the child too.
    @discardableResult
    public func inviteGuardian(_ username: String, to child: ChildProfileID) async throws -> ChildProfile {
        try await call(
            .change(
                "POST", "/api/v1/me/children/\(child)/guardians",
                body: try Self.encoder.encode(InviteGuardianRequest(username: username)), key: nil))
    }

    /// Children I am invited to manage.
    public func guardianInvitations() async throws -> [ChildProfile] {
        let page: Page<ChildProfile> = try await call(Call(method: "GET", path: "/api/v1/me/guardian-invitations"))
        return page.items
    }

    /// Accepts or declines an invitation to manage a child.
    public func answerGuardianInvitation(_ child: ChildProfileID, accept: Bool) async throws {
        _ = try await send(
            accept
                ? .change("POST", "/api/v1/me/guardian-invitations/\(child)/accept", key: nil)
                : .change("DELETE", "/api/v1/me/guardian-invitations/\(child)", key: nil))
    }
}
