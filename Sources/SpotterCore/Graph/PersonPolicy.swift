import SpotterModels

/// Who may see a person, and what of them: the one rule every profile, list of people, comment, kudos, presence
/// entry, device chain, relay event, notification and avatar follows. `VisibilityPolicy` says the same for posts.
///
/// - Someone always sees themselves (a suspended account signs in nowhere, so it never views itself).
/// - Nobody else sees a suspended person, nor anyone in a block with them either way: for them the person does
///   not exist (a 404 for the profile, gone from lists of people, kudos, comments, counts, search, replies).
/// - A private account's followers and following lists, and its presence, are for its approved followers.
/// - Only a public account's relay events leave the relay; a private or followers-only account's are for itself
///   alone. The relay serves keys, not followers, and a followers-only account posts for its followers by
///   default (its posts reach them through the API).
/// - A device chain (public keys) is for anyone signed in the person exists for.
/// - A notification caused by a person reaches someone they exist for who has not muted them, never themselves.
/// - An avatar is served to anyone, through shared caches, so it follows what a signed-out visitor sees.
///
/// The storage adapters say `exists` in SQL (`PostSQL.listable`, `PostSQL.unlisted`) and `notifications`
/// (`GraphSQL.reaches`); the contract suite's person matrix holds them, and the services that ask this rule,
/// to it for every relation a viewer can have.
public enum PersonPolicy {
    /// What a person's visibility to one viewer depends on.
    public struct Facts: Sendable, Equatable {
        /// The viewer is signed in (`false` for a signed-out visitor or a shared cache).
        public var signedIn: Bool
        public var isSelf: Bool
        public var suspended: Bool
        /// The viewer blocks the person, or the person blocks the viewer.
        public var blockedEitherWay: Bool
        /// The viewer's follow of the person is accepted.
        public var follows: Bool
        /// The viewer muted the person.
        public var muted: Bool
        public var privacy: Privacy

        public init(
            signedIn: Bool = true, isSelf: Bool = false, suspended: Bool = false, blockedEitherWay: Bool = false,
            follows: Bool = false, muted: Bool = false, privacy: Privacy = .public
        ) {
            self.signedIn = signedIn
            self.isSelf = isSelf
            self.suspended = suspended
            self.blockedEitherWay = blockedEitherWay
            self.follows = follows
            self.muted = muted
            self.privacy = privacy
        }

        /// What a signed-out visitor (or a shared cache) knows of `person`.
        public static func signedOut(_ person: AccountRecord) -> Facts {
            Facts(signedIn: false, suspended: person.suspendedAt != nil, privacy: person.profile.privacy)
        }
    }

    /// What of a person a viewer may see.
    public enum Aspect: Sendable, CaseIterable {
        /// The person at all: profile, name in lists of people, kudos, comments, search, replies to them.
        case exists
        /// Their followers and following lists, and their progress report.
        case lists
        /// Whether they are online, on the community feed.
        case presence
        /// Their device chain: the public keys of their end-to-end encrypted devices.
        case deviceChain
        /// Their relay events (only a public account's reach others).
        case relayEvents
        /// A notification they caused, for the viewer as its recipient.
        case notifications
        /// Their avatar.
        case avatar
    }

    public static func allows(_ aspect: Aspect, _ facts: Facts) -> Bool {
        let exists = facts.isSelf || (!facts.suspended && !facts.blockedEitherWay)
        let followerOnly = facts.privacy != .private || facts.isSelf || facts.follows
        switch aspect {
        case .exists: return exists
        case .lists, .presence: return exists && followerOnly
        case .deviceChain: return exists && facts.signedIn
        case .relayEvents: return exists && (facts.privacy == .public || facts.isSelf)
        case .notifications: return exists && !facts.isSelf && !facts.muted && facts.signedIn
        case .avatar: return allows(.exists, Facts(signedIn: false, suspended: facts.suspended))
        }
    }
}
