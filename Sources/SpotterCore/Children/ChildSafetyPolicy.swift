import SpotterModels

/// Where content that names a child may go: the one safety rule for children, which every route that
/// publishes asks (REST, the web app's forms, the SDK through REST, and the relay, which can name nobody's
/// child: no Nostr event maps to a child profile, and what names one is never public).
///
/// Content naming a child profile may go only to a `private` group: never public, followers-only, "only me"
/// (a profile page shows those to its owner, and an account can be shared), an open or request group, Global,
/// search, a hashtag's feed, the Nostr relay, or a push's text. A private group holding such content stays
/// private: its access may not be opened while it does.
///
/// Where the rest of the rule is kept: search and hashtag feeds leave out any post in `post_children`, in
/// each adapter's SQL (`namesNoChild`); a group post's notification never carries the post's words
/// (`NotificationText`), so no push names a child.
public enum ChildSafetyPolicy {
    /// Where a post is going.
    public enum Audience: Sendable, Equatable {
        case personal(Visibility)
        case group(GroupAccess)
    }

    /// Whether a post naming `children` may go to `audience`. Naming nobody, it may go anywhere.
    public static func mayPublish(naming children: Int, to audience: Audience) -> Bool {
        children == 0 || audience == .group(.private)
    }

    /// Whether a group holding content that names a child may change to `access`.
    public static func mayChangeAccess(to access: GroupAccess, holdsChildContent: Bool) -> Bool {
        !holdsChildContent || access == .private
    }

}
