import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterModels

/// Shorthands for the group routes, so scenario tests read as what people do.
extension APIClient {
    func createGroup(_ token: String, _ name: String, access: GroupAccess) async throws -> Group {
        let response = try await call(
            .post, "/api/v1/groups", token: token, body: CreateGroupRequest(name: name, access: access))
        guard response.status == .created else { throw UnexpectedStatus(response: response) }
        return try response.decode(Group.self)
    }

    @discardableResult
    func joinGroup(_ token: String, _ group: Group) async throws -> Group {
        let response = try await call(.post, "/api/v1/groups/\(group.id)/join", token: token)
        guard response.status == .ok else { throw UnexpectedStatus(response: response) }
        return try response.decode(Group.self)
    }

    func invite(
        _ token: String, _ group: Group, username: String? = nil, maxUses: Int? = nil
    ) async throws
        -> GroupInvitation
    {
        let response = try await call(
            .post, "/api/v1/groups/\(group.id)/invitations", token: token,
            body: CreateInvitationRequest(username: username, maxUses: maxUses))
        guard response.status == .created else { throw UnexpectedStatus(response: response) }
        return try response.decode(GroupInvitation.self)
    }

    @discardableResult
    func joinByCode(_ token: String, _ code: String) async throws -> Group {
        let response = try await call(.post, "/api/v1/groups/join", token: token, body: JoinByCodeRequest(code: code))
        guard response.status == .ok else { throw UnexpectedStatus(response: response) }
        return try response.decode(Group.self)
    }

    /// Makes `token`'s person a member however the group lets people in: joining, asking and being approved
    /// by `admin`, or an invitation link from `admin`.
    func addMember(_ token: String, username: String, to group: Group, admin: String) async throws {
        switch group.access {
        case .open:
            try await joinGroup(token, group)
        case .request:
            try await joinGroup(token, group)
            let person = try await call(.get, "/api/v1/users/\(username)", token: admin).decode(Profile.self)
            let response = try await call(
                .post, "/api/v1/groups/\(group.id)/requests/\(person.id)/approve", token: admin)
            guard response.status == .noContent else { throw UnexpectedStatus(response: response) }
        case .private:
            let link = try await invite(admin, group)
            try await joinByCode(token, link.code ?? "")
        }
    }

    @discardableResult
    func postToGroup(_ token: String, _ group: Group, _ text: String) async throws -> Post {
        let response = try await call(
            .post, "/api/v1/posts", token: token, body: CreatePostRequest(kind: .note, text: text, groupID: group.id))
        guard response.status == .created else { throw UnexpectedStatus(response: response) }
        return try response.decode(Post.self)
    }

    func userID(_ username: String, token: String) async throws -> UserID {
        try await call(.get, "/api/v1/users/\(username)", token: token).decode(Profile.self).id
    }
}
