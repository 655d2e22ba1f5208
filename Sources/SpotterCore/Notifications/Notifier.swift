import Foundation
import Logging
import SpotterModels

/// Something that happened that may notify someone. Services hand these to the `Notifier` after the change
/// is stored.
public enum NotificationTrigger: Sendable, Equatable {
    case followed(follower: UserID, followee: UserID)
    case followRequested(requester: UserID, target: UserID)
    /// Kudos on a post by `author`, who the caller just read it as (so telling them needs no second read).
    case kudos(post: PostID, author: UserID, by: UserID)
    /// A comment or reply was posted: its post's author, the answered comment's author and anyone mentioned
    /// hear of it.
    case commented(CommentRecord)
    /// A post was made: people it mentions, and its author for the personal records it set.
    case posted(PostRecord)
    case signedIn(user: UserID, device: String)
    case passwordChanged(user: UserID)
    /// An admin, or the operator, set the account's email (`AccountLinkService.setEmail`).
    case emailChanged(user: UserID)
    /// A scheduled reminder or summary for `user`, once per `period` (a local day or week).
    case reminder(user: UserID, type: NotificationType, period: String, text: String)
    /// A post was made in a group: every other member hears of it (batched by default), never its words.
    case groupPosted(PostRecord, group: GroupRecord)
    case groupInvited(group: GroupRecord, invitee: UserID, by: UserID)
    /// Someone asked to join: the group's admins and owner hear of it.
    case groupJoinRequested(group: GroupRecord, requester: UserID)
    case groupRequestAccepted(group: GroupRecord, user: UserID, by: UserID)
    case groupRemoved(group: GroupRecord, user: UserID, by: UserID)
    case groupBanned(group: GroupRecord, user: UserID, by: UserID)
    /// Someone became a member: in an encrypted group, its owner and admins hear that keys wait to be shared.
    case groupJoined(group: GroupRecord, member: UserID)
    /// Someone was invited to look after a child; the notification never names the child.
    case guardianInvited(child: ChildProfileID, invitee: UserID, by: UserID)
    /// `target` approved `requester`'s request to follow them.
    case followRequestApproved(requester: UserID, target: UserID)
}

/// Turns triggers into notifications: who hears of it, whether they may, what their preferences say, and
/// the durable delivery jobs that carry it to their devices.
///
/// Everything is stored before the call returns, in the database, so a restart loses no notification and
/// no scheduled push. Inside a unit of work (every request's) the notifications join it, in a savepoint of
/// their own: they commit with the action, and one that fails is undone alone and logged, as notifying never
/// fails the action. Open sessions hear of a notification after the commit (the unit holds the event).
public struct Notifier: Sendable {
    let storage: any SpotterStorage
    let clock: any WallClock
    let events: (any EventBus)?
    let logger: Logger
    let scheduler = NotificationScheduler()

    public init(storage: any SpotterStorage, clock: any WallClock, events: (any EventBus)?, logger: Logger) {
        self.storage = storage
        self.clock = clock
        self.events = events
        self.logger = logger
    }

    public func notify(_ trigger: NotificationTrigger) async {
        do {
            try await storage.write { try await store(trigger) }
        } catch {
            logger.error("notification failed", metadata: ["error": "\(error)"])
        }
    }

    private func store(_ trigger: NotificationTrigger) async throws {
        for draft in try await drafts(for: trigger) {
            guard let planned = try await plan(draft),
                try await storage.notifications.insert(planned.record, deliveries: planned.deliveries),
                planned.inApp
            else { continue }
            // Held by the unit until its commit: recipients' open sessions hear of it once it is stored.
            await events?.publish(.notificationCreated(planned.record.id, recipient: planned.record.recipientID))
        }
    }

    /// One notification for one recipient, before the recipient's rules are applied.
    struct Draft {
        var recipient: UserID
        var type: NotificationType
        var actor: UserID?
        var postID: PostID?
        var commentID: CommentID?
        /// The author of `postID` when the trigger just read the post, live; `nil` makes delivery read it.
        var postAuthor: UserID?
        var detail = ""
        /// `nil` groups the notification alone.
        var group: String?
        var dedupe: String?
    }

    private func drafts(for trigger: NotificationTrigger) async throws -> [Draft] {
        let now = clock.now
        switch trigger {
        case .followed(let follower, let followee):
            let day = LocalTime(try await storage.accounts.find(id: followee)?.profile.timeZone ?? "UTC").day(of: now)
            return [
                Draft(
                    recipient: followee, type: .follow, actor: follower, group: "follow-\(day)",
                    dedupe: "follow-\(follower)-\(day)")
            ]
        case .followRequested(let requester, let target):
            return [
                Draft(
                    recipient: target, type: .followRequest, actor: requester,
                    group: Self.followRequestGroup(requester), dedupe: "request-\(requester)")
            ]
        case .kudos(let post, let author, let giver):
            return [
                Draft(
                    recipient: author, type: .kudos, actor: giver, postID: post, postAuthor: author,
                    group: "kudos-\(post)", dedupe: "kudos-\(post)-\(giver)")
            ]
        case .commented(let comment):
            guard let post = try await storage.posts.record(comment.postID) else { return [] }
            // Nothing of a comment on a post only members may read is stored (`NotificationSubject`).
            let detail = try await subject(of: post).detail(comment.text)
            var drafts: [Draft] = []
            var told: Set<UserID> = [comment.authorID]
            if let parentID = comment.parentID, let parent = try await storage.posts.comment(parentID),
                told.insert(parent.authorID).inserted
            {
                drafts.append(
                    Draft(
                        recipient: parent.authorID, type: .reply, actor: comment.authorID, postID: post.id,
                        commentID: comment.id, detail: detail, group: "reply-\(parentID)",
                        dedupe: "comment-\(comment.id)"))
            }
            if told.insert(post.authorID).inserted {
                drafts.append(
                    Draft(
                        recipient: post.authorID, type: .comment, actor: comment.authorID, postID: post.id,
                        commentID: comment.id, detail: detail, group: "comment-\(post.id)",
                        dedupe: "comment-\(comment.id)"))
            }
            for user in try await mentioned(in: TextEntities.mentions(in: comment.text))
            where told.insert(user).inserted {
                drafts.append(
                    Draft(
                        recipient: user, type: .mention, actor: comment.authorID, postID: post.id,
                        commentID: comment.id, detail: detail, dedupe: "mention-\(comment.id)"))
            }
            return drafts
        case .posted(let post):
            // Nothing of a post only members may read is stored: not its words, not the lifts of its records.
            let subject = try await subject(of: post)
            var drafts = try await mentioned(in: post.mentions).filter { $0 != post.authorID }.map {
                Draft(
                    recipient: $0, type: .mention, actor: post.authorID, postID: post.id,
                    detail: subject.detail(post.text), dedupe: "mention-\(post.id)")
            }
            if !post.records.isEmpty {
                drafts.append(
                    Draft(
                        recipient: post.authorID, type: .personalRecord, postID: post.id,
                        detail: subject.detail(post.records.map(Self.describe).joined(separator: ", ")),
                        dedupe: "records-\(post.id)"))
            }
            return drafts
        case .signedIn(let user, let device):
            return [Draft(recipient: user, type: .securityNewDevice, detail: device)]
        case .passwordChanged(let user):
            return [Draft(recipient: user, type: .securityPasswordChanged)]
        case .emailChanged(let user):
            return [Draft(recipient: user, type: .securityEmailChanged)]
        case .reminder(let user, let type, let period, let text):
            return [Draft(recipient: user, type: type, detail: text, dedupe: "\(type.rawValue)-\(period)")]
        case .groupPosted(let post, let group):
            // A big club's posts notify nobody: each notification is made in the post's request, and in a club of
            // thousands a post is news to few (its members see "new since you last looked" on the group).
            guard group.memberCount <= GroupRules.maxNotifiedMembers else { return [] }
            return try await storage.groups.memberRoles(of: group.id).keys.filter { $0 != post.authorID }.map {
                Draft(
                    recipient: $0, type: .groupPost, actor: post.authorID, postID: post.id, postAuthor: post.authorID,
                    detail: group.name, group: NotificationGroupKey.key(.posts, group.id),
                    dedupe: "group-post-\(post.id)")
            }
        case .groupInvited(let group, let invitee, let by):
            return [
                Draft(
                    recipient: invitee, type: .groupInvitation, actor: by, detail: group.name,
                    group: NotificationGroupKey.key(.invitation, group.id), dedupe: "group-invitation-\(group.id)")
            ]
        case .groupJoinRequested(let group, let requester):
            return try await storage.groups.memberRoles(of: group.id).filter { $0.value >= .admin }.keys.map {
                Draft(
                    recipient: $0, type: .groupJoinRequest, actor: requester, detail: group.name,
                    group: NotificationGroupKey.key(.requests, group.id),
                    dedupe: "group-request-\(group.id)-\(requester)")
            }
        case .groupRequestAccepted(let group, let user, let by):
            return [
                Draft(
                    recipient: user, type: .groupRequestAccepted, actor: by, detail: group.name,
                    group: NotificationGroupKey.key(.accepted, group.id), dedupe: "group-accepted-\(group.id)-\(user)")
            ]
        case .groupRemoved(let group, let user, let by):
            return [
                Draft(
                    recipient: user, type: .groupRemoved, actor: by, detail: group.name,
                    group: NotificationGroupKey.key(.removed, group.id))
            ]
        case .groupBanned(let group, let user, let by):
            return [
                Draft(
                    recipient: user, type: .groupBanned, actor: by, detail: group.name,
                    group: NotificationGroupKey.key(.banned, group.id))
            ]
        case .groupJoined(let group, let member):
            // Only an encrypted group's members wait for anything: a device of an admin's shares the keys when
            // it opens the group (docs/encryption.md), so the owner and admins are told to.
            guard group.encrypted else { return [] }
            return try await storage.groups.memberRoles(of: group.id).filter { $0.value >= .admin }.keys.map {
                Draft(
                    recipient: $0, type: .groupAwaitingKeys, actor: member, detail: group.name,
                    group: NotificationGroupKey.key(.keys, group.id))
            }
        case .guardianInvited(let child, let invitee, let by):
            return [
                Draft(
                    recipient: invitee, type: .guardianInvitation, actor: by, group: "guardian-invitation-\(child)")
            ]
        case .followRequestApproved(let requester, let target):
            return [Draft(recipient: requester, type: .followRequestApproved, actor: target)]
        }
    }

    /// What notifications about `post` may say, by who may read it (`NotificationSubject`).
    private func subject(of post: PostRecord) async throws -> NotificationSubject {
        guard let groupID = post.groupID else { return NotificationSubject.of(post, in: nil) }
        return NotificationSubject.of(post, in: try await storage.groups.find(groupID))
    }

    /// A follow request's inbox group: one per requester, so answering or withdrawing it can archive it.
    public static func followRequestGroup(_ requester: UserID) -> String { "request-\(requester)" }

    private func mentioned(in usernames: [String]) async throws -> [UserID] {
        var users: [UserID] = []
        for name in usernames.prefix(20) {
            if let account = try await storage.accounts.find(username: name) { users.append(account.id) }
        }
        return users
    }

    static func describe(_ record: PersonalRecord) -> String {
        let value = record.value.formatted(.number.precision(.fractionLength(0...1)))
        switch record.kind {
        case .heaviestWeight: return "\(record.exercise) \(value) kg"
        case .estimatedOneRepMax: return "\(record.exercise) estimated 1RM \(value) kg"
        case .mostReps:
            let weight = (record.weightKg ?? 0).formatted(.number.precision(.fractionLength(0...1)))
            return "\(record.exercise) \(value) reps at \(weight) kg"
        }
    }

    /// Applies the recipient's rules to one draft: the notification and jobs they allow, or `nil`.
    ///
    /// Every step is a database round trip on a kudos request's path, and the notifier's reads were most of
    /// a kudos request's round trips, so what the recipient's rules need is one read. `notify` then writes
    /// the notification and its jobs.
    private func plan(_ draft: Draft) async throws -> PlannedNotification? {
        let now = clock.now
        guard draft.actor != draft.recipient,
            let rules = try await storage.notifications.deliveryRules(
                of: draft.recipient, from: draft.actor, pushesSince: now.addingTimeInterval(-3600)),
            rules.actorMayReach,
            try await NotificationAudience.mayHear(
                draft.recipient, about: draft.postID, postAuthor: draft.postAuthor, storage: storage)
        else { return nil }
        let id = NotificationID.generate(at: now)
        let groupKey = draft.group ?? "\(draft.type.rawValue)-\(id)"
        let decision = scheduler.decide(
            type: draft.type, groupKey: groupKey, preferences: rules.preferences ?? NotificationPreferences(),
            profileTimeZone: rules.timeZone, pushesThisHour: rules.pushesSent, now: now)
        guard decision != .nothing else { return nil }
        // Stored even when the inbox is switched off, archived, because delivery jobs point at it.
        let record = NotificationRecord(
            id: id, recipientID: draft.recipient, type: draft.type, actorID: draft.actor, postID: draft.postID,
            commentID: draft.commentID, groupKey: groupKey, dedupeKey: draft.dedupe, detail: draft.detail,
            createdAt: now, archivedAt: decision.inApp ? nil : now)
        // A push is planned only for someone with somewhere to push it when the notification is made, as
        // Mastodon does: a job for nobody cost writes now and more reads when it came due, for every
        // notification of a person who only uses the web. A device added later gets later pushes.
        let push = rules.hasPushTarget ? decision.push : nil
        let deliveries = [(DeliveryChannel.push, push), (.email, decision.email)].compactMap {
            channel, plan in plan.map { ScheduledDelivery(channel: channel, batchKey: $0.batchKey, runAt: $0.runAt) }
        }
        return PlannedNotification(record: record, deliveries: deliveries)
    }
}
