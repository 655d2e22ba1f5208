import Foundation
import Observation
import SpotterModels

/// The groups screen, offline first: my groups, the invitations by name waiting for me, and discovery's
/// search, shown from the client database at once and refreshed from the network; making a group, joining one
/// (or asking to), leaving, and accepting an invitation, by name or by a link someone shared.
///
/// ```swift
/// struct GroupsScreen: View {
///     @State var model: GroupsViewModel
///     var body: some View {
///         List {
///             Section("Invitations") {
///                 ForEach(model.invitations, id: \.id) { invitation in
///                     Button("Join \(invitation.group.name)") { Task { await model.accept(invitation) } }
///                 }
///             }
///             Section("My groups") { ForEach(model.myGroups, id: \.id) { Text($0.name) } }
///             Section("Discover") {
///                 ForEach(model.discovered, id: \.id) { group in
///                     Button(group.access == .request ? "Ask to join" : "Join") { Task { await model.join(group.id) } }
///                 }
///             }
///         }
///         .searchable(text: $model.query).onSubmit(of: .search) { Task { await model.search() } }
///         .refreshable { await model.load() }
///         .task { await model.load() }
///     }
/// }
/// ```
@MainActor
@Observable
public final class GroupsViewModel {
    /// The groups I belong to, by name, as the client database holds them.
    public private(set) var myGroups: [Group] = []
    /// Invitations by name waiting for me: accept or decline each.
    public private(set) var invitations: [GroupInvitation] = []
    /// What discovery looks for (a part of a group's name; empty for any).
    public var query = ""
    /// What discovery found for `query`: kept, so the last search shows offline.
    public private(set) var discovered: [Group] = []
    public private(set) var isLoading = false
    /// The last thing that went wrong, in words for the user; cleared by the next success.
    public private(set) var errorMessage: String?

    private let client: SpotterClient
    private let database: AppDatabase
    private var shown = PostsShown<KeptGroups>()
    @ObservationIgnored nonisolated(unsafe) private var observation: Task<Void, Never>?

    /// - Parameter database: where the groups are kept (the session's, or the outbox's).
    public init(client: SpotterClient, database: AppDatabase) {
        self.client = client
        self.database = database
    }

    /// The session's groups: its client and database.
    public convenience init(session: SpotterSession) {
        self.init(client: session.client, database: session.database)
    }

    deinit { observation?.cancel() }

    /// Shows what was kept at once, keeps showing what the database holds, and fetches my groups, the
    /// invitations waiting and discovery's results for `query`.
    public func load() async {
        await observe()
        await showDiscovered()
        isLoading = true
        defer { isLoading = false }
        do {
            async let mine = client.myGroups()
            async let waiting = client.myGroupInvitations()
            let (groups, invitations) = try await (mine, waiting)
            try await database.save(groups.items, as: .mine)
            try await database.save(waiting: invitations.items)
            errorMessage = nil
            await showStored()
        } catch {
            errorMessage = FeedViewModel.message(error)
            return
        }
        await search()
    }

    /// Finds groups for `query`; offline, shows what the same search found last.
    public func search() async {
        let text = query.trimmingCharacters(in: .whitespaces)
        do {
            let found = try await client.groups(matching: text)
            try await database.save(found.items, as: .discover(text))
            errorMessage = nil
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
        await showDiscovered()
    }

    /// Makes a group, which joins my groups; nil if refused (see `errorMessage`).
    @discardableResult
    public func create(_ request: CreateGroupRequest) async -> Group? {
        await change { try await self.client.createGroup(request) }
    }

    /// Joins an open group, asks to join a `request` group (its `standing` is then `requested`), or accepts an
    /// invitation by name to it.
    @discardableResult
    public func join(_ id: GroupID) async -> Group? {
        await change { try await self.client.joinGroup(id) }
    }

    /// Accepts an invitation by name.
    @discardableResult
    public func accept(_ invitation: GroupInvitation) async -> Group? {
        await join(invitation.group.id)
    }

    /// Declines an invitation by name.
    public func decline(_ invitation: GroupInvitation) async {
        await leave(invitation.group.id)
    }

    /// The group a shared invitation link (or its bare code) leads to, to show before joining.
    public func preview(link: String) async -> Group? {
        do {
            let group = try await client.invitationPreview(code: InvitationLink.code(from: link))
            errorMessage = nil
            return group
        } catch {
            errorMessage = FeedViewModel.message(error)
            return nil
        }
    }

    /// Joins through a shared invitation link (or its bare code), even to a private group.
    @discardableResult
    public func join(link: String) async -> Group? {
        let code = InvitationLink.code(from: link)
        return await change { try await self.client.joinGroup(code: code) }
    }

    /// Leaves a group, withdraws a request to join, or declines an invitation; a private or request group's kept
    /// posts go with it.
    public func leave(_ id: GroupID) async {
        do {
            try await client.leaveGroup(id)
            // What the group now is for me; a private one no longer exists for me (404), and is forgotten.
            if let after = try? await client.group(id) {
                try await database.save(after)
            } else {
                try await database.forget(id)
            }
            errorMessage = nil
            await showStored()
            await showDiscovered()
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    /// Runs a change whose answer is the group as it now is, keeps it, and shows it everywhere.
    private func change(_ send: @escaping () async throws -> Group) async -> Group? {
        do {
            let group = try await send()
            try await database.save(group)
            errorMessage = nil
            await showStored()
            await showDiscovered()
            return group
        } catch {
            errorMessage = FeedViewModel.message(error)
            return nil
        }
    }

    // MARK: Showing the database

    private func observe() async {
        guard observation == nil else { return }
        await showStored()
        let values = database.observeKeptGroups()
        observation = Task { [weak self] in
            do {
                for try await value in values { self?.show(value) }
            } catch {
                self?.errorMessage = FeedViewModel.message(error)
            }
        }
    }

    private func showStored() async {
        do {
            show(try await database.readKeptGroups())
        } catch {
            errorMessage = FeedViewModel.message(error)
        }
    }

    private func show(_ read: Revisioned<KeptGroups>) {
        guard let kept = shown.newer(read) else { return }
        myGroups = kept.mine
        invitations = kept.invitations
    }

    private func showDiscovered() async {
        let text = query.trimmingCharacters(in: .whitespaces)
        if let kept = try? await database.groups(.discover(text)) { discovered = kept }
    }
}
