import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterE2E
import SpotterModels
import SpotterTestSupport
import Testing

/// The server's half of encrypted groups: it keeps chains, wrapped keys and ciphertext, checks what devices
/// send as a client would, and never holds a key that opens anything. Each device here is a real one: its keys
/// made by SpotterE2E, its statements signed.
@Suite("Encrypted groups over HTTP")
struct E2EGroupAPITests {
    @Test(
        "device chains: a device signs itself in, the chain grows only by its live devices, and strangers read it",
        arguments: StorageBackend.available)
    func deviceChains(database: StorageBackend) async throws {
        try await TestApp.run(database) { api in
            let ana = try await api.e2ePerson("ana")
            let chain = try await api.chain("/api/v1/me/device-chain", token: ana.token)
            #expect(try DeviceChain.verify(chain, userID: ana.id.rawValue).liveDevices.map(\.id) == [ana.deviceID])

            // A second device, signed by the first
            let laptop = DeviceKeys()
            let laptopID = UUID()
            let added = try ana.signer.sign(
                .addDevice(laptop.registration(id: laptopID, name: "laptop")), on: .device(user: ana.id.rawValue),
                after: chain[0], at: api.now)
            let head = try await api.call(
                .post, "/api/v1/me/device-chain", token: ana.token, body: E2EStatementRequest(statement: added.wire))
            #expect(head.status == .created)
            #expect(try head.decode(E2EChainHead.self) == E2EChainHead(length: 2, head: added.hash))

            // The same place again is a conflict; a device signing its own addition, a forged signature, a stale
            // time and someone else's chain are refused, naming the statement
            let again = try await api.call(
                .post, "/api/v1/me/device-chain", token: ana.token, body: E2EStatementRequest(statement: added.wire))
            #expect(again.status == .conflict)
            let grown = try await api.chain("/api/v1/me/device-chain", token: ana.token)
            let tablet = DeviceKeys()
            let selfSigned = try StatementSigner(deviceID: UUID(), key: tablet.signing).sign(
                .addDevice(tablet.registration(id: UUID(), name: "tablet")), on: .device(user: ana.id.rawValue),
                after: grown[1], at: api.now)
            let stale = try ana.signer.sign(
                .addDevice(tablet.registration(id: UUID(), name: "tablet")), on: .device(user: ana.id.rawValue),
                after: grown[1], at: api.now - 3600)
            let ben = try await api.e2ePerson("ben")
            let foreign = try ana.signer.sign(
                .addDevice(tablet.registration(id: UUID(), name: "tablet")), on: .device(user: ben.id.rawValue),
                after: nil, at: api.now)
            for statement in [selfSigned, stale, foreign] {
                let refused = try await api.call(
                    .post, "/api/v1/me/device-chain", token: ana.token,
                    body: E2EStatementRequest(statement: statement.wire))
                #expect(refused.status == .unprocessableContent)
                #expect(try refused.problem().errors?.map(\.field) == ["statement"])
            }
            #expect(try await api.chain("/api/v1/me/device-chain", token: ana.token).count == 2)

            // Anyone signed in reads a chain; not across a block, and not signed out
            #expect(try await api.chain("/api/v1/device-chains/\(ana.id)", token: ben.token).count == 2)
            _ = try await api.call(.post, "/api/v1/users/ana/block", token: ben.token)
            #expect(try await api.call(.get, "/api/v1/device-chains/\(ana.id)", token: ben.token).status == .notFound)
            #expect(try await api.call(.get, "/api/v1/device-chains/\(ana.id)").status == .unauthorized)
        }
    }

    @Test(
        "a family group: made with its first key, a member let in and added, a sealed post with a photo read by members only",
        arguments: StorageBackend.available, BlobBackend.available)
    func family(database: StorageBackend, blobs: BlobBackend) async throws {
        try await TestApp.run(database, configure: blobs.configure) { api in
            let ana = try await api.e2ePerson("ana")
            let ben = try await api.e2ePerson("ben")
            let cyd = try await api.e2ePerson("cyd")
            // An encrypted group must be private
            let open = try await api.call(
                .post, "/api/v1/groups", token: ana.token,
                body: CreateGroupRequest(name: "Open", access: .open, encrypted: true))
            #expect(open.status == .unprocessableContent)
            let (group, epoch0, create) = try await api.encryptedGroup("The Kellers", owner: ana)
            #expect(group.encrypted)
            var state = try await api.groupState(group.id, token: ana.token)
            #expect(state.epoch == 0 && state.chain.length == 1 && !state.rotationDue && state.awaitingKeys.isEmpty)

            // Adding someone the group has not let in is refused (the server's membership decides); Ben joins
            // by invitation and awaits his keys
            let early = try ana.signer.sign(
                .add(user: ben.id.rawValue, role: .member), on: .group(group.id.rawValue), after: create, at: api.now)
            let refused = try await api.call(
                .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ana.token,
                body: E2EGroupChangeRequest(statements: [early.wire]))
            #expect(refused.status == .forbidden)
            try await api.addMember(ben.token, username: "ben", to: group, admin: ana.token)
            state = try await api.groupState(group.id, token: ana.token)
            #expect(state.awaitingKeys == [ben.id])

            // Ben cannot add himself (only an admin's device may); Ana's device adds him and wraps him epoch 0
            let byBen = try ben.signer.sign(
                .add(user: ben.id.rawValue, role: .member), on: .group(group.id.rawValue), after: create, at: api.now)
            let forged = try await api.call(
                .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ben.token,
                body: E2EGroupChangeRequest(statements: [byBen.wire]))
            #expect(forged.status == .unprocessableContent)
            let add = try ana.signer.sign(
                .add(user: ben.id.rawValue, role: .member), on: .group(group.id.rawValue), after: create, at: api.now)
            #expect(
                try await api.call(
                    .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ana.token,
                    body: E2EGroupChangeRequest(statements: [add.wire])
                ).status == .ok)
            // A key for a device that is no member's is refused; Ben's is kept
            let ghost = try await api.call(
                .post, "/api/v1/groups/\(group.id)/e2e/keys", token: ana.token,
                body: E2EEpochKeys(keys: [
                    E2EEpochKey(deviceID: cyd.deviceID, epoch: 0, key: try cyd.wrap(epoch0, group, epoch: 0).key)
                ]))
            #expect(ghost.status == .unprocessableContent)
            let forBen = try ben.wrap(epoch0, group, epoch: 0)
            #expect(
                try await api.call(
                    .post, "/api/v1/groups/\(group.id)/e2e/keys", token: ana.token,
                    body: E2EEpochKeys(keys: [E2EEpochKey(deviceID: ben.deviceID, epoch: 0, key: forBen.key)])
                ).status == .noContent)
            state = try await api.groupState(group.id, token: ana.token)
            #expect(state.awaitingKeys.isEmpty && state.chain.length == 2)

            // Ben fetches his key and it opens; the chain verifies on his side to Ana (owner) and him (member)
            let benKeys = try await api.call(
                .get, "/api/v1/groups/\(group.id)/e2e/keys?device_id=\(UUIDText.format(ben.deviceID))", token: ben.token
            ).decode(E2EEpochKeys.self)
            let benEpoch0 = try ben.open(try #require(benKeys.keys.first).key, group, epoch: 0)
            #expect(benEpoch0.rawValue == epoch0.rawValue)
            let chains = [
                try DeviceChain.verify(
                    try await api.chain("/api/v1/device-chains/\(ana.id)", token: ben.token), userID: ana.id.rawValue),
                try DeviceChain.verify(
                    try await api.chain("/api/v1/me/device-chain", token: ben.token), userID: ben.id.rawValue),
            ]
            let verified = try GroupChain.verify(
                try await api.chain("/api/v1/groups/\(group.id)/e2e/chain", token: ben.token),
                groupID: group.id.rawValue,
                deviceChains: chains)
            #expect(verified.role(of: ben.id.rawValue) == .member && verified.owner == ana.id.rawValue)

            // Ben posts a photo and a caption, sealed; plain posts and posts without the id are refused here
            let plain = try await api.call(
                .post, "/api/v1/posts", token: ben.token,
                body: CreatePostRequest(kind: .note, text: "in the clear", groupID: group.id))
            #expect(plain.status == .unprocessableContent)
            let photo = try BlobCipher.seal(Data(repeating: 7, count: 100_000), with: ContentKey())
            let blob = try await api.sealedBlob(photo, in: group.id, token: ben.token)
            let postID = PostID.generate(at: api.clock.now)
            let (sealed, _) = try sealedContent(
                "Mila's first 5k", group: group, postID: postID.rawValue, epoch: 0, key: benEpoch0, blobs: [blob])
            let noID = try await api.call(
                .post, "/api/v1/posts", token: ben.token,
                body: CreatePostRequest(kind: .note, groupID: group.id, sealed: sealed))
            #expect(noID.status == .unprocessableContent)
            let posted = try await api.call(
                .post, "/api/v1/posts", token: ben.token,
                body: CreatePostRequest(kind: .note, groupID: group.id, sealed: sealed, id: postID))
            #expect(posted.status == .created)
            #expect(try posted.decode(Post.self).sealed == sealed && posted.decode(Post.self).text.isEmpty)

            // Ana reads it in the group's feed, opens it with her epoch key, and fetches the photo's ciphertext
            let feed = try await api.call(.get, "/api/v1/groups/\(group.id)/posts", token: ana.token)
                .decode(Page<Post>.self)
            let seen = try #require(feed.items.first { $0.id == postID }?.sealed)
            let contentKey = try ContentKeyWrap.open(
                try #require(Base64URL.decode(seen.key)), with: epoch0, groupID: group.id.rawValue, epoch: 0,
                itemID: postID.rawValue)
            let body = try PostBodyCipher.open(
                try #require(Base64URL.decode(seen.body)), with: contentKey, groupID: group.id.rawValue,
                postID: postID.rawValue)
            #expect(String(decoding: body, as: UTF8.self).contains("Mila's first 5k"))
            let fetched = try await api.call(
                .get, "/api/v1/groups/\(group.id)/e2e/blobs/\(UUIDText.format(blob))", token: ana.token)
            #expect(fetched.status == .ok && Data(buffer: fetched.body) == photo)
            #expect(fetched.headers[.cacheControl] == "private, no-store")

            // Cyd, a stranger, gets nothing of it: not the group, its chain, its post, nor the photo
            for path in [
                "/api/v1/groups/\(group.id)/e2e", "/api/v1/groups/\(group.id)/e2e/chain", "/api/v1/posts/\(postID)",
                "/api/v1/groups/\(group.id)/e2e/blobs/\(UUIDText.format(blob))",
            ] {
                #expect(try await api.call(.get, path, token: cyd.token).status == .notFound, "\(path)")
            }
        }
    }

    @Test(
        "removing a member makes the next epoch: their access ends at once, and their old keys open nothing new",
        arguments: StorageBackend.available)
    func removal(database: StorageBackend) async throws {
        try await TestApp.run(database, configure: BlobBackend.local.configure) { api in
            let ana = try await api.e2ePerson("ana")
            let ben = try await api.e2ePerson("ben")
            let (group, epoch0, create) = try await api.encryptedGroup("The Kellers", owner: ana)
            try await api.addMember(ben.token, username: "ben", to: group, admin: ana.token)
            let add = try ana.signer.sign(
                .add(user: ben.id.rawValue, role: .member), on: .group(group.id.rawValue), after: create, at: api.now)
            _ = try await api.call(
                .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ana.token,
                body: E2EGroupChangeRequest(statements: [add.wire]))
            _ = try await api.call(
                .post, "/api/v1/groups/\(group.id)/e2e/keys", token: ana.token,
                body: E2EEpochKeys(keys: [
                    E2EEpochKey(deviceID: ben.deviceID, epoch: 0, key: try ben.wrap(epoch0, group, epoch: 0).key)
                ]))

            // Ana removes Ben with the next epoch, wrapped to her device only; skipping an epoch is refused
            let remove = try ana.signer.sign(
                .remove(user: ben.id.rawValue), on: .group(group.id.rawValue), after: add, at: api.now)
            let epoch1 = EpochKey()
            let skipped = try await api.call(
                .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ana.token,
                body: E2EGroupChangeRequest(
                    statements: [remove.wire],
                    epoch: E2ENewEpoch(number: 2, keys: [try ana.wrap(epoch1, group, epoch: 2)])))
            #expect(skipped.status == .conflict)
            // A key for Ben in the epoch that removes him is refused
            let leaky = try await api.call(
                .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ana.token,
                body: E2EGroupChangeRequest(
                    statements: [remove.wire],
                    epoch: E2ENewEpoch(
                        number: 1, keys: [try ana.wrap(epoch1, group, epoch: 1), try ben.wrap(epoch1, group, epoch: 1)])
                ))
            #expect(leaky.status == .unprocessableContent)
            #expect(try await api.groupState(group.id, token: ana.token).chain.length == 2)
            let rotated = try await api.call(
                .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ana.token,
                body: E2EGroupChangeRequest(
                    statements: [remove.wire],
                    epoch: E2ENewEpoch(number: 1, keys: [try ana.wrap(epoch1, group, epoch: 1)])))
            #expect(rotated.status == .ok)
            #expect(try rotated.decode(E2EGroupState.self).epoch == 1)

            // Ben is out on the server at once: no state, keys, chain or posts
            for path in [
                "/api/v1/groups/\(group.id)/e2e", "/api/v1/groups/\(group.id)/posts",
                "/api/v1/groups/\(group.id)/e2e/keys?device_id=\(UUIDText.format(ben.deviceID))",
            ] {
                #expect(try await api.call(.get, path, token: ben.token).status == .notFound, "\(path)")
            }
            // A post sealed with the old epoch is refused; one sealed with the new one is kept
            let stalePost = PostID.generate(at: api.clock.now)
            let (old, _) = try sealedContent("old key", group: group, postID: stalePost.rawValue, epoch: 0, key: epoch0)
            let stale = try await api.call(
                .post, "/api/v1/posts", token: ana.token,
                body: CreatePostRequest(kind: .note, groupID: group.id, sealed: old, id: stalePost))
            #expect(stale.status == .conflict)
            let postID = PostID.generate(at: api.clock.now)
            let (new, _) = try sealedContent(
                "after Ben left", group: group, postID: postID.rawValue, epoch: 1, key: epoch1)
            #expect(
                try await api.call(
                    .post, "/api/v1/posts", token: ana.token,
                    body: CreatePostRequest(kind: .note, groupID: group.id, sealed: new, id: postID)
                ).status == .created)

            // Even holding every old key and the post itself (as if leaked), Ben's device opens nothing new: the
            // content key is wrapped by epoch 1, which was never wrapped to him
            #expect(throws: (any Error).self) {
                try ContentKeyWrap.open(
                    Base64URL.decode(new.key) ?? Data(), with: epoch0, groupID: group.id.rawValue, epoch: 1,
                    itemID: postID.rawValue)
            }
            #expect(throws: (any Error).self) {
                try ContentKeyWrap.open(
                    Base64URL.decode(new.key) ?? Data(), with: epoch0, groupID: group.id.rawValue, epoch: 0,
                    itemID: postID.rawValue)
            }
            // And the rotation is no longer due
            #expect(try await api.groupState(group.id, token: ana.token).rotationDue == false)
        }
    }

    @Test(
        "rotation falls due when a member leaves by the plain API or a member's device is revoked",
        arguments: StorageBackend.available)
    func rotationDue(database: StorageBackend) async throws {
        try await TestApp.run(database) { api in
            let ana = try await api.e2ePerson("ana")
            let ben = try await api.e2ePerson("ben")
            let (group, epoch0, create) = try await api.encryptedGroup("The Kellers", owner: ana)
            try await api.addMember(ben.token, username: "ben", to: group, admin: ana.token)
            let add = try ana.signer.sign(
                .add(user: ben.id.rawValue, role: .member), on: .group(group.id.rawValue), after: create, at: api.now)
            _ = try await api.call(
                .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ana.token,
                body: E2EGroupChangeRequest(statements: [add.wire]))
            _ = try await api.call(
                .post, "/api/v1/groups/\(group.id)/e2e/keys", token: ana.token,
                body: E2EEpochKeys(keys: [
                    E2EEpochKey(deviceID: ben.deviceID, epoch: 0, key: try ben.wrap(epoch0, group, epoch: 0).key)
                ]))
            #expect(try await api.groupState(group.id, token: ana.token).rotationDue == false)

            // Ana's second device, then revoked (a lost phone): rotation falls due
            let laptop = DeviceKeys()
            let laptopID = UUID()
            let chain = try await api.chain("/api/v1/me/device-chain", token: ana.token)
            let added = try ana.signer.sign(
                .addDevice(laptop.registration(id: laptopID, name: "laptop")), on: .device(user: ana.id.rawValue),
                after: chain[0], at: api.now)
            _ = try await api.call(
                .post, "/api/v1/me/device-chain", token: ana.token, body: E2EStatementRequest(statement: added.wire))
            _ = try await api.call(
                .post, "/api/v1/groups/\(group.id)/e2e/keys", token: ana.token,
                body: E2EEpochKeys(keys: [
                    E2EEpochKey(
                        deviceID: laptopID, epoch: 0,
                        key: Base64URL.encode(
                            try EpochKeyWrap.seal(
                                epoch0, to: laptop.hpke.publicKey, groupID: group.id.rawValue, epoch: 0)))
                ]))
            let revoke = try ana.signer.sign(
                .revokeDevice(laptopID), on: .device(user: ana.id.rawValue), after: added, at: api.now)
            #expect(
                try await api.call(
                    .post, "/api/v1/me/device-chain", token: ana.token,
                    body: E2EStatementRequest(statement: revoke.wire)
                ).status == .created)
            #expect(try await api.groupState(group.id, token: ana.token).rotationDue)
            // The revoked device gets no keys any more
            #expect(
                try await api.call(
                    .get, "/api/v1/groups/\(group.id)/e2e/keys?device_id=\(UUIDText.format(laptopID))", token: ana.token
                ).status == .notFound)

            // Rotated to Ana's phone and Ben; then Ben leaves by the plain API, and it falls due again
            let epoch1 = EpochKey()
            #expect(
                try await api.call(
                    .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ana.token,
                    body: E2EGroupChangeRequest(
                        statements: [],
                        epoch: E2ENewEpoch(
                            number: 1,
                            keys: [try ana.wrap(epoch1, group, epoch: 1), try ben.wrap(epoch1, group, epoch: 1)]))
                ).status == .ok)
            #expect(try await api.groupState(group.id, token: ana.token).rotationDue == false)
            #expect(
                try await api.call(.post, "/api/v1/groups/\(group.id)/leave", token: ben.token).status == .noContent)
            #expect(try await api.groupState(group.id, token: ana.token).rotationDue)
        }
    }

    @Test(
        "a post is deleted by its author's signed tombstone only, and its ciphertext is gone from the database",
        arguments: StorageBackend.available)
    func tombstone(database: StorageBackend) async throws {
        try await TestApp.run(database) { api in
            let ana = try await api.e2ePerson("ana")
            let ben = try await api.e2ePerson("ben")
            let (group, epoch0, create) = try await api.encryptedGroup("The Kellers", owner: ana)
            try await api.addMember(ben.token, username: "ben", to: group, admin: ana.token)
            let add = try ana.signer.sign(
                .add(user: ben.id.rawValue, role: .member), on: .group(group.id.rawValue), after: create, at: api.now)
            _ = try await api.call(
                .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ana.token,
                body: E2EGroupChangeRequest(statements: [add.wire]))
            let postID = PostID.generate(at: api.clock.now)
            let (sealed, _) = try sealedContent(
                "to be deleted", group: group, postID: postID.rawValue, epoch: 0, key: epoch0)
            _ = try await api.call(
                .post, "/api/v1/posts", token: ana.token,
                body: CreatePostRequest(kind: .note, groupID: group.id, sealed: sealed, id: postID))
            // A sealed comment by Ben, under its own id
            let commentID = CommentID.generate(at: api.clock.now)
            let (comment, _) = try sealedContent(
                "lovely", group: group, postID: commentID.rawValue, epoch: 0, key: epoch0)
            let commented = try await api.call(
                .post, "/api/v1/posts/\(postID)/comments", token: ben.token,
                body: CreateCommentRequest(text: "", sealed: comment, id: commentID))
            #expect(commented.status == .created)
            let comments = try await api.call(.get, "/api/v1/posts/\(postID)/comments", token: ana.token)
                .decode(Page<SpotterModels.Comment>.self)
            #expect(comments.items.map(\.sealed) == [comment])

            // A plain delete is refused for the author; a tombstone by Ben's device, or for another item, is refused
            #expect(
                try await api.call(.delete, "/api/v1/posts/\(postID)", token: ana.token).status == .unprocessableContent
            )
            let bens = try Tombstone(group: group.id.rawValue, item: postID.rawValue, at: api.now).signed(
                by: ben.signer)
            #expect(
                try await api.call(
                    .post, "/api/v1/posts/\(postID)/tombstone", token: ana.token,
                    body: E2EStatementRequest(statement: bens.wire)
                ).status == .unprocessableContent)
            let elsewhere = try Tombstone(group: group.id.rawValue, item: UUID(), at: api.now).signed(by: ana.signer)
            #expect(
                try await api.call(
                    .post, "/api/v1/posts/\(postID)/tombstone", token: ana.token,
                    body: E2EStatementRequest(statement: elsewhere.wire)
                ).status == .unprocessableContent)
            // Ana's signed tombstone deletes it: later reads 404, and no ciphertext is left in the database
            let tombstone = try Tombstone(group: group.id.rawValue, item: postID.rawValue, at: api.now).signed(
                by: ana.signer)
            #expect(
                try await api.call(
                    .post, "/api/v1/posts/\(postID)/tombstone", token: ana.token,
                    body: E2EStatementRequest(statement: tombstone.wire)
                ).status == .noContent)
            #expect(try await api.call(.get, "/api/v1/posts/\(postID)", token: ben.token).status == .notFound)
            #expect(try await api.storage.posts.post(postID, viewer: ana.id) == nil)
            let left = try await api.storage.posts.comments(on: postID, viewer: ana.id, after: nil, limit: 10)
            #expect(left.allSatisfy { $0.sealed == nil })
        }
    }
}
