import Foundation
import SpotterModels

/// Where tapping a notification goes, as a value an app's navigation switches over (issue 40): each kind of
/// notification names the screen that answers it, with the ids that screen loads.
///
/// ```swift
/// switch NotificationRoute(group) {
/// case .post(let id, let comment): path.append(PostScreen.Route(id, scrollTo: comment))
/// case .person(let username): path.append(ProfileScreen.Route(username))
/// …
/// }
/// ```
public enum NotificationRoute: Sendable, Hashable {
    /// A post, and the comment on it the notification is about (a comment, reply or mention in a comment).
    case post(PostID, comment: CommentID?)
    /// Someone's profile (a new follower, an accepted follow request).
    case person(username: String)
    /// The follow requests waiting for an answer.
    case followRequests
    /// A group's page (an invitation, an accepted request, news of the group, keys waiting in an
    /// encrypted group).
    case group(GroupID)
    /// A group's join requests, for its admins.
    case groupJoinRequests(GroupID)
    /// Invitations to look after a child, waiting for an answer.
    case guardianInvitations
    /// The signed-in person's progress (streak, weekly summary).
    case progress
    /// The account's security page: sessions, devices, password and email.
    case security
    /// The inbox itself: a notification whose subject is gone (a deleted post, an unknown kind).
    case inbox

    /// The screen a tap on `group` opens.
    public init(_ group: NotificationGroup) {
        self.init(
            type: group.type, postID: group.postID, commentID: group.commentID, groupID: group.groupID,
            actor: group.sampleActors.first?.username)
    }

    /// The screen a tap on a push opens: its row's, as the inbox would route it; a digest (no row) opens the
    /// inbox.
    public init(_ push: NotificationPush) {
        guard let type = push.type else {
            self = .inbox
            return
        }
        self.init(
            type: type, postID: push.postID, commentID: push.commentID, groupID: push.groupID,
            actor: push.actorUsername)
    }

    private init(type: NotificationType, postID: PostID?, commentID: CommentID?, groupID: GroupID?, actor: String?) {
        switch type {
        case .kudos, .personalRecord, .groupPost:
            self = postID.map { .post($0, comment: nil) } ?? .inbox
        case .comment, .reply, .mention:
            self = postID.map { .post($0, comment: commentID) } ?? .inbox
        case .follow, .followRequestApproved:
            self = actor.map { .person(username: $0) } ?? .inbox
        case .followRequest:
            self = .followRequests
        case .groupInvitation, .groupRequestAccepted, .groupRemoved, .groupBanned, .groupAwaitingKeys:
            self = groupID.map(NotificationRoute.group) ?? .inbox
        case .groupJoinRequest:
            self = groupID.map(NotificationRoute.groupJoinRequests) ?? .inbox
        case .guardianInvitation:
            self = .guardianInvitations
        case .streakAtRisk, .weeklySummary:
            self = .progress
        case .securityNewDevice, .securityPasswordChanged, .securityEmailChanged:
            self = .security
        }
    }
}
