import Crypto
import Foundation
import SpotterModels

/// Posting, editing and deleting; kudos and comments.
///
/// A post someone may not see does not exist for them (404), whether it is private, followers-only,
/// deleted, by a suspended account, or by someone blocked either way.
public struct PostService: Sendable {
    public struct Configuration: Sendable {
        /// Notes carrying one of these tags join the global feed (workouts always do).
        public var fitnessTags: Set<String>
        /// Accounts younger than this are limited to `newAccountPostsPerHour`; 0 turns the limit off.
        public var newAccountAge: TimeInterval
        public var newAccountPostsPerHour: Int
        /// The same text again within this window stays out of the global feed.
        public var duplicateWindow: TimeInterval

        public init(
            fitnessTags: Set<String> = [
                "workout", "fitness", "gym", "training", "strength", "lifting", "powerlifting", "weightlifting",
                "bodybuilding", "cardio", "running", "run", "cycling", "swimming", "crossfit", "hiit", "yoga",
                "mobility", "legday", "pr", "personalrecord", "marathon", "triathlon", "rowing", "calisthenics",
            ],
            newAccountAge: TimeInterval = 24 * 3600, newAccountPostsPerHour: Int = 5,
            duplicateWindow: TimeInterval = 24 * 3600
        ) {
            self.fitnessTags = fitnessTags
            self.newAccountAge = newAccountAge
            self.newAccountPostsPerHour = newAccountPostsPerHour
            self.duplicateWindow = duplicateWindow
        }
    }

    let storage: any SpotterStorage
    let clock: any WallClock
    let configuration: Configuration
    /// Where live clients hear of changes; `nil` where nobody listens (tools, some tests).
    let events: (any EventBus)?
    /// Who tells people about kudos, comments, mentions and records; `nil` in tools that notify nobody.
    let notifier: Notifier?
    /// Who exists for whom (`PersonPolicy`), asked before a reply names its parent's author.
    let social: SocialService
    /// Which photos a post may take, and their URLs for each viewer; `nil` where photos are not set up (tools).
    let media: MediaService?
    /// Which groups the author may post to (`GroupPolicy`).
    let groups: GroupService
    /// Which children the author may name in a post.
    let children: ChildProfileService

    /// `social`, `groups` and `children` are the composition root's; tools that pass none get ones that tell
    /// nobody.
    public init(
        storage: any SpotterStorage, clock: any WallClock, configuration: Configuration = Configuration(),
        events: (any EventBus)? = nil, notifier: Notifier? = nil, media: MediaService? = nil,
        social: SocialService? = nil, groups: GroupService? = nil, children: ChildProfileService? = nil
    ) {
        self.storage = storage
        self.clock = clock
        self.configuration = configuration
        self.events = events
        self.notifier = notifier
        let social = social ?? SocialService(storage: storage, clock: clock)
        self.social = social
        self.media = media
        self.groups = groups ?? GroupService(storage: storage, clock: clock, social: social)
        self.children = children ?? ChildProfileService(storage: storage, clock: clock, social: social)
    }

    // MARK: Posts

    public func create(_ request: CreatePostRequest, author: AccountRecord) async throws -> Post {
        if let sealed = request.sealed { return try await createSealed(request, sealed, author: author) }
        let (text, workout) = PostRules.normalized(text: request.text ?? "", workout: request.workout)
        let mediaIDs = request.mediaIDs ?? []
        var problems = PostRules.problems(kind: request.kind, text: text, workout: workout, hasMedia: !mediaIDs.isEmpty)
        if let templateID = workout?.templateID,
            try await storage.templates.workoutTemplate(templateID, viewer: author.id) == nil
        {
            problems.append(FieldError(field: "workout.template_id", detail: "is not a workout template you can use"))
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        let group = try await audienceGroup(of: request, author: author)
        if group?.encrypted == true {
            throw SpotterError.invalid("sealed", "is required: posts to an encrypted group are sealed on the device")
        }
        let children = try await self.children.namedChildren(
            request.childIDs ?? [], author: author,
            audience: group.map { .group($0.access) }
                ?? .personal(request.visibility ?? (author.profile.privacy == .public ? .public : .followers)))
        let attachments = try await self.attachments(mediaIDs, author: author.id, post: nil)
        let now = clock.now
        try await checkNewAccountLimit(author, now: now)
        let id = PostID.generate(at: now)
        let visibility =
            group != nil ? .group : request.visibility ?? (author.profile.privacy == .public ? .public : .followers)
        // One unit of work: a completed workout's personal bests and its post (the bests never move for a post
        // that failed to save), the post and its photos, the children it names, and its notifications.
        _ = try await storage.write { () async throws -> PostRecord in
            var records: [PersonalRecord] = []
            if let workout, workout.completed {
                let previous = try await storage.posts.personalBests(of: author.id)
                let detected = PersonalRecordDetector.detect(workout: workout, postID: id, previous: previous)
                records = detected.records
                try await storage.posts.savePersonalBests(detected.bests, of: author.id)
            }
            var record = try await makeRecord(
                id: id, author: author, kind: request.kind, text: text, visibility: visibility,
                workout: workout, records: records, createdAt: now)
            record.media = attachments
            record.groupID = group?.id
            record.childIDs = children
            try await storage.posts.insert(record)
            if !children.isEmpty { try await storage.children.name(children, in: id) }
            if !mediaIDs.isEmpty { try await storage.media.attach(mediaIDs, to: id, at: now) }
            await events?.publish(.postCreated(id, author: author.id))
            await notifier?.notify(.posted(record))
            if let group { await notifier?.notify(.groupPosted(record, group: group)) }
            return record
        }
        return try await view(id, viewer: author)
    }

    /// The group a new post goes to, if any: one the author is a member of. Visibility `group` needs one, and
    /// a group post's visibility is `group` (or left out).
    private func audienceGroup(of request: CreatePostRequest, author: AccountRecord) async throws -> GroupRecord? {
        guard let id = request.groupID else {
            if request.visibility == .group {
                throw SpotterError.invalid("group_id", "is required for a post to a group")
            }
            return nil
        }
        if let visibility = request.visibility, visibility != .group {
            throw SpotterError.invalid("visibility", "must be group (or left out) for a post to a group")
        }
        return try await groups.postable(id, author: author)
    }

    public func get(_ id: PostID, viewer: AccountRecord?) async throws -> Post {
        guard let post = try await storage.posts.post(id, viewer: viewer?.id) else {
            throw SpotterError.notFound("No such post.")
        }
        return try await linked(post)
    }

    /// Edits the caller's own post. A workout's exercises, sets and times may change with it: its personal
    /// records, and those of the person's later workouts, are then detected again in the same unit of work
    /// (`replayRecords`), and every post whose records moved is announced. A workout made from a signed Nostr
    /// event keeps its workout (409): the event says what it says, and only its signer can say otherwise.
    public func update(_ id: PostID, with request: UpdatePostRequest, viewer: AccountRecord) async throws -> Post {
        var record = try await ownPost(id, viewer: viewer)
        if let group = record.groupID, try await storage.groups.find(group)?.encrypted == true {
            throw SpotterError.invalid(
                "sealed", "A post of an encrypted group is not edited; delete it and post again.")
        }
        let wasShownOnRelay = NostrPostEvents.shown(record)
        let (text, workout) = PostRules.normalized(
            text: request.text ?? record.text, workout: request.workout ?? record.workout)
        let mediaIDs = request.mediaIDs ?? record.media.map(\.id)
        let problems = PostRules.problems(kind: record.kind, text: text, workout: workout, hasMedia: !mediaIDs.isEmpty)
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        if workout != record.workout, try await isSigned(id) {
            throw SpotterError.conflict(field: "workout", detail: Self.signedWorkoutDetail)
        }
        let attachments =
            request.mediaIDs == nil ? record.media : try await self.attachments(mediaIDs, author: viewer.id, post: id)
        if let visibility = request.visibility, (visibility == .group) != (record.groupID != nil) {
            throw SpotterError.invalid(
                "visibility",
                record.groupID != nil
                    ? "a post in a group stays in its group" : "a post joins a group only when it is made")
        }
        let replays = PersonalRecordDetector.recordsMayDiffer(record.workout, workout)
        var updated = try await makeRecord(
            id: id, author: viewer, kind: record.kind, text: text, visibility: request.visibility ?? record.visibility,
            workout: workout, records: record.records, createdAt: record.createdAt, excludingSelf: true)
        updated.groupID = record.groupID
        record = updated
        record.editedAt = clock.now
        record.media = attachments
        let shownOnRelay = NostrPostEvents.shown(record)
        var relisted: [PostID] = []
        if request.mediaIDs != nil || shownOnRelay != wasShownOnRelay || replays {
            // The post and its photos change together: one removed from the post is discarded with the edit. So
            // do the post and the events it came from, which the relay shows only while the post is public. And
            // a workout and the records it and the later ones set: no record stands on numbers that are gone.
            relisted = try await storage.write {
                try await storage.posts.update(record)
                if request.mediaIDs != nil {
                    try await storage.media.attach(mediaIDs, to: id, at: record.editedAt ?? clock.now)
                }
                if shownOnRelay != wasShownOnRelay {
                    try await NostrPostEvents.sync(id, shown: shownOnRelay, storage: storage)
                }
                return replays ? try await replayRecords(of: record.authorID, after: id) : []
            }
        } else {
            try await storage.posts.update(record)
        }
        await events?.publish(.postUpdated(id, author: record.authorID))
        for later in relisted { await events?.publish(.postUpdated(later, author: record.authorID)) }
        return try await view(id, viewer: viewer)
    }

    /// Whether the post was made from a signed Nostr event (a linked key's kind 1301): its workout is then
    /// the event's, which only the key's owner can sign anew. The web edit page asks before it offers the
    /// builder.
    public func isSigned(_ id: PostID) async throws -> Bool {
        try await !storage.nostr.imports(of: .post(id)).isEmpty
    }

    /// Why a signed workout's numbers do not change here.
    public static let signedWorkoutDetail =
        "This workout came from a Nostr event signed with your key, and Spotter cannot sign a change to it: "
        + "correct it in the app that signed it, or delete it and log it again."

    /// Deletes a post: its author or an admin may. It leaves a tombstone and vanishes everywhere.
    /// Deletes a post: its author, or a site admin. The author deletes a post of an encrypted group with a
    /// signed tombstone (`E2EGroupService.tombstone`, which calls this with `tombstoned`), so members' devices
    /// can trust the deletion and purge it.
    public func delete(_ id: PostID, viewer: AccountRecord, tombstoned: Bool = false) async throws {
        guard let record = try await storage.posts.record(id), record.deletedAt == nil else {
            throw SpotterError.notFound("No such post.")
        }
        guard PostRules.mayDeletePost(by: viewer.id, role: viewer.role, author: record.authorID) else {
            _ = try await get(id, viewer: viewer)  // 404 if they can't even see it
            throw SpotterError.forbidden("Only the author can delete this post.")
        }
        var sealed = false
        if let group = record.groupID { sealed = try await storage.groups.find(group)?.encrypted == true }
        if sealed, record.authorID == viewer.id, !tombstoned {
            throw SpotterError.invalid(
                "tombstone", "A post of an encrypted group is deleted with a signed tombstone (POST …/tombstone).")
        }
        let now = clock.now
        try await storage.write {
            // Its photos go with it: their URLs stop working now, and the sweep removes their bytes.
            try await storage.posts.tombstone(id, at: now)
            if !record.media.isEmpty { try await storage.media.discard(post: id, at: now) }
            if sealed {
                // The ciphertext goes for good, the post's and its comments', and its photos for the sweep.
                try await storage.e2e.eraseSealed(post: id)
                try await storage.e2e.discardBlobs(of: id, at: now)
            }
            // And the events it was imported from leave the relay.
            try await NostrPostEvents.sync(id, shown: false, storage: storage)
        }
        await events?.publish(.postDeleted(id, author: record.authorID))
    }

    // MARK: Kudos

    /// Gives (`on: true`) or takes back kudos; repeating either changes nothing.
    public func setKudos(_ id: PostID, on: Bool, viewer: AccountRecord) async throws -> KudosState {
        guard let post = try await storage.posts.kudosTarget(id, viewer: viewer.id) else {
            throw SpotterError.notFound("No such post.")
        }
        guard post.author != viewer.id else {
            throw SpotterError.forbidden("Kudos are for other people's posts.")
        }
        // The kudos and the author's notification are one unit: they exist together or not at all.
        let changed = try await storage.write {
            guard on else { return try await storage.posts.removeKudos(id, by: viewer.id) }
            guard try await storage.posts.addKudos(id, by: viewer.id, at: clock.now) else { return false }
            await notifier?.notify(.kudos(post: id, author: post.author, by: viewer.id))
            return true
        }
        if changed { await events?.publish(.kudosChanged(id)) }
        // The count as the viewer saw it, moved by this change: reading the post again would cost every kudos
        // request another read for a number it already has. Others' kudos in between show on the next read, as
        // they would a moment after a re-read.
        let count = post.kudosCount + (changed ? (on ? 1 : -1) : 0)
        return KudosState(postID: id, kudosCount: max(0, count), kudosedByMe: on)
    }

    /// Who gave a post kudos, for someone who may see the post (else 404, as for the post): people hidden from
    /// the viewer (blocked either way, suspended) are left out. Paged by account id.
    public func kudosGivers(
        of id: PostID, viewer: AccountRecord?, page: PageRequest
    ) async throws -> Page<AuthorSummary> {
        _ = try await get(id, viewer: viewer)
        let givers = try await storage.posts.kudosGivers(
            of: id, viewer: viewer?.id, after: page.cursor.map(UserID.init), limit: page.limit + 1)
        return page.page(givers.map(\.summary)) { $0.id.rawValue }
    }

    // MARK: Comments

    public func comments(on id: PostID, viewer: AccountRecord?, page: PageRequest) async throws -> Page<Comment> {
        _ = try await get(id, viewer: viewer)
        let comments = try await storage.posts.comments(
            on: id, viewer: viewer?.id, after: page.cursor.map(CommentID.init), limit: page.limit + 1)
        return page.page(comments) { $0.id.rawValue }
    }

    /// Comments on a post, or replies to a comment. Replies are one level deep: a reply to a reply joins
    /// the thread of the comment it answers.
    public func comment(on id: PostID, _ request: CreateCommentRequest, viewer: AccountRecord) async throws -> Comment {
        let post = try await get(id, viewer: viewer)
        // On a post of an encrypted group a comment is sealed too; anywhere else it is plain.
        let sealed = try await isSealed(post)
        if sealed {
            guard let content = request.sealed, request.text.isEmpty, let group = post.group else {
                throw SpotterError.invalid(
                    "sealed", "is required, and text empty: comments here are sealed on the device")
            }
            try await Self.check(content, in: group.id, storage: storage, blobsAllowed: false)
        } else if request.sealed != nil {
            throw SpotterError.invalid("sealed", "is only for a post of an encrypted group")
        }
        let text = sealed ? "" : try Self.commentText(request.text)
        var parentID: CommentID?
        if let requested = request.parentID {
            guard let parent = try await storage.posts.comment(requested), parent.postID == id,
                parent.deletedAt == nil, try await canSeePerson(parent.authorID, viewer: viewer)
            else { throw SpotterError.invalid("parent_id", "is not a comment on this post") }
            parentID = parent.parentID ?? parent.id
        }
        let commentID =
            sealed
            ? CommentID(rawValue: try Self.sealedID(request.id?.rawValue, now: clock.now)!) : .generate(at: clock.now)
        if sealed, try await storage.posts.comment(commentID) != nil {
            throw SpotterError.conflict(field: "id", detail: "A comment with this id exists; seal under a new one.")
        }
        var record = CommentRecord(
            id: commentID, postID: id, parentID: parentID, authorID: viewer.id, text: text, createdAt: clock.now)
        record.sealed = sealed ? request.sealed : nil
        try await storage.posts.insertComment(record)
        await events?.publish(.commentsChanged(id))
        await notifier?.notify(.commented(record))
        return Comment(
            id: record.id, postID: id, parentID: parentID, author: viewer.summary, text: text,
            createdAt: record.createdAt, sealed: record.sealed)
    }

    /// Changes the text of the caller's own comment, by the rules a new comment's text follows. A comment on a
    /// post the caller can no longer see, or by someone hidden from them, is not there for them (404); anyone
    /// else's is 403. Open post pages hear `commentsChanged` and fetch the list again, as for a new comment.
    public func editComment(
        _ commentID: CommentID, on postID: PostID, _ request: UpdateCommentRequest, viewer: AccountRecord
    ) async throws -> Comment {
        var record = try await ownComment(commentID, on: postID, viewer: viewer)
        if try await isSealed(try await get(postID, viewer: viewer)) {
            throw SpotterError.invalid(
                "text", "A comment in an encrypted group is not edited; delete it and write another.")
        }
        record.text = try Self.commentText(request.text)
        let now = clock.now
        record.editedAt = now
        try await storage.posts.editComment(commentID, text: record.text, at: now)
        await events?.publish(.commentsChanged(postID))
        return Comment(
            id: record.id, postID: postID, parentID: record.parentID, author: viewer.summary, text: record.text,
            createdAt: record.createdAt, editedAt: record.editedAt)
    }

    /// The caller's own comment, for editing: 404 when the post or the comment is not there for them, 403 when
    /// it is someone else's.
    public func ownComment(
        _ commentID: CommentID, on postID: PostID, viewer: AccountRecord
    ) async throws
        -> CommentRecord
    {
        _ = try await get(postID, viewer: viewer)
        guard let record = try await storage.posts.comment(commentID), record.postID == postID,
            record.deletedAt == nil, try await canSeePerson(record.authorID, viewer: viewer)
        else { throw SpotterError.notFound("No such comment.") }
        guard record.authorID == viewer.id else {
            throw SpotterError.forbidden("Only the comment's author can edit it.")
        }
        return record
    }

    /// A comment's text as stored: checked as lines, 1 to `PostRules.commentMaxLength` characters, trimmed.
    private static func commentText(_ text: String) throws -> String {
        let checked = try TextInput.checked(text, field: "text", as: .lines)
        guard TextLength.isName(checked, maxLength: PostRules.commentMaxLength) else {
            throw SpotterError.invalid("text", "must be 1 to \(PostRules.commentMaxLength) characters")
        }
        return checked.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Deletes a comment: its author, the post's author, or an admin may.
    public func deleteComment(_ commentID: CommentID, on postID: PostID, viewer: AccountRecord) async throws {
        let post = try await get(postID, viewer: viewer)
        guard let comment = try await storage.posts.comment(commentID), comment.postID == postID,
            comment.deletedAt == nil
        else { throw SpotterError.notFound("No such comment.") }
        guard
            PostRules.mayDeleteComment(
                by: viewer.id, role: viewer.role, commentAuthor: comment.authorID, postAuthor: post.author.id)
        else {
            throw SpotterError.forbidden("Only the comment's author or the post's author can delete it.")
        }
        if try await isSealed(post) {
            try await storage.write {
                try await storage.posts.tombstoneComment(commentID, at: clock.now)
                try await storage.e2e.eraseSealed(comment: commentID)  // a tombstone keeps no ciphertext
            }
        } else {
            try await storage.posts.tombstoneComment(commentID, at: clock.now)
        }
        await events?.publish(.commentsChanged(postID))
    }

    // MARK: Helpers

    func view(_ id: PostID, viewer: AccountRecord) async throws -> Post {
        guard let post = try await storage.posts.post(id, viewer: viewer.id) else {
            throw SpotterError.notFound("No such post.")
        }
        return try await linked(post)
    }

    /// The post with its photos' URLs for the viewer it goes to.
    private func linked(_ post: Post) async throws -> Post {
        guard let media, !post.media.isEmpty else { return post }
        return try await media.links.linked(post, now: clock.now)
    }

    private func attachments(_ ids: [MediaID], author: UserID, post: PostID?) async throws -> [MediaAttachment] {
        guard !ids.isEmpty else { return [] }
        guard let media else { throw SpotterError.invalid("media_ids", "photos are not enabled on this server") }
        return try await media.attachments(ids, author: author, post: post)
    }

    private func ownPost(_ id: PostID, viewer: AccountRecord) async throws -> PostRecord {
        guard let record = try await storage.posts.record(id), record.deletedAt == nil else {
            throw SpotterError.notFound("No such post.")
        }
        guard PostRules.mayEditPost(by: viewer.id, author: record.authorID) else {
            _ = try await get(id, viewer: viewer)
            throw SpotterError.forbidden("Only the author can edit this post.")
        }
        return record
    }

    /// Whether `person` shows to `viewer` at all, by the one rule (`PersonPolicy`).
    private func canSeePerson(_ person: UserID, viewer: AccountRecord) async throws -> Bool {
        try await social.isVisible(person, to: viewer)
    }

    func checkNewAccountLimit(_ author: AccountRecord, now: Date) async throws {
        // 0 turns the rule off; compared as an age it wouldn't, as a stored time may be rounded past `now`.
        guard configuration.newAccountAge > 0, now.timeIntervalSince(author.createdAt) < configuration.newAccountAge
        else { return }
        let limit = configuration.newAccountPostsPerHour
        // A post an hour old has left the window, so at `retryAt` the next one goes through; to the millisecond,
        // as a database may keep a time a microsecond off.
        let windowStart = now.addingTimeInterval(-3600)
        let recent = try await storage.posts.postTimes(by: author.id, since: windowStart)
            .filter { $0.timeIntervalSince(windowStart) > 0.001 }
        guard recent.count >= limit else { return }
        // A place frees when enough of the hour's posts leave the window to bring the count under the limit.
        let freed = recent.isEmpty ? now : recent[recent.count - max(limit, 1)]
        let retryAt = max(freed.addingTimeInterval(3600), now)
        // To the millisecond first: a database may keep times a few microseconds off, not a whole second.
        let seconds = max(Int(((retryAt.timeIntervalSince(now) * 1000).rounded() / 1000).rounded(.up)), 1)
        throw SpotterError.rateLimited(
            retryAfter: seconds,
            detail: Self.newAccountLimitDetail(
                limit: limit, retryAt: retryAt, inSeconds: seconds, timeZone: author.profile.timeZone),
            retryAt: retryAt)
    }

    /// "New accounts can post 5 times an hour; you can post again at 17:42 (in 23 minutes).", the time in the
    /// author's time zone.
    static func newAccountLimitDetail(limit: Int, retryAt: Date, inSeconds seconds: Int, timeZone: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? .gmt
        // Shown rounded up to the minute: a post at the minute shown is never refused.
        let shown = Date(timeIntervalSince1970: (retryAt.timeIntervalSince1970 / 60).rounded(.up) * 60)
        let parts = calendar.dateComponents([.hour, .minute], from: shown)
        let clock = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        let minutes = max((seconds + 59) / 60, 1)
        return "New accounts can post \(Plural.count(limit, "time")) an hour; you can post again at \(clock) "
            + "(in \(Plural.count(minutes, "minute")))."
    }

    private func makeRecord(
        id: PostID, author: AccountRecord, kind: PostKind, text: String, visibility: Visibility,
        workout: WorkoutRecord?, records: [PersonalRecord], createdAt: Date, excludingSelf: Bool = false
    ) async throws -> PostRecord {
        let tagged = [text, workout?.notes ?? "", workout?.title ?? ""].joined(separator: "\n")
        let hashtags = TextEntities.hashtags(in: tagged)
        let hash = Self.textHash(text)
        var duplicate = false
        if !excludingSelf, !text.isEmpty {
            duplicate = try await storage.posts.hasPost(
                by: author.id, textHash: hash, since: createdAt.addingTimeInterval(-configuration.duplicateWindow))
        }
        let fitness = kind == .workout || !configuration.fitnessTags.isDisjoint(with: hashtags)
        return PostRecord(
            id: id, authorID: author.id, kind: kind, text: text, visibility: visibility, workout: workout,
            records: records, hashtags: hashtags, mentions: TextEntities.mentions(in: text), textHash: hash,
            inGlobal: fitness && !duplicate, performedAt: workout?.startTime ?? createdAt, createdAt: createdAt)
    }

    /// Normalised (trimmed, lowercased, spaces collapsed) so trivial variations count as the same text.
    public static func textHash(_ text: String) -> String {
        let normalised = text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return Hex.encode(SHA256.hash(data: Data(normalised.utf8)))
    }
}
