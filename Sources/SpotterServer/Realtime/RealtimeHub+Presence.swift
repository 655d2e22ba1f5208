import Foundation
import SpotterCore
import SpotterModels

/// Presence on `community:feed`, in Phoenix.Presence's shape: everyone on the topic counts as present, and each
/// listener sees the entries `PresencePolicy` allows them.
extension RealtimeHub {
    /// Subscribes a socket. On the community feed its user becomes present, and a socket that wants presence
    /// (`relations` given) gets `presence_state` now and the diffs after.
    ///
    /// Most listeners see exactly the public accounts online: they share one `presence_state`, encoded once per
    /// diff interval rather than per join (it lists everyone, so per join it would cost O(N²) in a join storm).
    /// A joiner may get it without the latest joins and leaves, which the next diff carries; Phoenix clients
    /// merge the two. The others (in blocks, following private accounts, private themselves) get their own.
    func subscribe(_ connection: RealtimeConnection, to topic: RealtimeTopic, presence relations: PresenceRelations?) {
        subscribers[topic, default: []].insert(connection.id)
        guard topic == .communityFeed else { return }
        pendingJoins[connection.id] = connection
        schedulePresenceFlush()
        guard let relations else { return }
        presenceListeners[connection.id] = relations
        if isSharedListener(connection, relations) {
            if sharedPresenceState == nil {
                sharedPresenceState = Self.frame(.presenceState(Self.presences(present().filter(\.isPublic))))
            }
            if let sharedPresenceState { connection.send(text: sharedPresenceState) }
        } else {
            let visible = present().filter { sees($0, from: connection, relations) }
            if let frame = Self.frame(.presenceState(Self.presences(visible))) {
                connection.send(text: frame)
            }
        }
    }

    /// Notes that a socket left the community feed. Its leave is sent even if its join is still pending:
    /// someone's `presence_state` may already list it.
    func leavePresence(_ connection: RealtimeConnection) {
        pendingJoins[connection.id] = nil
        pendingLeaves[connection.id] = connection
        presenceListeners[connection.id] = nil
        schedulePresenceFlush()
    }

    /// Presence changes are sent in batches: one diff per interval instead of one per change, so 10,000 people
    /// joining costs each listener a few frames rather than 10,000 (Phoenix's own Tracker batches between
    /// nodes the same way). As in Phoenix, clients merge presences by `phx_ref`, so a join they already had
    /// from `presence_state` changes nothing.
    func schedulePresenceFlush() {
        guard !presenceFlushScheduled else { return }
        presenceFlushScheduled = true
        Task { [presenceInterval] in
            try? await Task.sleep(for: presenceInterval)
            self.flushPresence()  // the task runs on this actor
        }
    }

    private func flushPresence() {
        presenceFlushScheduled = false
        guard !pendingJoins.isEmpty || !pendingLeaves.isEmpty else { return }
        sharedPresenceState = nil
        let (joins, leaves) = (Array(pendingJoins.values), Array(pendingLeaves.values))
        pendingJoins = [:]
        pendingLeaves = [:]
        var shared: [RealtimeConnection] = []
        var batch = OutboundBatch()
        for (id, relations) in presenceListeners {
            guard let listener = connections[id] else { continue }
            if isSharedListener(listener, relations) {
                shared.append(listener)
                continue
            }
            let (seenJoins, seenLeaves) = (
                joins.filter { sees($0, from: listener, relations) },
                leaves.filter { sees($0, from: listener, relations) }
            )
            guard !seenJoins.isEmpty || !seenLeaves.isEmpty,
                let frame = Self.diffFrame(joins: seenJoins, leaves: seenLeaves)
            else { continue }
            batch.add(text: frame, to: listener)
        }
        batch.send()
        let (publicJoins, publicLeaves) = (joins.filter(\.isPublic), leaves.filter(\.isPublic))
        guard !shared.isEmpty, !publicJoins.isEmpty || !publicLeaves.isEmpty,
            let frame = Self.diffFrame(joins: publicJoins, leaves: publicLeaves)
        else { return }
        RealtimeConnection.broadcast(frame, to: shared)
    }

    /// Two people's relationship changed: each of their listening sockets reads its relations again, and
    /// gets a diff when the other's entries appear or disappear for it (after a block, say).
    func presenceRelationsChanged(_ one: UserID, _ other: UserID) async throws {
        for (viewer, counterpart) in [(one, other), (other, one)] {
            guard (byUser[viewer] ?? []).contains(where: { presenceListeners[$0] != nil }) else { continue }
            let relations = try await access.presenceRelations(of: viewer)
            // Read after the await: sockets may have come and gone meanwhile.
            let theirs = present().filter { $0.user.id == counterpart }
            for id in byUser[viewer] ?? [] {
                guard let old = presenceListeners[id], let listener = connections[id] else { continue }
                presenceListeners[id] = relations
                guard let first = theirs.first else { continue }
                let (before, after) = (sees(first, from: listener, old), sees(first, from: listener, relations))
                guard before != after,
                    let frame = Self.diffFrame(joins: after ? theirs : [], leaves: before ? theirs : [])
                else { continue }
                listener.send(text: frame)
            }
        }
    }

    private func present() -> [RealtimeConnection] {
        (subscribers[.communityFeed] ?? []).compactMap { connections[$0] }
    }

    private func isSharedListener(_ listener: RealtimeConnection, _ relations: PresenceRelations) -> Bool {
        PresencePolicy.seesPublicOnly(viewerIsPrivate: !listener.isPublic, relations: relations)
    }

    private func sees(
        _ present: RealtimeConnection, from listener: RealtimeConnection, _ relations: PresenceRelations
    ) -> Bool {
        PresencePolicy.canSee(
            present.user.id, presentIsPrivate: !present.isPublic, viewer: listener.user.id, relations: relations)
    }

    private static func diffFrame(joins: [RealtimeConnection], leaves: [RealtimeConnection]) -> String? {
        frame(.presenceDiff(PresenceDiff(joins: presences(joins), leaves: presences(leaves))))
    }

    private static func frame(_ push: RealtimePush) -> String? {
        PushFrame(topic: .communityFeed, push: push).encoded()
    }

    private static func presences(_ connections: [RealtimeConnection]) -> Presences {
        var users: Presences = [:]
        for connection in connections {
            users[connection.user.id.description, default: PresenceEntry(metas: [])].metas.append(
                PresenceMeta(
                    phxRef: connection.id.uuidString.lowercased(),
                    onlineAt: Int64(connection.connectedAt.timeIntervalSince1970.rounded()),
                    username: connection.user.username))
        }
        return users
    }
}

extension RealtimeConnection {
    /// Whether the socket's account was public when it connected. A privacy change reaches presence when the
    /// person connects again.
    fileprivate var isPublic: Bool { user.profile.privacy != .private }
}
