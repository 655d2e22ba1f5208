import Foundation
import SpotterModels

/// What a notification says: one text for the inbox (the recipient's own, so in full), and a push or email
/// text cut down to what the recipient's privacy setting allows.
public enum NotificationText {
    /// A push or email's two lines.
    public struct Content: Sendable, Equatable {
        public var title: String
        public var body: String

        public init(title: String, body: String) {
            self.title = title
            self.body = body
        }
    }

    /// What a private account's pushes say, and anyone's when the sender may not be named.
    public static let generic = Content(title: "Spotter", body: "You have a new notification.")

    /// "Ana", "Ana and Bea", "Ana and 2 others": `names` newest first and distinct, `total` people in all.
    public static func people(_ names: [String], total: Int) -> String {
        guard let first = names.first else { return "Someone" }
        switch total {
        case ...1: return first
        case 2 where names.count >= 2: return "\(first) and \(names[1])"
        default: return "\(first) and \(total - 1) \(total - 1 == 1 ? "other" : "others")"
        }
    }

    /// The sentence for a group of `type`: `who` from `people(_:total:)`, `subject` what may be said of its
    /// post (`NotificationSubject`), `detail` what the type stored (a comment's words, a record's lift; empty
    /// for a post only members may read, and then never quoted).
    public static func sentence(
        type: NotificationType, who: String, count: Int, subject: NotificationSubject, detail: String
    )
        -> String
    {
        // Whatever was stored (a notification made before this rule held its post's words), a post only
        // members may read is named by its group alone.
        if case .membersOnly(let group) = subject, let text = membersOnly(type, who: who, in: group) { return text }
        let target = target(subject)
        switch type {
        case .follow: return "\(who) started following you"
        case .followRequest: return "\(who) asked to follow you"
        case .followRequestApproved: return "\(who) approved your follow request"
        case .kudos: return "\(who) gave kudos to \(target)"
        case .comment:
            return count > 1 || detail.isEmpty
                ? "\(who) commented on \(target)" : "\(who) commented on \(target): \(quote(detail))"
        case .reply:
            return count > 1 || detail.isEmpty ? "\(who) replied to your comment" : "\(who) replied: \(quote(detail))"
        case .mention: return detail.isEmpty ? "\(who) mentioned you" : "\(who) mentioned you: \(quote(detail))"
        case .personalRecord: return detail.isEmpty ? "New personal record" : "New personal record: \(detail)"
        case .streakAtRisk, .weeklySummary: return detail
        case .securityNewDevice: return "New sign-in to your account: \(detail)"
        case .securityPasswordChanged:
            return "Your password was changed. If this wasn't you, contact your community's admin now."
        case .securityEmailChanged:
            return "Your email was changed by an admin of this server. If you didn't ask for this, tell them now."
        // `detail` is the group's name. A group post's notification never carries the post's words: they
        // may name a child (`ChildSafetyPolicy`), and a push's text goes beyond the group.
        case .groupPost: return "\(who) posted in \(detail)"
        case .groupInvitation: return "\(who) invited you to \(detail)"
        case .groupJoinRequest: return "\(who) asked to join \(detail)"
        case .groupRequestAccepted: return "You're in: \(who) let you into \(detail)"
        case .groupRemoved: return "You were removed from \(detail)"
        case .groupBanned: return "You were banned from \(detail)"
        case .groupAwaitingKeys:
            return count > 1
                ? "\(who) joined \(detail) and are waiting for keys: open the group to share them"
                : "\(who) joined \(detail) and is waiting for keys: open the group to share them"
        // Never the child's name: the invitation page shows it to the invitee, who may answer there.
        case .guardianInvitation: return "\(who) invited you to be a guardian of a child in their household"
        }
    }

    /// The sentence about a post only `group`'s members may read: where, and nothing of what. `nil` for a type
    /// that never says anything of a post.
    private static func membersOnly(_ type: NotificationType, who: String, in group: String) -> String? {
        switch type {
        case .kudos: "\(who) gave kudos to your post in \(group)"
        case .comment: "\(who) commented on your post in \(group)"
        case .reply: "\(who) replied to your comment in \(group)"
        case .mention: "\(who) mentioned you in \(group)"
        case .personalRecord: "New personal record in \(group)"
        default: nil
        }
    }

    /// The name a post goes by in a notification: its workout's title, or "your post".
    private static func target(_ subject: NotificationSubject) -> String {
        switch subject {
        case .quotable(let title):
            guard let title, !title.trimmingCharacters(in: .whitespaces).isEmpty else { return "your post" }
            return "your \(title)"
        case .membersOnly(let group): return "your post in \(group)"
        }
    }

    /// Push and email text under the recipient's privacy setting (the FameFit seed): in full for a public
    /// account; for followers-only, only the sender's name and only if the two follow each other; for a
    /// private account, nothing but a generic line. Alerts about the recipient's own account or progress
    /// carry no one else's data and stay in full.
    public static func sanitized(
        _ sentence: String, type: NotificationType, recipientPrivacy: Privacy, actorName: String?, mutual: Bool
    ) -> Content {
        guard let actorName else { return Content(title: "Spotter", body: sentence) }
        switch recipientPrivacy {
        case .public: return Content(title: "Spotter", body: sentence)
        case .followers:
            return mutual ? Content(title: actorName, body: "\(actorName) sent you something new.") : generic
        case .private: return generic
        }
    }

    /// A digest's opening line: "3 kudos, 2 new followers and 1 comment".
    public static func digestSummary(_ counts: [NotificationType: Int]) -> String {
        let order: [NotificationType] = [
            .kudos, .comment, .reply, .mention, .follow, .followRequest, .personalRecord, .groupPost,
            .groupInvitation, .groupJoinRequest, .groupRequestAccepted, .groupRemoved, .groupBanned,
            .groupAwaitingKeys, .guardianInvitation, .followRequestApproved, .weeklySummary, .streakAtRisk,
            .securityNewDevice, .securityPasswordChanged, .securityEmailChanged,
        ]
        let parts = order.compactMap { type -> String? in
            guard let count = counts[type], count > 0 else { return nil }
            return "\(count) \(noun(type, count))"
        }
        guard let last = parts.last else { return "Nothing new" }
        return parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + " and " + last
    }

    private static func noun(_ type: NotificationType, _ count: Int) -> String {
        let plural = count != 1
        switch type {
        case .kudos: return "kudos"
        case .comment: return plural ? "comments" : "comment"
        case .reply: return plural ? "replies" : "reply"
        case .mention: return plural ? "mentions" : "mention"
        case .follow: return plural ? "new followers" : "new follower"
        case .followRequest: return plural ? "follow requests" : "follow request"
        case .personalRecord: return plural ? "personal records" : "personal record"
        case .weeklySummary: return plural ? "weekly summaries" : "weekly summary"
        case .streakAtRisk: return plural ? "streak reminders" : "streak reminder"
        case .securityNewDevice, .securityPasswordChanged, .securityEmailChanged:
            return plural ? "security alerts" : "security alert"
        case .groupPost: return plural ? "group posts" : "group post"
        case .groupInvitation: return plural ? "group invitations" : "group invitation"
        case .groupJoinRequest: return plural ? "requests to join" : "request to join"
        case .groupRequestAccepted: return plural ? "groups joined" : "group joined"
        case .groupRemoved: return plural ? "group removals" : "group removal"
        case .groupBanned: return plural ? "group bans" : "group ban"
        case .groupAwaitingKeys: return plural ? "members waiting for keys" : "member waiting for keys"
        case .guardianInvitation: return plural ? "guardian invitations" : "guardian invitation"
        case .followRequestApproved: return plural ? "approved follow requests" : "approved follow request"
        }
    }

    private static func quote(_ text: String) -> String {
        let short = text.count > 80 ? String(text.prefix(79)) + "…" : text
        return "“\(short)”"
    }
}
