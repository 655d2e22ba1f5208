import Foundation
import SpotterModels

/// Child profiles, their guardians, and which posts name them.
public protocol ChildProfileStore: Sendable {
    /// Inserts the child and makes `child.createdBy` its guardian, in one transaction.
    func create(_ child: ChildProfileRecord) async throws
    func find(_ id: ChildProfileID) async throws -> ChildProfileRecord?
    func update(_ child: ChildProfileRecord) async throws
    /// Deletes the child, its guardians, and every post that names it (tombstoned, their photos discarded for
    /// the sweep).
    func delete(_ id: ChildProfileID, at date: Date) async throws

    /// The children `user` is a guardian of, by name.
    func children(of user: UserID) async throws -> [ChildProfileRecord]
    /// Guardians (`true`) and invited guardians (`false`) of a child.
    func guardians(of child: ChildProfileID) async throws -> [UserID: Bool]
    /// Invites `user` to be a guardian (nothing changes for one already).
    func inviteGuardian(_ user: UserID, to child: ChildProfileID, at date: Date) async throws
    /// Makes an invited guardian a guardian; returns whether there was an invitation.
    func acceptGuardianship(_ user: UserID, of child: ChildProfileID) async throws -> Bool
    /// Ends a guardianship or an invitation to one.
    func removeGuardian(_ user: UserID, from child: ChildProfileID) async throws
    /// Children `user` is invited to manage.
    func guardianInvitations(for user: UserID) async throws -> [ChildProfileRecord]

    /// Records the children a post names; part of the post's unit of work.
    func name(_ children: [ChildProfileID], in post: PostID) async throws
    /// Whether any post (not deleted) in the group names a child.
    func groupHoldsChildContent(_ group: GroupID) async throws -> Bool
}

/// A child profile as stored.
public struct ChildProfileRecord: Sendable, Equatable {
    public var id: ChildProfileID
    public var name: String
    public var birthYear: Int
    public var avatarURL: String?
    public var createdBy: UserID
    public var createdAt: Date

    public init(
        id: ChildProfileID, name: String, birthYear: Int, avatarURL: String?, createdBy: UserID, createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.birthYear = birthYear
        self.avatarURL = avatarURL
        self.createdBy = createdBy
        self.createdAt = createdAt
    }
}
