import Foundation
import SpotterModels

/// The inbox group keys of notifications about a group: made here for the notifier, and read back here for
/// the wire's `group_id`, so an app can open the group a notification is about (issue 40's tap targets)
/// without parsing keys of its own.
public enum NotificationGroupKey {
    /// What a group's notifications are about; each is one inbox row per group (or per group and person).
    public enum About: String, Sendable, CaseIterable {
        case posts = "group-posts"
        case invitation = "group-invitation"
        case requests = "group-requests"
        case accepted = "group-accepted"
        case keys = "group-keys"
        case removed = "group-removed"
        case banned = "group-banned"
    }

    /// The key for notifications about `group`.
    public static func key(_ about: About, _ group: GroupID) -> String { "\(about.rawValue)-\(group)" }

    /// The group a key made by `key(_:_:)` names, if it is one.
    public static func group(in key: String) -> GroupID? {
        for about in About.allCases {
            let prefix = about.rawValue + "-"
            if key.hasPrefix(prefix), let id = GroupID(String(key.dropFirst(prefix.count))) { return id }
        }
        return nil
    }
}
