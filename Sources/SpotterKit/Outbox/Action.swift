import Foundation
import SpotterModels

/// A change the user made, waiting to reach the server.
public enum Action: Sendable, Equatable {
    case setKudos(PostID, given: Bool)
    case comment(PostID, CreateCommentRequest)
    case createPost(CreatePostRequest)
    case follow(String)
    case unfollow(String)
    case updateProfile(UpdateAccountRequest)
    /// An edit of one's own post: its text, audience or workout (`PATCH /api/v1/posts/{id}`).
    case updatePost(PostID, UpdatePostRequest)
    /// The inbox was opened: notifications up to this one (all, when nil) are seen.
    case markNotificationsSeen(upTo: NotificationID?)
    /// "Mark all read": notifications up to this one (all, when nil) are read.
    case markNotificationsRead(upTo: NotificationID?)
    /// One inbox row is read (it was opened).
    case markNotificationGroupRead(String)
    /// One inbox row leaves the inbox.
    case archiveNotificationGroup(String)
    /// A follow request from this person is approved (`approve`) or denied, from the request's push too.
    case answerFollowRequest(String, approve: Bool)
    /// Someone's request to join a group is approved or turned away (by one of its admins).
    case answerJoinRequest(GroupID, UserID, approve: Bool)

    /// The entity of every mark and archive: they change the one inbox, so they land in the order made.
    static let inboxEntity = "inbox"
    /// The entity of every new post: they are sent in the order made.
    static let newPostEntity = "new-post"

    /// What the action changes: actions on one entity are sent in the order they were made.
    public var entity: String {
        switch self {
        case .setKudos(let post, _), .comment(let post, _), .updatePost(let post, _): "post:\(post)"
        case .createPost: Self.newPostEntity
        case .follow(let username), .unfollow(let username), .answerFollowRequest(let username, _):
            "user:\(username.lowercased())"
        case .updateProfile: "me"
        case .markNotificationsSeen, .markNotificationsRead, .markNotificationGroupRead, .archiveNotificationGroup:
            Self.inboxEntity
        case .answerJoinRequest(let group, let user, _): "group:\(group):request:\(user)"
        }
    }
}

/// How an action is kept in the outbox, written by hand so that it never changes by accident: devices hold
/// queued actions across app updates and replay them afterwards.
///
/// The form is the one Swift's synthesized `Codable` gave the enum before issue 23, so what devices stored
/// then still reads: one key naming the case, holding an object whose members are the case's values, named
/// by their label or, unlabelled, `_0` and `_1`:
///
/// ```json
/// {"setKudos":{"_0":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11","given":true}}
/// {"comment":{"_0":"0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11","_1":{"text":"Strong finish!"}}}
/// {"follow":{"_0":"ana"}}
/// ```
///
/// `OutboxCompatibilityTests` holds literal JSON of every release; add a case, never rename one.
extension Action: Codable {
    private enum Case: String, CodingKey {
        case setKudos, comment, createPost, follow, unfollow, updateProfile, updatePost
        case markNotificationsSeen, markNotificationsRead, markNotificationGroupRead, archiveNotificationGroup
        case answerFollowRequest, answerJoinRequest
    }

    private enum Value: String, CodingKey {
        case first = "_0"
        case second = "_1"
        case given
        case upTo
        case approve
    }

    public init(from decoder: any Decoder) throws {
        let cases = try decoder.container(keyedBy: Case.self)
        guard cases.allKeys.count == 1, let which = cases.allKeys.first else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: cases.codingPath, debugDescription: "An action is one object with one known key."))
        }
        let values = try cases.nestedContainer(keyedBy: Value.self, forKey: which)
        switch which {
        case .setKudos:
            self = .setKudos(
                try values.decode(PostID.self, forKey: .first), given: try values.decode(Bool.self, forKey: .given))
        case .comment:
            self = .comment(
                try values.decode(PostID.self, forKey: .first),
                try values.decode(CreateCommentRequest.self, forKey: .second))
        case .createPost:
            self = .createPost(try values.decode(CreatePostRequest.self, forKey: .first))
        case .follow:
            self = .follow(try values.decode(String.self, forKey: .first))
        case .unfollow:
            self = .unfollow(try values.decode(String.self, forKey: .first))
        case .updateProfile:
            self = .updateProfile(try values.decode(UpdateAccountRequest.self, forKey: .first))
        case .updatePost:
            self = .updatePost(
                try values.decode(PostID.self, forKey: .first),
                try values.decode(UpdatePostRequest.self, forKey: .second))
        case .markNotificationsSeen:
            self = .markNotificationsSeen(upTo: try values.decodeIfPresent(NotificationID.self, forKey: .upTo))
        case .markNotificationsRead:
            self = .markNotificationsRead(upTo: try values.decodeIfPresent(NotificationID.self, forKey: .upTo))
        case .markNotificationGroupRead:
            self = .markNotificationGroupRead(try values.decode(String.self, forKey: .first))
        case .archiveNotificationGroup:
            self = .archiveNotificationGroup(try values.decode(String.self, forKey: .first))
        case .answerFollowRequest:
            self = .answerFollowRequest(
                try values.decode(String.self, forKey: .first), approve: try values.decode(Bool.self, forKey: .approve))
        case .answerJoinRequest:
            self = .answerJoinRequest(
                try values.decode(GroupID.self, forKey: .first), try values.decode(UserID.self, forKey: .second),
                approve: try values.decode(Bool.self, forKey: .approve))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var cases = encoder.container(keyedBy: Case.self)
        switch self {
        case .setKudos(let post, let given):
            var values = cases.nestedContainer(keyedBy: Value.self, forKey: .setKudos)
            try values.encode(post, forKey: .first)
            try values.encode(given, forKey: .given)
        case .comment(let post, let request):
            var values = cases.nestedContainer(keyedBy: Value.self, forKey: .comment)
            try values.encode(post, forKey: .first)
            try values.encode(request, forKey: .second)
        case .createPost(let request):
            var values = cases.nestedContainer(keyedBy: Value.self, forKey: .createPost)
            try values.encode(request, forKey: .first)
        case .follow(let username):
            var values = cases.nestedContainer(keyedBy: Value.self, forKey: .follow)
            try values.encode(username, forKey: .first)
        case .unfollow(let username):
            var values = cases.nestedContainer(keyedBy: Value.self, forKey: .unfollow)
            try values.encode(username, forKey: .first)
        case .updateProfile(let changes):
            var values = cases.nestedContainer(keyedBy: Value.self, forKey: .updateProfile)
            try values.encode(changes, forKey: .first)
        case .updatePost(let post, let request):
            var values = cases.nestedContainer(keyedBy: Value.self, forKey: .updatePost)
            try values.encode(post, forKey: .first)
            try values.encode(request, forKey: .second)
        case .markNotificationsSeen(let upTo):
            var values = cases.nestedContainer(keyedBy: Value.self, forKey: .markNotificationsSeen)
            try values.encodeIfPresent(upTo, forKey: .upTo)
        case .markNotificationsRead(let upTo):
            var values = cases.nestedContainer(keyedBy: Value.self, forKey: .markNotificationsRead)
            try values.encodeIfPresent(upTo, forKey: .upTo)
        case .markNotificationGroupRead(let key):
            var values = cases.nestedContainer(keyedBy: Value.self, forKey: .markNotificationGroupRead)
            try values.encode(key, forKey: .first)
        case .archiveNotificationGroup(let key):
            var values = cases.nestedContainer(keyedBy: Value.self, forKey: .archiveNotificationGroup)
            try values.encode(key, forKey: .first)
        case .answerFollowRequest(let username, let approve):
            var values = cases.nestedContainer(keyedBy: Value.self, forKey: .answerFollowRequest)
            try values.encode(username, forKey: .first)
            try values.encode(approve, forKey: .approve)
        case .answerJoinRequest(let group, let user, let approve):
            var values = cases.nestedContainer(keyedBy: Value.self, forKey: .answerJoinRequest)
            try values.encode(group, forKey: .first)
            try values.encode(user, forKey: .second)
            try values.encode(approve, forKey: .approve)
        }
    }
}
