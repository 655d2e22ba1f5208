import SpotterModels

/// Whose presence a person on the community feed sees: everyone online but the people they block or who block
/// them, and private accounts only when they follow them (`PersonPolicy`'s `presence`, asked with what the hub
/// keeps of each listener). One's own presence is always one's own to see; a suspended account is not online.
///
/// The hub keeps each listener's `PresenceRelations` (read when they join, read again when a relationship of
/// theirs changes) and asks this rule for every entry of `presence_state` and `presence_diff`.
public enum PresencePolicy {
    public static func canSee(
        _ present: UserID, presentIsPrivate: Bool, viewer: UserID, relations: PresenceRelations
    ) -> Bool {
        PersonPolicy.allows(
            .presence,
            .init(
                isSelf: present == viewer, blockedEitherWay: relations.hidden.contains(present),
                follows: relations.followedPrivate.contains(present), privacy: presentIsPrivate ? .private : .public))
    }

    /// Whether the viewer sees exactly the public accounts online, and so may share one presence frame with
    /// everyone else who does (most people: no blocks, no private account followed, public themselves).
    public static func seesPublicOnly(viewerIsPrivate: Bool, relations: PresenceRelations) -> Bool {
        !viewerIsPrivate && relations.hidden.isEmpty && relations.followedPrivate.isEmpty
    }
}

/// What decides whose presence one viewer sees.
public struct PresenceRelations: Sendable, Equatable {
    /// Everyone the viewer blocks or who blocks the viewer.
    public var hidden: Set<UserID>
    /// The private accounts the viewer follows.
    public var followedPrivate: Set<UserID>

    public init(hidden: Set<UserID> = [], followedPrivate: Set<UserID> = []) {
        self.hidden = hidden
        self.followedPrivate = followedPrivate
    }
}
