import Foundation
import SpotterModels

/// Child profiles, managed by their guardians (MyTube's parent-only model): a child has no login and no keys,
/// and only its guardians see or change it. Anyone else asking about a child gets 404.
public struct ChildProfileService: Sendable {
    let storage: any SpotterStorage
    let clock: any WallClock

    public static let maxName = 80
    /// A child is under 18: born in this year or one of the 17 before.
    public static let maxAge = 17

    /// Signs a child's avatar URL for its guardians; `nil` when uploads are not enabled.
    let mediaLinks: MediaLinks?
    /// Tells an invited guardian; `nil` in tools.
    let notifier: Notifier?
    /// Who exists for whom, asked before a guardian is invited by name.
    let social: SocialService

    /// `social` is the composition root's; tools that pass none get one that tells nobody.
    public init(
        storage: any SpotterStorage, clock: any WallClock, mediaLinks: MediaLinks? = nil, notifier: Notifier? = nil,
        social: SocialService? = nil
    ) {
        self.storage = storage
        self.clock = clock
        self.mediaLinks = mediaLinks
        self.notifier = notifier
        self.social = social ?? SocialService(storage: storage, clock: clock)
    }

    private var avatars: AvatarChoice { AvatarChoice(storage: storage, links: mediaLinks) }

    public func create(_ request: CreateChildProfileRequest, by guardian: AccountRecord) async throws -> ChildProfile {
        let (name, year) = try checked(name: request.name, birthYear: request.birthYear)
        var record = ChildProfileRecord(
            id: .generate(at: clock.now), name: name, birthYear: year, avatarURL: nil, createdBy: guardian.id,
            createdAt: clock.now)
        if let avatar = request.avatarMediaID {
            record.avatarURL = try await avatars.path(of: avatar, for: .child(record.id), uploader: guardian.id)
        }
        try await storage.write { [record] in
            try await storage.children.create(record)
            if let avatar = request.avatarMediaID {
                try await storage.media.setAvatar(avatar, of: .child(record.id), at: clock.now)
            }
        }
        return try await view(record)
    }

    /// The children `viewer` manages, by name.
    public func mine(_ viewer: AccountRecord) async throws -> [ChildProfile] {
        var result: [ChildProfile] = []
        for record in try await storage.children.children(of: viewer.id) { result.append(try await view(record)) }
        return result
    }

    public func get(_ id: ChildProfileID, viewer: AccountRecord) async throws -> ChildProfile {
        try await view(try await managed(id, by: viewer))
    }

    public func update(
        _ id: ChildProfileID, with request: UpdateChildProfileRequest, by viewer: AccountRecord
    ) async throws -> ChildProfile {
        var record = try await managed(id, by: viewer)
        let (name, year) = try checked(
            name: request.name ?? record.name, birthYear: request.birthYear ?? record.birthYear)
        record.name = name
        record.birthYear = year
        // The avatar: a new upload of this guardian's, or none; the one it replaces is discarded for the sweep.
        var avatar: MediaID??
        if let upload = request.avatarMediaID {
            record.avatarURL = try await avatars.path(of: upload, for: .child(id), uploader: viewer.id)
            avatar = .some(upload)
        } else if request.removeAvatar == true {
            record.avatarURL = nil
            avatar = .some(nil)
        }
        try await storage.write { [record] in
            try await storage.children.update(record)
            if let avatar { try await storage.media.setAvatar(avatar, of: .child(id), at: clock.now) }
        }
        return try await view(record)
    }

    /// Deletes the child and everything that names it.
    public func delete(_ id: ChildProfileID, by viewer: AccountRecord) async throws {
        _ = try await managed(id, by: viewer)
        try await storage.write {
            try await storage.children.delete(id, at: clock.now)
            try await storage.media.setAvatar(nil, of: .child(id), at: clock.now)
        }
    }

    /// Invites another account to manage the child too; they accept in their own settings.
    public func inviteGuardian(
        _ id: ChildProfileID, username: String, by viewer: AccountRecord
    ) async throws -> ChildProfile {
        let record = try await managed(id, by: viewer)
        let username = try TextInput.checked(username, field: "username")
        let person = try await social.visibleAccount(username, viewer: viewer)
        let standing = try await storage.children.guardians(of: id)[person.id]
        if standing == true {
            throw SpotterError.conflict(field: "username", detail: "already manages this child")
        }
        try await storage.children.inviteGuardian(person.id, to: id, at: clock.now)
        // Told once, of an invitation that is new (asking again tells nobody twice).
        if standing == nil { await notifier?.notify(.guardianInvited(child: id, invitee: person.id, by: viewer.id)) }
        return try await view(record)
    }

    /// Children `viewer` is invited to manage.
    public func invitations(for viewer: AccountRecord) async throws -> [ChildProfile] {
        var result: [ChildProfile] = []
        for record in try await storage.children.guardianInvitations(for: viewer.id) {
            result.append(try await view(record))
        }
        return result
    }

    /// Accepts (or declines) an invitation to manage a child.
    public func answerInvitation(_ id: ChildProfileID, accept: Bool, by viewer: AccountRecord) async throws {
        guard try await storage.children.guardians(of: id)[viewer.id] == false else {
            throw SpotterError.notFound("No such invitation.")
        }
        if accept {
            _ = try await storage.children.acceptGuardianship(viewer.id, of: id)
        } else {
            try await storage.children.removeGuardian(viewer.id, from: id)
        }
    }

    /// Ends `user`'s guardianship (or an invitation): a guardian may step down, or withdraw an invitation they
    /// sent. The last guardian deletes the child instead.
    public func removeGuardian(_ id: ChildProfileID, _ user: UserID, by viewer: AccountRecord) async throws {
        _ = try await managed(id, by: viewer)
        let guardians = try await storage.children.guardians(of: id)
        guard let isGuardian = guardians[user] else { throw SpotterError.notFound("No such guardian.") }
        if isGuardian {
            guard user == viewer.id else {
                throw SpotterError.forbidden("A guardian steps down themselves; they can't be removed by another.")
            }
            guard guardians.values.filter({ $0 }).count > 1 else {
                throw SpotterError.conflict(
                    field: "user_id", detail: "The last guardian can't step down; delete the child profile instead.")
            }
        }
        try await storage.children.removeGuardian(user, from: id)
    }

    /// The children a new post names, checked: each one `author` manages, and the post's audience one that may
    /// take them (`ChildSafetyPolicy`). Refusals are 422s naming `child_ids`.
    func namedChildren(
        _ ids: [ChildProfileID], author: AccountRecord, audience: ChildSafetyPolicy.Audience
    ) async throws -> [ChildProfileID] {
        guard !ids.isEmpty else { return [] }
        var problems: [FieldError] = []
        if !ChildSafetyPolicy.mayPublish(naming: ids.count, to: audience) {
            problems.append(
                FieldError(field: "child_ids", detail: "a post naming a child may go only to a private group"))
        }
        if ids.count > 10 { problems.append(FieldError(field: "child_ids", detail: "may name at most 10 children")) }
        for (index, id) in ids.enumerated() where try await storage.children.guardians(of: id)[author.id] != true {
            problems.append(FieldError(field: "child_ids[\(index)]", detail: "is not a child you manage"))
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        var seen = Set<ChildProfileID>()
        return ids.filter { seen.insert($0).inserted }
    }

    // MARK: Helpers

    /// The child, if `viewer` manages it; 404 otherwise (even for an invited guardian, who sees the invitation).
    private func managed(_ id: ChildProfileID, by viewer: AccountRecord) async throws -> ChildProfileRecord {
        guard let record = try await storage.children.find(id),
            try await storage.children.guardians(of: id)[viewer.id] == true
        else { throw SpotterError.notFound("No such child profile.") }
        return record
    }

    private func checked(name: String, birthYear: Int) throws -> (String, Int) {
        var problems: [FieldError] = []
        let name = TextInput.check(name, "name", into: &problems)
        if !TextLength.isName(name, maxLength: Self.maxName) {
            problems.append(
                FieldError(field: "name", detail: "must be 1 to \(Self.maxName) characters, not all spaces"))
        }
        let year = Calendar(identifier: .gregorian).component(.year, from: clock.now)
        if !((year - Self.maxAge)...year).contains(birthYear) {
            problems.append(
                FieldError(field: "birth_year", detail: "must be between \(year - Self.maxAge) and \(year) (a child)"))
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        return (name, birthYear)
    }

    private func view(_ record: ChildProfileRecord) async throws -> ChildProfile {
        let guardians = try await storage.children.guardians(of: record.id)
        let people = try await storage.accounts.find(ids: Array(guardians.keys)).sorted { $0.username < $1.username }
        // Only guardians see a child profile, and get its avatar as a signed URL: nothing else opens it.
        return ChildProfile(
            id: record.id, name: record.name,
            avatarURL: try await avatars.url(record.avatarURL, signed: true, now: clock.now),
            birthYear: record.birthYear,
            guardians: people.filter { guardians[$0.id] == true }.map(\.summary),
            invitedGuardians: people.filter { guardians[$0.id] == false }.map(\.summary), createdAt: record.createdAt)
    }
}
