import Foundation
import Observation
import SpotterModels

/// The Parent Zone (MyTube's): the child profiles a guardian manages, the invitations to manage another
/// guardian's child, and the private groups a child's posts may go to, offline first. What was last fetched
/// shows at once (kept in the client database), and the network's answer replaces it.
///
/// A child has no login, no keys and no public presence; only a private group may carry a post that names
/// one (`ChildSafetyPolicy` on the server), so `familyGroups` are the guardian's private groups.
///
/// ```swift
/// let zone = ParentZoneViewModel(session: session)
/// await zone.load()
/// ForEach(zone.children, id: \.id) { ChildRow(child: $0) }
/// await zone.addChild(name: "Lou", birthYear: 2019)
/// await zone.invite("ben", toManage: lou.id)          // Ben answers from his own Parent Zone
/// ```
@MainActor
@Observable
public final class ParentZoneViewModel {
    /// The children I manage, by name.
    public private(set) var children: [ChildProfile] = []
    /// Children another guardian invited me to manage, waiting for my answer.
    public private(set) var invitations: [ChildProfile] = []
    /// My private groups: where a post naming a child may go.
    public private(set) var familyGroups: [Group] = []
    public private(set) var isLoading = false
    /// The last thing that went wrong, in words for the user; cleared by the next success.
    public private(set) var errorMessage: String?
    /// What the server refused in the last change, by field (`name`, `birth_year`), for the form.
    public private(set) var errors: [FieldError] = []

    private let client: SpotterClient
    private let database: AppDatabase

    public init(client: SpotterClient, database: AppDatabase) {
        self.client = client
        self.database = database
    }

    /// The session's Parent Zone: its client and database.
    public convenience init(session: SpotterSession) {
        self.init(client: session.client, database: session.database)
    }

    /// Shows what was kept at once, then fetches the children, the invitations and my groups.
    public func load() async {
        await showStored()
        isLoading = true
        defer { isLoading = false }
        do {
            async let mine = client.children()
            async let invited = client.guardianInvitations()
            async let groups = client.myGroups()
            let (children, invitations, myGroups) = try await (mine, invited, groups)
            try await database.save(children, as: .mine)
            try await database.save(invitations, as: .invited)
            try await database.save(myGroups.items, as: .mine)
            errorMessage = nil
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
        await showStored()
    }

    /// Adds a child profile; nil if refused (`errorMessage` says why, naming the field).
    @discardableResult
    public func addChild(name: String, birthYear: Int) async -> ChildProfile? {
        await change { try await self.client.createChild(CreateChildProfileRequest(name: name, birthYear: birthYear)) }
    }

    @discardableResult
    public func update(_ child: ChildProfileID, _ request: UpdateChildProfileRequest) async -> ChildProfile? {
        await change { try await self.client.updateChild(child, request) }
    }

    /// Deletes the child, and with them every post that names them.
    public func remove(_ child: ChildProfileID) async {
        _ = await change { () -> ChildProfile? in
            try await self.client.deleteChild(child)
            return nil
        }
    }

    /// Invites another account to manage the child too.
    @discardableResult
    public func invite(_ username: String, toManage child: ChildProfileID) async -> ChildProfile? {
        await change { try await self.client.inviteGuardian(username, to: child) }
    }

    /// Accepts (the child joins `children`) or declines an invitation to manage a child.
    public func answer(_ invitation: ChildProfileID, accept: Bool) async {
        _ = await change { () -> ChildProfile? in
            try await self.client.answerGuardianInvitation(invitation, accept: accept)
            return nil
        }
    }

    /// Makes a change on the server, then fetches the lists again so what is kept is the server's.
    private func change<Value>(_ send: @escaping () async throws -> Value?) async -> Value? {
        do {
            let value = try await send()
            errors = []
            await load()
            return value
        } catch SpotterClientError.problem(let problem) {
            (errors, errorMessage) = (problem.errors ?? [], problem.explanation)
            return nil
        } catch {
            errorMessage = FeedViewModel.message(error)
            return nil
        }
    }

    private func showStored() async {
        children = (try? await database.children(.mine)) ?? children
        invitations = (try? await database.children(.invited)) ?? invitations
        familyGroups = ((try? await database.groups(.mine)) ?? familyGroups).filter { $0.access == .private }
    }
}
