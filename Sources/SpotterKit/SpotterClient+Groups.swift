import Foundation
import SpotterModels

/// Groups (issue 28): finding, making and running them, who is in them, invitations, and a group's posts.
/// A group one may not see answers 404 as if it did not exist; an action one may not take, 403 with why.
///
/// ```swift
/// let club = try await client.createGroup(CreateGroupRequest(name: "Riverside Runners", access: .open))
/// let link = try await client.createInvitation(to: club.id, CreateInvitationRequest(maxUses: 10))
/// print(link.url ?? "")                       // shown once: the server keeps only its hash
/// // …on another phone:
/// let joined = try await other.joinGroup(code: link.code!)
/// _ = try await other.createPost(CreatePostRequest(kind: .note, text: "Hi all!", groupID: joined.id))
/// ```
extension SpotterClient {
    // MARK: Groups

    /// Groups anyone may find whose name matches `query` (any, when it is empty), the biggest first; a private
    /// group never appears.
    public func groups(matching query: String = "") async throws -> Page<Group> {
        try await call(
            Call(
                method: "GET", path: "/api/v1/groups", query: Self.query(["q": query.isEmpty ? nil : query]),
                authenticated: await isSignedIn))
    }

    /// The groups I asked to join and wait on (`leaveGroup` withdraws a request).
    public func myGroupRequests() async throws -> Page<Group> {
        try await call(Call(method: "GET", path: "/api/v1/me/group-requests"))
    }

    /// The groups I belong to, by name.
    public func myGroups() async throws -> Page<Group> {
        try await call(Call(method: "GET", path: "/api/v1/me/groups"))
    }

    /// A group's about page, with my standing in it.
    public func group(_ id: GroupID) async throws -> Group {
        try await call(Call(method: "GET", path: "/api/v1/groups/\(id)", authenticated: await isSignedIn))
    }

    /// Makes a group; I am its owner.
    public func createGroup(_ request: CreateGroupRequest, idempotencyKey: String? = nil) async throws -> Group {
        try await call(
            .change("POST", "/api/v1/groups", body: try Self.encoder.encode(request), key: idempotencyKey))
    }

    /// Changes the fields given (owner and admins).
    public func updateGroup(
        _ id: GroupID, _ request: UpdateGroupRequest, idempotencyKey: String? = nil
    ) async throws -> Group {
        try await call(
            .change("PATCH", "/api/v1/groups/\(id)", body: try Self.encoder.encode(request), key: idempotencyKey))
    }

    /// Deletes the group and tombstones its posts (the owner only).
    public func deleteGroup(_ id: GroupID, idempotencyKey: String? = nil) async throws {
        _ = try await send(.change("DELETE", "/api/v1/groups/\(id)", key: idempotencyKey))
    }

    /// A page of the group's posts: newest first (the same paging as ``feed(_:cursor:since:limit:)``, which
    /// reads it too as `.group(id)`), or in the `top` order, ranked for me (pass its `nextCursor` on; `since`
    /// is for the newest order only).
    public func groupPosts(
        _ id: GroupID, order: GroupFeedOrder = .newest, cursor: String? = nil, since: String? = nil,
        limit: Int? = nil
    ) async throws -> Page<Post> {
        guard order != .newest else { return try await feed(.group(id), cursor: cursor, since: since, limit: limit) }
        return try await call(
            Call(
                method: "GET", path: "/api/v1/groups/\(id)/posts",
                query: Self.query(["order": order.rawValue, "cursor": cursor, "limit": limit.map(String.init)]),
                authenticated: await isSignedIn))
    }

    /// Marks the group's posts seen up to `post` (the newest shown), so the group's `newPosts` counts only what
    /// came after; the group as it now is.
    @discardableResult
    public func markGroupSeen(_ id: GroupID, upTo post: PostID, idempotencyKey: String? = nil) async throws -> Group {
        try await call(
            .change(
                "POST", "/api/v1/groups/\(id)/seen", body: try Self.encoder.encode(GroupSeenRequest(upTo: post)),
                key: idempotencyKey))
    }

    /// A page of the group's members, for those who may see them.
    public func groupMembers(_ id: GroupID, cursor: String? = nil, limit: Int? = nil) async throws -> Page<GroupMember>
    {
        try await call(
            Call(
                method: "GET", path: "/api/v1/groups/\(id)/members",
                query: Self.query(["cursor": cursor, "limit": limit.map(String.init)]),
                authenticated: await isSignedIn))
    }

    // MARK: Joining and leaving

    /// Joins an open group, accepts an invitation by name, or asks to join a `request` group; the group's
    /// `standing` says which happened (`member` or `requested`).
    public func joinGroup(_ id: GroupID, idempotencyKey: String? = nil) async throws -> Group {
        try await call(.change("POST", "/api/v1/groups/\(id)/join", key: idempotencyKey))
    }

    /// Joins through an invitation link's code (see ``InvitationLink`` to take it out of a link).
    public func joinGroup(code: String, idempotencyKey: String? = nil) async throws -> Group {
        try await call(
            .change(
                "POST", "/api/v1/groups/join", body: try Self.encoder.encode(JoinByCodeRequest(code: code)),
                key: idempotencyKey))
    }

    /// The group an invitation link's code leads to, before joining it (even a private one: the code is the
    /// proof of invitation).
    public func invitationPreview(code: String) async throws -> Group {
        try await call(
            Call(method: "GET", path: "/api/v1/group-invitations/\(code.pathEscaped)", authenticated: await isSignedIn))
    }

    /// Leaves a group, withdraws a request to join, or declines an invitation by name. The owner transfers the
    /// group first.
    public func leaveGroup(_ id: GroupID, idempotencyKey: String? = nil) async throws {
        _ = try await send(.change("POST", "/api/v1/groups/\(id)/leave", key: idempotencyKey))
    }

    // MARK: Running a group (owner and admins)

    /// People asking to join, for admins.
    public func joinRequests(of id: GroupID) async throws -> Page<GroupJoinRequest> {
        try await call(Call(method: "GET", path: "/api/v1/groups/\(id)/requests"))
    }

    /// Lets someone who asked in (`approve`), or turns them away.
    public func answerJoinRequest(
        in id: GroupID, from user: UserID, approve: Bool, idempotencyKey: String? = nil
    ) async throws {
        let path = "/api/v1/groups/\(id)/requests/\(user)"
        _ = try await send(
            approve
                ? .change("POST", path + "/approve", key: idempotencyKey)
                : .change("DELETE", path, key: idempotencyKey))
    }

    /// Makes a member an admin, or an admin a member again (the owner only).
    public func setRole(_ role: GroupRole, of user: UserID, in id: GroupID, idempotencyKey: String? = nil) async throws
    {
        _ = try await send(
            .change(
                "PATCH", "/api/v1/groups/\(id)/members/\(user)",
                body: try Self.encoder.encode(SetMemberRoleRequest(role: role)), key: idempotencyKey))
    }

    /// Removes a member (or a request, or an invitation by name); they may join again.
    public func removeMember(_ user: UserID, from id: GroupID, idempotencyKey: String? = nil) async throws {
        _ = try await send(.change("DELETE", "/api/v1/groups/\(id)/members/\(user)", key: idempotencyKey))
    }

    /// Who is banned from the group (admins and the owner), oldest ban first.
    public func groupBans(of id: GroupID) async throws -> Page<GroupBan> {
        try await call(Call(method: "GET", path: "/api/v1/groups/\(id)/bans"))
    }

    /// Bans someone (`true`: removed if a member, and kept from coming back) or lifts the ban.
    public func setBanned(_ banned: Bool, _ user: UserID, in id: GroupID, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change(banned ? "PUT" : "DELETE", "/api/v1/groups/\(id)/bans/\(user)", key: idempotencyKey))
    }

    /// Hands the group to another member (the owner only); the old owner stays as an admin.
    public func transferGroup(_ id: GroupID, to user: UserID, idempotencyKey: String? = nil) async throws -> Group {
        try await call(
            .change(
                "POST", "/api/v1/groups/\(id)/transfer",
                body: try Self.encoder.encode(TransferGroupRequest(userID: user)), key: idempotencyKey))
    }

    // MARK: Invitations

    /// Makes an invitation link (no `username`: its `code` and `url` are in this answer only) or invites a
    /// named person, who sees it in ``myGroupInvitations()``.
    public func createInvitation(
        to id: GroupID, _ request: CreateInvitationRequest = CreateInvitationRequest(), idempotencyKey: String? = nil
    ) async throws -> GroupInvitation {
        try await call(
            .change(
                "POST", "/api/v1/groups/\(id)/invitations", body: try Self.encoder.encode(request), key: idempotencyKey
            ))
    }

    /// The group's invitations, newest first, for admins (links without their codes).
    public func invitations(of id: GroupID) async throws -> Page<GroupInvitation> {
        try await call(Call(method: "GET", path: "/api/v1/groups/\(id)/invitations"))
    }

    /// Stops an invitation from working; an invitation by name is withdrawn.
    public func revokeInvitation(
        _ invitation: GroupInvitationID, in id: GroupID, idempotencyKey: String? = nil
    ) async throws {
        _ = try await send(.change("DELETE", "/api/v1/groups/\(id)/invitations/\(invitation)", key: idempotencyKey))
    }

    /// Invitations by name waiting for me; accept with ``joinGroup(_:idempotencyKey:)``, decline with
    /// ``leaveGroup(_:idempotencyKey:)``.
    public func myGroupInvitations() async throws -> Page<GroupInvitation> {
        try await call(Call(method: "GET", path: "/api/v1/me/group-invitations"))
    }
}

/// An invitation link's code, from what someone pasted: the link the server made
/// (`https://spotter.example/groups/join/<code>`), its path, or the bare code.
///
/// ```swift
/// let group = try await client.joinGroup(code: InvitationLink.code(from: pasted))
/// ```
public enum InvitationLink {
    public static func code(from text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let path = URLComponents(string: trimmed)?.path ?? trimmed
        let parts = path.split(separator: "/")
        if let join = parts.lastIndex(of: "join"), join + 1 < parts.endIndex { return String(parts[join + 1]) }
        return String(parts.last ?? Substring(trimmed))
    }
}
