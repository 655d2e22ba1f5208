import Foundation
import SpotterModels

/// Posts and comments of encrypted groups: their content arrives sealed on the author's device
/// (docs/encryption.md). The server checks what it can see (the epoch is the current one, the sizes are a
/// wrapped key's and a body's, the photos are the author's finished uploads in this group) and keeps the rest
/// as sent; everything else about the post (kudos, counts, feeds, notifications, the socket) is a group post's.
extension PostService {
    func createSealed(
        _ request: CreatePostRequest, _ sealed: SealedContent, author: AccountRecord
    ) async throws -> Post {
        guard (request.text ?? "").isEmpty, request.workout == nil, (request.mediaIDs ?? []).isEmpty else {
            throw SpotterError.invalid(
                "sealed", "carries the whole post: text, workout and photos go inside it, not beside it")
        }
        guard let groupID = request.groupID else {
            throw SpotterError.invalid("group_id", "is required: sealed content goes only to an encrypted group")
        }
        if let visibility = request.visibility, visibility != .group {
            throw SpotterError.invalid("visibility", "must be group (or left out) for a post to a group")
        }
        let group = try await groups.postable(groupID, author: author)
        guard group.encrypted else {
            throw SpotterError.invalid("sealed", "is only for an encrypted group; this group's posts are plain")
        }
        try await Self.check(sealed, in: group.id, storage: storage, blobsAllowed: true)
        let children = try await self.children.namedChildren(
            request.childIDs ?? [], author: author, audience: .group(group.access))
        let now = clock.now
        try await checkNewAccountLimit(author, now: now)
        let id = try Self.sealedID(request.id?.rawValue, now: now).map(PostID.init)!
        var record = PostRecord(
            id: id, authorID: author.id, kind: .note, text: "", visibility: .group, workout: nil, records: [],
            hashtags: [], mentions: [], textHash: Self.textHash(id.description), inGlobal: false, performedAt: now,
            createdAt: now, groupID: group.id)
        record.childIDs = children
        record.sealed = sealed
        guard try await storage.posts.record(id) == nil else {
            throw SpotterError.conflict(field: "id", detail: "A post with this id exists; seal under a new one.")
        }
        try await storage.write { [record] in
            try await storage.posts.insert(record)
            if !children.isEmpty { try await storage.children.name(children, in: id) }
            let attached = try await storage.e2e.attachBlobs(sealed.blobIDs, to: id, owner: author.id, group: group.id)
            guard attached == Set(sealed.blobIDs).count else {
                throw SpotterError.invalid(
                    "sealed.blob_ids", "must be your own finished uploads to this group, not yet in a post")
            }
        }
        await events?.publish(.postCreated(id, author: author.id))
        await notifier?.notify(.groupPosted(record, group: group))
        return try await view(id, viewer: author)
    }

    /// The id sealed content was made under: the device chose it, since its keys are bound to it. It must be a
    /// UUIDv7 of now (within the statements' clock window), so feeds, which order by id, keep time order.
    static func sealedID(_ id: UUID?, now: Date) throws -> UUID? {
        guard let id else {
            throw SpotterError.invalid("id", "is required with sealed: the id the content was sealed under")
        }
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        let milliseconds = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let made = Double(milliseconds) / 1000
        guard bytes[6] >> 4 == 7, abs(made - now.timeIntervalSince1970) <= Double(E2EWire.clockWindow) else {
            throw SpotterError.invalid("id", "must be a UUIDv7 made now")
        }
        return id
    }

    /// Whether `post` belongs to an encrypted group, whose content is sealed.
    func isSealed(_ post: Post) async throws -> Bool {
        guard let group = post.group else { return false }
        return try await storage.groups.find(group.id)?.encrypted == true
    }

    /// What the server can check of sealed content: the group's current epoch (content sealed for an older one
    /// could be read by someone removed since), a wrapped content key's size, a body's bounds, and photos.
    static func check(
        _ sealed: SealedContent, in group: GroupID, storage: any SpotterStorage, blobsAllowed: Bool
    ) async throws {
        guard let current = try await storage.e2e.keyState(of: group)?.epoch else {
            throw SpotterError.conflict(field: "sealed.epoch", detail: "The group has no keys yet.")
        }
        guard sealed.epoch == current else {
            throw SpotterError.conflict(
                field: "sealed.epoch", detail: "The group is at epoch \(current); seal with its current key.")
        }
        try E2EWire.check(sealed.key, size: E2EWire.wrappedContentKeySize, field: "sealed.key")
        guard let body = E2EWire.bytes(sealed.body), (28...E2EWire.maxSealedBody).contains(body.count) else {
            throw SpotterError.invalid("sealed.body", "must be a sealed body, base64url, at most 64 KiB")
        }
        guard blobsAllowed || sealed.blobIDs.isEmpty else {
            throw SpotterError.invalid("sealed.blob_ids", "must be empty: a comment carries no photos")
        }
        guard sealed.blobIDs.count <= E2EWire.maxBlobsPerPost else {
            throw SpotterError.invalid("sealed.blob_ids", "may hold at most \(E2EWire.maxBlobsPerPost) photos")
        }
    }
}
