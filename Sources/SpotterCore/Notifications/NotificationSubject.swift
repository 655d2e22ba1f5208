import Foundation
import SpotterModels

/// What a notification may say of the post it is about, by who may read the post: the one rule behind what a
/// notification stores (`Notifier`) and every text made from it (the inbox, APNs, Web Push, email).
///
/// Whoever is told of a post may read it (`NotificationAudience`), but a notification's text goes further
/// than its reader: onto a lock screen, through Apple's and the browsers' push services, into a mailbox. So a
/// post only a group's members may read (a `request`, `private` or encrypted group) is named by its group and
/// nothing else: no words of it or of a comment on it, no workout title, no lift. A child may be named only in
/// a private group's post, so no notification ever names a child.
public enum NotificationSubject: Sendable, Equatable {
    /// Anyone who may be told may also read the post anywhere it is shown: its words may be quoted and its
    /// workout named (`title`).
    case quotable(title: String?)
    /// Only members of the group named may read it: the text names the group, and nothing of the post.
    case membersOnly(group: String)

    /// The subject of `post`; `group` is the group it was posted to (`nil` for a post in none, or for a
    /// group that is gone, which says nothing more than "a group").
    public static func of(_ post: PostRecord, in group: GroupRecord?) -> NotificationSubject {
        guard let groupID = post.groupID else {
            // Children are named only in private groups (`ChildSafetyPolicy`); should one ever be named
            // elsewhere, still nothing of it is said.
            return post.childIDs.isEmpty ? .quotable(title: post.workout?.title) : .membersOnly(group: "a group")
        }
        guard let group, group.id == groupID else { return .membersOnly(group: "a group") }
        let anyoneReads = group.access == .open && !group.encrypted && post.sealed == nil && post.childIDs.isEmpty
        return anyoneReads ? .quotable(title: post.workout?.title) : .membersOnly(group: group.name)
    }

    /// Whether a notification may store and show the words of the post, or of a comment on it.
    public var quotes: Bool {
        if case .quotable = self { return true }
        return false
    }

    /// `text` if it may be quoted, else nothing: what a notification stores of a post or comment.
    public func detail(_ text: String) -> String { quotes ? text : "" }
}
