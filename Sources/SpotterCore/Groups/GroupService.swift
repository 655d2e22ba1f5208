import Foundation
import SpotterModels

/// Groups: making and running them, who is in them, and invitations. Every decision is `GroupPolicy`'s; a
/// group someone may not see does not exist for them (404), and an action they may not take is a 403 that says
/// why.
public struct GroupService: Sendable {
    let storage: any SpotterStorage
    let clock: any WallClock
    /// Where live sockets hear that someone's access ended; `nil` in tools.
    let events: (any EventBus)?
    /// The site's address, for invitation links; `nil` gives links as paths.
    let siteURL: String?
    /// Who tells people of invitations, requests, acceptances and removals; `nil` in tools.
    let notifier: Notifier?
    /// Signs a private group's avatar URL for its members; `nil` when uploads are not enabled.
    let mediaLinks: MediaLinks?
    /// Who exists for whom, asked before someone is invited by name.
    let social: SocialService

    /// `social` is the composition root's; tools that pass none get one that tells nobody.
    public init(
        storage: any SpotterStorage, clock: any WallClock, events: (any EventBus)? = nil, siteURL: String? = nil,
        notifier: Notifier? = nil, mediaLinks: MediaLinks? = nil, social: SocialService? = nil
    ) {
        self.storage = storage
        self.clock = clock
        self.events = events
        self.siteURL = siteURL
        self.notifier = notifier
        self.mediaLinks = mediaLinks
        self.social = social ?? SocialService(storage: storage, clock: clock)
    }

    private var avatars: AvatarChoice { AvatarChoice(storage: storage, links: mediaLinks) }

    // MARK: Groups

    public func create(_ request: CreateGroupRequest, by owner: AccountRecord) async throws -> Group {
        let fields = try GroupRules.checked(request, defaultTimeZone: owner.profile.timeZone)
        // An encrypted group's members hold its keys, so it is by invitation only; its keys come from the owner's
        // device next (`E2EGroupService.change`).
        if request.encrypted == true, request.access != .private {
            throw SpotterError.invalid(
                "access", "must be private for an encrypted group: choose Private, or make the group without encryption"
            )
        }
        var record = GroupRecord(
            id: .generate(at: clock.now), name: fields.name, description: fields.description, avatarURL: nil,
            timeZone: fields.timeZone, access: request.access, ownerID: owner.id, createdAt: clock.now,
            encrypted: request.encrypted == true)
        if let avatar = request.avatarMediaID {
            record.avatarURL = try await avatars.path(of: avatar, for: .group(record.id), uploader: owner.id)
        }
        try await storage.write { [record] in
            try await storage.groups.create(record)
            if let avatar = request.avatarMediaID {
                try await storage.media.setAvatar(avatar, of: .group(record.id), at: clock.now)
            }
        }
        return try await view(record, standing: .owner)
    }

    /// The group's about page as `viewer` sees it.
    public func get(_ id: GroupID, viewer: AccountRecord?) async throws -> Group {
        let (group, standing) = try await visible(id, viewer: viewer)
        return try await view(group, standing: standing, viewer: viewer?.id)
    }

    public func update(_ id: GroupID, with request: UpdateGroupRequest, by actor: AccountRecord) async throws -> Group {
        let (group, standing) = try await permitted(.editSettings, id, actor: actor)
        var updated = try GroupRules.applied(request, to: group)
        if group.encrypted, updated.access != .private {
            throw SpotterError.conflict(field: "access", detail: "An encrypted group stays private.")
        }
        // The avatar: a new upload of the admin's, or none; the one it replaces is discarded for the sweep.
        var avatar: MediaID??
        if let id = request.avatarMediaID {
            updated.avatarURL = try await avatars.path(of: id, for: .group(group.id), uploader: actor.id)
            avatar = .some(id)
        } else if request.removeAvatar == true {
            updated.avatarURL = nil
            avatar = .some(nil)
        }
        if updated.access != group.access,
            !ChildSafetyPolicy.mayChangeAccess(
                to: updated.access, holdsChildContent: try await storage.children.groupHoldsChildContent(id))
        {
            throw SpotterError.conflict(
                field: "access", detail: "This group holds posts that name a child; it stays private while it does.")
        }
        try await storage.write { [updated] in
            try await storage.groups.update(updated)
            if let avatar { try await storage.media.setAvatar(avatar, of: .group(id), at: clock.now) }
        }
        return try await view(updated, standing: standing)
    }

    /// Deletes the group: its posts are tombstoned, its photos and avatar discarded for the sweep, and every member's
    /// live sockets leave its topic.
    public func delete(_ id: GroupID, by actor: AccountRecord) async throws {
        _ = try await permitted(.delete, id, actor: actor)
        let members = try await storage.groups.memberRoles(of: id)
        try await storage.write {
            try await storage.groups.delete(id, at: clock.now)
            try await storage.media.setAvatar(nil, of: .group(id), at: clock.now)
            // An encrypted group's keys, chain and photos go with it.
            try await storage.e2e.forget(id)
            try await storage.e2e.discardBlobs(in: id, at: clock.now)
            for member in members.keys { await events?.publish(.groupAccessEnded(id, member)) }
        }
    }

    /// The groups `viewer` belongs to, by name.
    public func mine(_ viewer: AccountRecord) async throws -> [Group] {
        var groups: [Group] = []
        for (group, role) in try await storage.groups.groups(of: viewer.id) {
            groups.append(try await view(group, standing: GroupStanding(role), viewer: viewer.id))
        }
        return groups
    }

    /// The groups `viewer` asked to join and waits on, by name (withdrawn by leaving).
    public func requested(by viewer: AccountRecord) async throws -> [Group] {
        var groups: [Group] = []
        for group in try await storage.groups.requested(by: viewer.id) {
            groups.append(try await view(group, standing: .requested))
        }
        return groups
    }

    /// Groups anyone may find whose name matches `query`, with `viewer`'s standing in each.
    public func discover(_ query: String, viewer: AccountRecord?, limit: Int = 20) async throws -> [Group] {
        let query = try TextInput.checked(query, field: "q")
        guard query.textLength <= 100 else { throw SpotterError.invalid("q", "must be at most 100 characters") }
        var groups: [Group] = []
        for group in try await storage.groups.discoverable(matching: query, limit: limit) {
            let standing = try await standing(of: viewer, in: group.id)
            groups.append(try await view(group, standing: standing))
        }
        return groups
    }

    // MARK: Joining and leaving

    /// Joins an open group at once, or asks to join a `request` group (an admin approves).
    ///
    /// An invitation by name that expired admits nobody: the person stands as anyone does, so an open group
    /// still takes them and a request group takes their request; a private group, which only an invitation
    /// opens, tells them their invitation expired.
    public func join(_ id: GroupID, by person: AccountRecord) async throws -> Group {
        let lapsed = try await hasLapsedInvitation(person.id, in: id)
        if lapsed, let group = try await storage.groups.find(id),
            !GroupPolicy.allows(.join, standing: .none, access: group.access),
            !GroupPolicy.allows(.askToJoin, standing: .none, access: group.access)
        {
            throw SpotterError.forbidden(Self.lapsedInvitation)
        }
        let (group, standing) = try await visible(id, viewer: person)
        if standing.role != nil { return try await view(group, standing: standing) }
        if standing == .invited {
            try await storage.groups.setMember(person.id, in: id, role: .member, at: clock.now)
            await notifier?.notify(.groupJoined(group: group, member: person.id))
            return try await view(try await reread(group), standing: .member)
        }
        if GroupPolicy.allows(.join, standing: standing, access: group.access) {
            try await storage.groups.setMember(person.id, in: id, role: .member, at: clock.now)
            return try await view(try await reread(group), standing: .member)
        }
        if GroupPolicy.allows(.askToJoin, standing: standing, access: group.access) {
            try await storage.write {
                // The lapsed invitation's row gives way to the request.
                if lapsed { try await storage.groups.removeMember(person.id, from: id) }
                try await storage.groups.addRequest(person.id, to: id, at: clock.now)
            }
            await notifier?.notify(.groupJoinRequested(group: group, requester: person.id))
            return try await view(group, standing: .requested)
        }
        if standing == .requested { return try await view(group, standing: standing) }
        throw SpotterError.forbidden(
            standing == .banned
                ? "You were removed from this group and may not join it again." : "This group is by invitation only.")
    }

    /// Leaves a group (or withdraws a request, or declines an invitation by name). The owner hands the group on
    /// first.
    public func leave(_ id: GroupID, by person: AccountRecord) async throws {
        let (_, standing) = try await visible(id, viewer: person)
        if standing == .owner {
            throw SpotterError.conflict(
                field: "group", detail: "The owner can't leave; transfer the group to another member first.")
        }
        guard standing != .none, standing != .banned else { return }
        try await storage.write {
            try await storage.groups.removeMember(person.id, from: id)
            if standing.role != nil { await events?.publish(.groupAccessEnded(id, person.id)) }
        }
    }

    /// The people waiting to be let in, for admins.
    public func requests(_ id: GroupID, by actor: AccountRecord) async throws -> [GroupJoinRequest] {
        _ = try await permitted(.manageRequests, id, actor: actor)
        return try await storage.groups.requests(for: id).map {
            GroupJoinRequest(person: $0.account.summary, requestedAt: $0.at)
        }
    }

    /// Lets a person who asked in (`approve`) or turns them away.
    public func answerRequest(
        _ id: GroupID, from user: UserID, approve: Bool, by actor: AccountRecord
    ) async throws {
        let (group, _) = try await permitted(.manageRequests, id, actor: actor)
        guard try await storage.groups.standing(of: user, in: id) == .requested else {
            throw SpotterError.notFound("No such request.")
        }
        if approve {
            try await storage.groups.setMember(user, in: id, role: .member, at: clock.now)
            await notifier?.notify(.groupRequestAccepted(group: group, user: user, by: actor.id))
        } else {
            try await storage.groups.removeMember(user, from: id)
        }
    }

    // MARK: Members

    /// A page of members, for those who may see them.
    public func members(
        _ id: GroupID, viewer: AccountRecord?, after: UserID?, limit: Int
    ) async throws -> [GroupMember] {
        let (group, standing) = try await visible(id, viewer: viewer)
        guard
            GroupPolicy.allows(
                .seeMembers, standing: standing, access: group.access, signedIn: viewer != nil,
                suspended: viewer?.suspendedAt != nil)
        else { throw SpotterError.forbidden("Only members see who is in this group.") }
        return try await storage.groups.members(of: id, viewer: viewer?.id, after: after, limit: limit).map {
            GroupMember(person: $0.account.summary, role: $0.role, joinedAt: $0.joinedAt)
        }
    }

    /// Makes a member an admin, or an admin a member again (the owner only).
    public func setRole(_ id: GroupID, of user: UserID, to role: GroupRole, by actor: AccountRecord) async throws {
        let (group, standing) = try await permitted(.setRoles, id, actor: actor)
        let target = try await storage.groups.standing(of: user, in: id)
        switch GroupPolicy.refusal(giving: role, to: target, by: standing, access: group.access) {
        case nil: break
        case .ownerOnlyByTransfer:
            throw SpotterError.invalid("role", "must be admin or member; transfer the group to make an owner")
        case .notMember: throw SpotterError.notFound("No such member.")
        case .ownersRole: throw SpotterError.forbidden("The owner's role changes only by a transfer.")
        case .notOwner, .alreadyOwner, .suspended: throw SpotterError.forbidden(Self.refusal(.setRoles))
        }
        try await storage.groups.setMember(user, in: id, role: role, at: clock.now)
    }

    /// Removes a member (or a request, or an invitation by name); `ban` keeps them from coming back.
    public func remove(_ id: GroupID, _ user: UserID, ban: Bool, by actor: AccountRecord) async throws {
        let (group, standing) = try await permitted(.removeMembers, id, actor: actor)
        guard let role = standing.role else { throw SpotterError.forbidden("Only admins remove members.") }
        let target = try await storage.groups.standing(of: user, in: id)
        guard user != actor.id else { throw SpotterError.invalid("user_id", "To leave the group, leave it.") }
        if target == .none, !ban { throw SpotterError.notFound("No such member.") }
        guard GroupPolicy.mayRemove(target, by: role) else {
            throw SpotterError.forbidden("Only the owner removes admins, and nobody removes the owner.")
        }
        if ban, try await storage.accounts.find(id: user) == nil { throw SpotterError.notFound("No such user.") }
        try await storage.write {
            if ban {
                try await storage.groups.ban(user, from: id, at: clock.now)
            } else {
                try await storage.groups.removeMember(user, from: id)
            }
            if target.role != nil { await events?.publish(.groupAccessEnded(id, user)) }
        }
        if target.role != nil {
            await notifier?.notify(
                ban
                    ? .groupBanned(group: group, user: user, by: actor.id)
                    : .groupRemoved(group: group, user: user, by: actor.id))
        }
    }

    /// Who is banned, for the admins who may lift a ban.
    public func bans(_ id: GroupID, by actor: AccountRecord) async throws -> [GroupBan] {
        _ = try await permitted(.removeMembers, id, actor: actor)
        return try await storage.groups.bans(for: id).map { GroupBan(person: $0.account.summary, bannedAt: $0.at) }
    }

    public func unban(_ id: GroupID, _ user: UserID, by actor: AccountRecord) async throws {
        _ = try await permitted(.removeMembers, id, actor: actor)
        guard try await storage.groups.standing(of: user, in: id) == .banned else {
            throw SpotterError.notFound("No such ban.")
        }
        try await storage.groups.unban(user, from: id)
    }

    /// Hands the group to another member; the old owner stays as an admin.
    public func transfer(_ id: GroupID, to user: UserID, by actor: AccountRecord) async throws -> Group {
        let (group, standing) = try await permitted(.transfer, id, actor: actor)
        var target = try await storage.groups.standing(of: user, in: id)
        let account = target.role == nil ? nil : try await storage.accounts.find(id: user)
        if account == nil, target != .owner { target = .none }  // a member row without an account is nobody
        switch GroupPolicy.refusal(
            transferringTo: target, targetSuspended: account?.suspendedAt != nil, by: standing, access: group.access)
        {
        case nil: break
        case .alreadyOwner: throw SpotterError.invalid("user_id", "You already own this group.")
        // A suspended account is hidden from the members list, so the answer does not single it out.
        case .notMember, .suspended: throw SpotterError.invalid("user_id", "must be a member of the group")
        case .notOwner, .ownerOnlyByTransfer, .ownersRole: throw SpotterError.forbidden(Self.refusal(.transfer))
        }
        try await storage.groups.transfer(id, to: user)
        return try await get(id, viewer: actor)
    }

    // MARK: Invitations

    /// Makes an invitation link (its code is in the answer, and only there) or invites a named person.
    public func invite(
        _ id: GroupID, _ request: CreateInvitationRequest, by actor: AccountRecord
    ) async throws -> GroupInvitation {
        let (group, _) = try await permitted(.invite, id, actor: actor)
        let now = clock.now
        let limits = try GroupRules.invitationLimits(request, now: now)
        var invitee: AccountRecord?
        var code: String?
        if let username = request.username {
            let person = try await social.visibleAccount(username, viewer: actor)
            switch try await storage.groups.standing(of: person.id, in: id) {
            case .owner, .admin, .member:
                throw SpotterError.conflict(field: "username", detail: "is already a member")
            case .banned:
                throw SpotterError.conflict(field: "username", detail: "is banned from this group; unban them first")
            case .invited, .requested, .none: break
            }
            invitee = person
        } else {
            code = OpaqueToken.generateInvitation()
        }
        let record = GroupInvitationRecord(
            id: .generate(at: now), groupID: id, invitedBy: actor.id, invitee: invitee?.id,
            codeHash: code.map(OpaqueToken.hash), expiresAt: limits.expiresAt, maxUses: limits.maxUses, createdAt: now)
        try await storage.write {
            try await storage.groups.insert(record)
            if let invitee, try await storage.groups.standing(of: invitee.id, in: id) == .requested {
                // Inviting someone who asked is letting them in.
                try await storage.groups.setMember(invitee.id, in: id, role: .member, at: now)
            }
        }
        if let invitee { await notifier?.notify(.groupInvited(group: group, invitee: invitee.id, by: actor.id)) }
        var invitation = try await view(record, group: group)
        invitation.code = code
        invitation.url = code.map(link)
        return invitation
    }

    /// The group's invitations, newest first, for admins (links without their codes).
    public func invitations(_ id: GroupID, by actor: AccountRecord) async throws -> [GroupInvitation] {
        let (group, _) = try await permitted(.invite, id, actor: actor)
        var result: [GroupInvitation] = []
        for record in try await storage.groups.invitations(for: id) {
            result.append(try await view(record, group: group))
        }
        return result
    }

    public func revoke(_ id: GroupID, invitation: GroupInvitationID, by actor: AccountRecord) async throws {
        _ = try await permitted(.invite, id, actor: actor)
        guard let record = try await storage.groups.invitation(invitation), record.groupID == id else {
            throw SpotterError.notFound("No such invitation.")
        }
        try await storage.write {
            try await storage.groups.revoke(invitation, at: clock.now)
            if let invitee = record.invitee, try await storage.groups.standing(of: invitee, in: id) == .invited {
                try await storage.groups.removeMember(invitee, from: id)
            }
        }
    }

    /// Invitations by name waiting for `viewer`.
    public func invitations(for viewer: AccountRecord) async throws -> [GroupInvitation] {
        var result: [GroupInvitation] = []
        for record in try await storage.groups.invitations(to: viewer.id) where record.isOpen(at: clock.now) {
            guard let group = try await storage.groups.find(record.groupID),
                try await storage.groups.standing(of: viewer.id, in: group.id) == .invited
            else { continue }
            result.append(try await view(record, group: group))
        }
        return result
    }

    /// What a link's code leads to, for the page a link opens before anyone joins: the group's about page,
    /// even for a private group (the code is the proof of invitation).
    public func preview(code: String, viewer: AccountRecord?) async throws -> Group {
        let (_, group) = try await openInvitation(code)
        let standing = try await standing(of: viewer, in: group.id)
        return try await view(group, standing: standing)
    }

    /// Joins through a link's code: open, unexpired, not used up, and not for someone banned.
    public func join(code: String, by person: AccountRecord) async throws -> Group {
        let (record, group) = try await openInvitation(code)
        let standing = try await storage.groups.standing(of: person.id, in: group.id)
        if standing.role != nil { return try await view(group, standing: standing) }
        guard standing != .banned else {
            throw SpotterError.forbidden("You were removed from this group and may not join it again.")
        }
        try await storage.write {
            guard try await storage.groups.use(record.id) else {
                throw SpotterError.conflict(field: "code", detail: "This invitation has been used up.")
            }
            try await storage.groups.setMember(person.id, in: group.id, role: .member, at: clock.now)
        }
        await notifier?.notify(.groupJoined(group: group, member: person.id))
        return try await view(try await reread(group), standing: .member)
    }

    // MARK: Checks

    /// How `viewer` stands with the group; signed out is `none`. An invitation by name counts while it is open
    /// (`GroupPolicy.standing`), judged by this service's clock.
    func standing(of viewer: AccountRecord?, in group: GroupID) async throws -> GroupStanding {
        guard let viewer else { return .none }
        return try await storage.groups.standing(of: viewer.id, in: group, at: clock.now)
    }

    /// Whether `user` was invited by name and every such invitation has expired or been revoked.
    private func hasLapsedInvitation(_ user: UserID, in group: GroupID) async throws -> Bool {
        let stored = try await storage.groups.standing(of: user, in: group)
        guard stored == .invited else { return false }
        let invitations = try await storage.groups.invitations(to: user, in: group)
        return GroupPolicy.standing(stored, invitations: invitations, at: clock.now) != .invited
    }

    /// The invitations by name to `user` in the group that were not revoked.
    static let lapsedInvitation =
        "Your invitation to this group has expired. Ask one of its admins to invite you again."

    /// The group and `viewer`'s standing, if they may know it exists.
    func visible(_ id: GroupID, viewer: AccountRecord?) async throws -> (GroupRecord, GroupStanding) {
        guard let group = try await storage.groups.find(id) else { throw SpotterError.notFound("No such group.") }
        let standing = try await standing(of: viewer, in: id)
        guard
            GroupPolicy.allows(
                .seeAbout, standing: standing, access: group.access, signedIn: viewer != nil,
                suspended: viewer?.suspendedAt != nil)
        else { throw SpotterError.notFound("No such group.") }
        return (group, standing)
    }

    /// The group and the actor's standing, if the policy lets them take `action`.
    func permitted(
        _ action: GroupPolicy.Action, _ id: GroupID, actor: AccountRecord
    ) async throws -> (GroupRecord, GroupStanding) {
        let (group, standing) = try await visible(id, viewer: actor)
        guard GroupPolicy.allows(action, standing: standing, access: group.access) else {
            throw SpotterError.forbidden(Self.refusal(action))
        }
        return (group, standing)
    }

    /// Whether `viewer` may read the group's posts (its feed, its topic); the group when they may.
    public func readable(_ id: GroupID, viewer: AccountRecord?) async throws -> GroupRecord {
        let (group, standing) = try await visible(id, viewer: viewer)
        guard
            GroupPolicy.allows(
                .readPosts, standing: standing, access: group.access, signedIn: viewer != nil,
                suspended: viewer?.suspendedAt != nil)
        else {
            throw SpotterError.forbidden(
                standing == .banned
                    ? "You are banned from this group, so its posts are closed to you."
                    : "Only members see this group's posts.")
        }
        return group
    }

    /// The group a post may go to, for its author: a group they may post in.
    public func postable(_ id: GroupID, author: AccountRecord) async throws -> GroupRecord {
        guard let group = try await storage.groups.find(id),
            GroupPolicy.allows(
                .post, standing: try await storage.groups.standing(of: author.id, in: id), access: group.access,
                suspended: author.suspendedAt != nil)
        else { throw SpotterError.invalid("group_id", "is not a group you are a member of") }
        return group
    }

    private static func refusal(_ action: GroupPolicy.Action) -> String {
        switch action {
        case .setRoles, .transfer, .delete: "Only the group's owner may do this."
        case .post, .leave: "Only members may do this."
        default: "Only the group's admins may do this."
        }
    }

    private func openInvitation(_ code: String) async throws -> (GroupInvitationRecord, GroupRecord) {
        guard let record = try await storage.groups.invitation(codeHash: OpaqueToken.hash(code)),
            let group = try await storage.groups.find(record.groupID)
        else { throw SpotterError.notFound("No such invitation.") }
        guard record.isOpen(at: clock.now) else {
            throw SpotterError.conflict(
                field: "code", detail: "This invitation has expired, was used up, or was revoked.")
        }
        return (record, group)
    }

    // MARK: Views

    /// The group as stored now: after a join, with the joiner counted in `memberCount`.
    private func reread(_ group: GroupRecord) async throws -> GroupRecord {
        try await storage.groups.find(group.id) ?? group
    }

    private func view(_ group: GroupRecord, standing: GroupStanding, viewer: UserID? = nil) async throws -> Group {
        let pending =
            standing.role.map { $0 >= .admin } == true ? try await storage.groups.requests(for: group.id).count : nil
        var newPosts: Int?
        if standing.role != nil, let viewer {
            newPosts = try await storage.posts.countNewer(
                in: group.id, after: try await storage.groups.seenMarker(of: viewer, in: group.id), viewer: viewer,
                cap: Self.newPostsCap)
        }
        // Only a member sees a private group at all, and gets its avatar as a signed URL.
        let avatarURL = try await avatars.url(group.avatarURL, signed: group.access == .private, now: clock.now)
        return Group(
            id: group.id, name: group.name, description: group.description, avatarURL: avatarURL,
            timeZone: group.timeZone, access: group.access, memberCount: group.memberCount,
            createdAt: group.createdAt, standing: standing, pendingRequests: pending, newPosts: newPosts,
            encrypted: group.encrypted)
    }

    /// How far "new since you last looked" counts.
    public static let newPostsCap = 100

    /// Marks the group's posts seen up to `post` (a post of the group the member may see); the marker only
    /// moves forward. Answers the group with its new count.
    public func markSeen(_ id: GroupID, upTo post: PostID, by member: AccountRecord) async throws -> Group {
        let (group, standing) = try await visible(id, viewer: member)
        guard standing.role != nil else { throw SpotterError.forbidden("Only members keep track of what they saw.") }
        guard try await storage.posts.record(post)?.groupID == id,
            try await storage.posts.post(post, viewer: member.id) != nil
        else { throw SpotterError.invalid("up_to", "is not a post of this group") }
        try await storage.groups.markSeen(member.id, in: id, upTo: post)
        return try await view(group, standing: standing, viewer: member.id)
    }

    private func view(_ record: GroupInvitationRecord, group: GroupRecord) async throws -> GroupInvitation {
        let people = try await storage.accounts.find(ids: [record.invitedBy] + (record.invitee.map { [$0] } ?? []))
        let byID = Dictionary(people.map { ($0.id, $0.summary) }, uniquingKeysWith: { one, _ in one })
        let unknown = AuthorSummary(id: record.invitedBy, username: "", displayName: "", avatarURL: nil)
        return GroupInvitation(
            id: record.id, group: group.summary, invitedBy: byID[record.invitedBy] ?? unknown,
            invitee: record.invitee.flatMap { byID[$0] }, expiresAt: record.expiresAt, maxUses: record.maxUses,
            uses: record.uses, revoked: record.revokedAt != nil, createdAt: record.createdAt)
    }

    /// The link an invitation's code opens: the web app's join page.
    private func link(_ code: String) -> String {
        (siteURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? "") + "/groups/join/" + code
    }
}

extension GroupStanding {
    init(_ role: GroupRole) {
        switch role {
        case .owner: self = .owner
        case .admin: self = .admin
        case .member: self = .member
        }
    }
}
