import Foundation
import SpotterE2E
import SpotterModels

/// A photo to post in an encrypted group.
public struct EncryptedPhoto: Sendable {
    public var data: Data
    /// A smaller copy to show in a feed; `nil` sends the photo itself as its thumbnail (see `post`).
    public var thumbnail: Data?
    public var width: Int?
    public var height: Int?

    public init(data: Data, thumbnail: Data? = nil, width: Int? = nil, height: Int? = nil) {
        self.data = data
        self.thumbnail = thumbnail
        self.width = width
        self.height = height
    }
}

/// Sealed posts, comments and photos (docs/encryption.md, "Content keys and items" and "Blobs").
///
/// ```swift
/// let post = try await groups.post(text: "Mia's first length", photos: [EncryptedPhoto(data: jpeg)],
///                                  childIDs: [mia.id], to: family.id)
/// let body = try await groups.open(post)                      // SealedPostBody
/// let jpegAgain = try await groups.photo(body.media[0], in: family.id)
/// ```
extension EncryptedGroups {
    /// Seals and publishes a post: each photo and its thumbnail encrypted with its own content key and uploaded
    /// (create, send, complete), then the body sealed with the post's content key, wrapped by the current
    /// epoch's key. Children's ids go in the clear (`child_ids`), their names only inside.
    public func post(
        text: String, workout: WorkoutRecord? = nil, photos: [EncryptedPhoto] = [], childIDs: [ChildProfileID] = [],
        to groupID: GroupID
    ) async throws -> Post {
        let (epoch, epochKey) = try await currentEpoch(groupID)
        let children = try await childSummaries(childIDs)
        var media: [SealedPostBody.Media] = []
        for photo in photos {
            let (blob, key) = try await uploadBlob(photo.data, to: groupID)
            // No image library in SpotterKit on every platform: a photo given without a thumbnail is its own
            // thumbnail (the full bytes, encrypted again under their own key). Apps pass a downscaled copy.
            let (thumbnail, thumbnailKey) = try await uploadBlob(photo.thumbnail ?? photo.data, to: groupID)
            media.append(
                SealedPostBody.Media(
                    blobID: blob, key: Base64URL.encode(key.rawValue), thumbnailBlobID: thumbnail,
                    thumbnailKey: Base64URL.encode(thumbnailKey.rawValue), width: photo.width, height: photo.height))
        }
        let body = SealedPostBody(text: text, workout: workout, children: children, media: media)
        let request = try sealedRequest(body, childIDs: childIDs, to: groupID, epoch: epoch, epochKey: epochKey)
        let post = try await client.createPost(request)
        openedPosts[post.id] = body
        postGroups[post.id] = groupID
        return post
    }

    /// Seals a post (text, a workout, children named; no photos, whose upload needs the network) and queues it
    /// in the outbox like a plain one: only the sealed request is stored, never its words. It is sealed under
    /// the group's current epoch, or, without a network, under the last one this device used in this launch;
    /// if the group rotated meanwhile the server refuses it, and it shows as not sent with the reason. Feeds
    /// show it while it is sent (`FeedViewModel.sending`); `open(_:)` reads a sending one.
    @discardableResult
    public func queuePost(
        text: String, workout: WorkoutRecord? = nil, childIDs: [ChildProfileID] = [], to groupID: GroupID,
        outbox: ActionQueue
    ) async throws -> QueuedAction {
        let epoch: (Int, EpochKey)
        do {
            epoch = try await currentEpoch(groupID)
        } catch let error as SpotterClientError where error.isTransient {
            guard let last = lastEpochs[groupID], let key = epochKeyCache[groupID]?[last] else { throw error }
            epoch = (last, key)
        }
        let body = SealedPostBody(text: text, workout: workout, children: try await childSummaries(childIDs))
        let request = try sealedRequest(body, childIDs: childIDs, to: groupID, epoch: epoch.0, epochKey: epoch.1)
        let queued = try await outbox.enqueue(.createPost(request))
        if let id = request.id {
            openedPosts[id] = body
            postGroups[id] = groupID
        }
        return queued
    }

    /// A post on its way to an encrypted group, opened from its sealed request.
    public func open(_ sending: SendingPost) async throws -> SealedPostBody {
        guard let sealed = sending.request.sealed, let id = sending.request.id, let groupID = sending.request.groupID
        else { throw EncryptedGroupsError.cannotOpen("a post on its way: not sealed in a group") }
        if let body = openedPosts[id] { return body }
        let json = try await openSealed(sealed, groupID: groupID, itemID: id.rawValue, what: "post \(id)")
        guard let body = try? Self.bodyDecoder.decode(SealedPostBody.self, from: json) else {
            throw EncryptedGroupsError.cannotOpen("post \(id): its body is not a version 1 post body")
        }
        openedPosts[id] = body
        return body
    }

    /// The body sealed as a post to the group, its id made here (so a retry is the same post).
    private func sealedRequest(
        _ body: SealedPostBody, childIDs: [ChildProfileID], to groupID: GroupID, epoch: Int, epochKey: EpochKey
    ) throws -> CreatePostRequest {
        let postID = PostID.generate()
        let sealed = try Self.seal(
            try Self.bodyEncoder.encode(body), groupID: groupID, itemID: postID.rawValue, epoch: epoch,
            epochKey: epochKey, blobIDs: body.media.flatMap { [$0.blobID] + ($0.thumbnailBlobID.map { [$0] } ?? []) })
        return CreatePostRequest(
            kind: .note, groupID: groupID, childIDs: childIDs.isEmpty ? nil : childIDs, sealed: sealed, id: postID)
    }

    /// The children named, with their names (sealed inside the body): from the server, or offline from the
    /// Parent Zone's kept list.
    private func childSummaries(_ ids: [ChildProfileID]) async throws -> [ChildSummary] {
        guard !ids.isEmpty else { return [] }
        let children: [ChildProfile]
        do {
            children = try await client.children()
        } catch let error as SpotterClientError where error.isTransient {
            guard let kept = try? await database?.children(.mine), !kept.isEmpty else { throw error }
            children = kept
        }
        let names = Dictionary(uniqueKeysWithValues: children.map { ($0.id, $0.name) })
        return ids.map { ChildSummary(id: $0, name: names[$0] ?? "") }
    }

    /// A sealed post's body, opened with the key of the epoch it was sealed in.
    public func open(_ post: Post) async throws -> SealedPostBody {
        if let body = openedPosts[post.id] { return body }
        guard let sealed = post.sealed, let groupID = post.group?.id else {
            throw EncryptedGroupsError.cannotOpen("post \(post.id): not sealed in a group")
        }
        postGroups[post.id] = groupID
        let json = try await openSealed(sealed, groupID: groupID, itemID: post.id.rawValue, what: "post \(post.id)")
        do {
            let body = try Self.bodyDecoder.decode(SealedPostBody.self, from: json)
            openedPosts[post.id] = body
            return body
        } catch {
            throw EncryptedGroupsError.cannotOpen("post \(post.id): its body is not a version 1 post body")
        }
    }

    /// A photo's bytes: downloaded, then opened chunk by chunk with the streaming decryptor, refused whole if
    /// any chunk fails.
    public func photo(blobID: UUID, key: String, in groupID: GroupID) async throws -> Data {
        guard let raw = Base64URL.strict(key), let contentKey = try? ContentKey(rawValue: raw) else {
            throw EncryptedGroupsError.malformed("a photo's key")
        }
        let blob = try await client.sealedBlob(blobID, in: groupID)
        // The transport hands over the whole body; it is fed to the decryptor in download-sized pieces, as a
        // streaming transport would, so memory holds at most one chunk beyond the output.
        var decryptor = BlobStreamDecryptor(contentKey: contentKey)
        var output = Data()
        var start = blob.startIndex
        do {
            while start < blob.endIndex {
                let end = min(start + 16_384, blob.endIndex)
                output += try decryptor.append(blob[start..<end])
                start = end
            }
            output += try decryptor.finish()
        } catch {
            throw EncryptedGroupsError.cannotOpen("photo \(UUIDText.format(blobID)): \(error)")
        }
        return output
    }

    /// A post's photo (`thumbnail: true` for its thumbnail).
    public func photo(_ media: SealedPostBody.Media, thumbnail: Bool = false, in groupID: GroupID) async throws -> Data
    {
        guard thumbnail else { return try await photo(blobID: media.blobID, key: media.key, in: groupID) }
        guard let blob = media.thumbnailBlobID, let key = media.thumbnailKey else {
            return try await photo(blobID: media.blobID, key: media.key, in: groupID)
        }
        return try await photo(blobID: blob, key: key, in: groupID)
    }

    /// Seals and adds a comment: `{"v":1,"text":…}` under its own content key, sealed like a post body with
    /// the comment's id as the item.
    public func comment(text: String, on post: Post) async throws -> Comment {
        guard let groupID = post.group?.id else { throw EncryptedGroupsError.cannotOpen("post \(post.id): no group") }
        let (epoch, epochKey) = try await currentEpoch(groupID)
        let commentID = CommentID.generate()
        let body = SealedCommentBody(text: text)
        let sealed = try Self.seal(
            try Self.bodyEncoder.encode(body), groupID: groupID, itemID: commentID.rawValue, epoch: epoch,
            epochKey: epochKey)
        let comment = try await client.addComment(
            CreateCommentRequest(text: "", sealed: sealed, id: commentID), on: post.id)
        openedComments[comment.id] = (post.id, body)
        postGroups[post.id] = groupID
        return comment
    }

    /// A sealed comment's text.
    public func open(_ comment: Comment) async throws -> SealedCommentBody {
        if let opened = openedComments[comment.id] { return opened.body }
        guard let sealed = comment.sealed else { throw EncryptedGroupsError.cannotOpen("comment \(comment.id)") }
        let groupID: GroupID
        if let known = postGroups[comment.postID] {
            groupID = known
        } else if let group = try await client.post(comment.postID).group?.id {
            groupID = group
        } else {
            throw EncryptedGroupsError.cannotOpen("comment \(comment.id): its post is in no group")
        }
        postGroups[comment.postID] = groupID
        let json = try await openSealed(
            sealed, groupID: groupID, itemID: comment.id.rawValue, what: "comment \(comment.id)")
        guard let body = try? Self.bodyDecoder.decode(SealedCommentBody.self, from: json) else {
            throw EncryptedGroupsError.cannotOpen("comment \(comment.id): not a version 1 comment body")
        }
        openedComments[comment.id] = (comment.postID, body)
        return body
    }

    /// Deletes a sealed post of mine with a signed tombstone (`{v:1, kind:"delete", group, item, at}`, signed
    /// like a statement), and forgets its plaintext here.
    public func delete(_ post: Post) async throws {
        guard let groupID = post.group?.id else { throw EncryptedGroupsError.cannotOpen("post \(post.id): no group") }
        let identity = try await liveIdentity().identity
        let statement = try Tombstone(group: groupID.rawValue, item: post.id.rawValue, at: at).signed(
            by: identity.signer)
        try await client.tombstone(post.id, statement.wire)
        if let media = openedPosts[post.id]?.media {
            try? await database?.forgetMedia(media.flatMap { [$0.blobID] + ($0.thumbnailBlobID.map { [$0] } ?? []) })
        }
        openedPosts[post.id] = nil
        openedComments = openedComments.filter { $0.value.post != post.id }
    }

    /// Whether this device still holds the plaintext of a post (for tests and for a screen's cache).
    public func holdsPlaintext(of post: PostID) -> Bool { openedPosts[post] != nil }

    // MARK: Sealing

    /// The group's current epoch and its key, after verifying the group's chain names me a member.
    ///
    /// While a rotation is due (someone left, or a device was revoked) the current key is held by a device
    /// that should no longer read: an admin's device makes the next epoch first (`reconcile`); anyone else's
    /// refuses with `rotationDue` until an admin's device has.
    private func currentEpoch(_ groupID: GroupID) async throws -> (Int, EpochKey) {
        let identity = try await identity()
        var state = try await client.e2eState(of: groupID)
        if state.rotationDue {
            try await reconcile(groupID)
            state = try await client.e2eState(of: groupID)
            guard !state.rotationDue else { throw EncryptedGroupsError.rotationDue(groupID) }
        }
        let read = try await readGroup(groupID)
        guard read.group.role(of: identity.userID.rawValue) != nil else {
            throw EncryptedGroupsError.notAMember(identity.userID)
        }
        guard let epoch = state.epoch else { throw EncryptedGroupsError.notEncrypted(groupID) }
        let key = try await epochKey(groupID, epoch: epoch)
        lastEpochs[groupID] = epoch
        return (epoch, key)
    }

    private func uploadBlob(_ plaintext: Data, to groupID: GroupID) async throws -> (UUID, ContentKey) {
        let key = ContentKey()
        let sealed = try BlobCipher.seal(plaintext, with: key)
        let upload = try await client.createSealedBlob(in: groupID, byteSize: sealed.count)
        try await client.sendSealedBlob(sealed, to: upload)
        try await client.completeSealedBlob(upload.id, in: groupID)
        return (upload.id, key)
    }

    static func seal(
        _ json: Data, groupID: GroupID, itemID: UUID, epoch: Int, epochKey: EpochKey, blobIDs: [UUID] = []
    ) throws -> SealedContent {
        let contentKey = ContentKey()
        let wrapped = try ContentKeyWrap.seal(
            contentKey, with: epochKey, groupID: groupID.rawValue, epoch: UInt32(epoch), itemID: itemID)
        let body = try PostBodyCipher.seal(json, with: contentKey, groupID: groupID.rawValue, postID: itemID)
        return SealedContent(
            epoch: epoch, key: Base64URL.encode(wrapped), body: Base64URL.encode(body), blobIDs: blobIDs)
    }

    private func openSealed(_ sealed: SealedContent, groupID: GroupID, itemID: UUID, what: String) async throws -> Data
    {
        guard sealed.epoch >= 0, let wrapped = Base64URL.strict(sealed.key), let body = Base64URL.strict(sealed.body)
        else { throw EncryptedGroupsError.malformed("\(what)'s sealed content") }
        let epochKey = try await epochKey(groupID, epoch: sealed.epoch)
        do {
            let contentKey = try ContentKeyWrap.open(
                wrapped, with: epochKey, groupID: groupID.rawValue, epoch: UInt32(sealed.epoch), itemID: itemID)
            return try PostBodyCipher.open(body, with: contentKey, groupID: groupID.rawValue, postID: itemID)
        } catch {
            throw EncryptedGroupsError.cannotOpen(what)
        }
    }

    static let bodyEncoder = WireJSON.encoder()
    static let bodyDecoder = WireJSON.decoder()
}
