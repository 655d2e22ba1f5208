import Foundation
import Hummingbird
import HummingbirdTesting
import SpotterCore
import SpotterE2E
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// Two nodes on one PostgreSQL database: an encrypted group's chain and epochs are one compare-and-swap across
/// them, and what one node keeps, the other serves.
@Suite("Encrypted groups across nodes")
struct E2EAcrossNodesTests {
    @Test(
        "two admins' devices change the chain at once through two nodes: one wins, the other is told to read again",
        .enabled(if: StorageBackend.available.contains(.postgres)))
    func compareAndSwap() async throws {
        try await TestApp.runTwoNodes { a, b in
            // Ana owns the group (made through A); Ben joins and is made an admin through B
            let ana = try await a.e2ePerson("ana")
            let ben = try await b.e2ePerson("ben")
            let cyd = try await b.e2ePerson("cyd")
            let (group, _, create) = try await a.encryptedGroup("The Kellers", owner: ana)
            try await b.addMember(ben.token, username: "ben", to: group, admin: ana.token)
            try await b.addMember(cyd.token, username: "cyd", to: group, admin: ana.token)
            try await b.setRole(.admin, of: ben, in: group, by: ana)
            let addBen = try ana.signer.sign(
                .add(user: ben.id.rawValue, role: .admin), on: .group(group.id.rawValue), after: create,
                at: a.now)
            #expect(
                try await b.call(
                    .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ana.token,
                    body: E2EGroupChangeRequest(statements: [addBen.wire])
                ).status == .ok)

            // Both admins add Cyd at the same place of the chain, each through a different node
            let byAna = try ana.signer.sign(
                .add(user: cyd.id.rawValue, role: .member), on: .group(group.id.rawValue), after: addBen,
                at: a.now)
            let byBen = try ben.signer.sign(
                .add(user: cyd.id.rawValue, role: .member), on: .group(group.id.rawValue), after: addBen,
                at: a.now + 1)
            async let first = a.call(
                .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ana.token,
                body: E2EGroupChangeRequest(statements: [byAna.wire]))
            async let second = b.call(
                .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ben.token,
                body: E2EGroupChangeRequest(statements: [byBen.wire]))
            let statuses = [try await first.status, try await second.status].map(\.code).sorted()
            #expect(statuses == [200, 409])
            // Both nodes serve the one chain that won, and it verifies
            let chainA = try await a.chain("/api/v1/groups/\(group.id)/e2e/chain", token: cyd.token)
            let chainB = try await b.chain("/api/v1/groups/\(group.id)/e2e/chain", token: cyd.token)
            #expect(chainA == chainB && chainA.count == 3)

            // The next epoch, made through A, is the one B knows; a second "next" through B is refused
            let epoch1 = EpochKey()
            let keys = try [ana, ben, cyd].map { try $0.wrap(epoch1, group, epoch: 1) }
            async let rotateA = a.call(
                .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ana.token,
                body: E2EGroupChangeRequest(statements: [], epoch: E2ENewEpoch(number: 1, keys: keys)))
            async let rotateB = b.call(
                .post, "/api/v1/groups/\(group.id)/e2e/chain", token: ben.token,
                body: E2EGroupChangeRequest(statements: [], epoch: E2ENewEpoch(number: 1, keys: keys)))
            #expect([try await rotateA.status, try await rotateB.status].map(\.code).sorted() == [200, 409])
            #expect(try await b.groupState(group.id, token: cyd.token).epoch == 1)

            // A post sealed through B is served by A, and opens with the key A's state names
            let postID = PostID.generate(at: a.clock.now)
            let (sealed, _) = try sealedContent(
                "both nodes", group: group, postID: postID.rawValue, epoch: 1, key: epoch1)
            #expect(
                try await b.call(
                    .post, "/api/v1/posts", token: cyd.token,
                    body: CreatePostRequest(kind: .note, groupID: group.id, sealed: sealed, id: postID)
                ).status == .created)
            let seen = try await a.call(.get, "/api/v1/posts/\(postID)", token: ana.token).decode(Post.self)
            #expect(seen.sealed == sealed)
        }
    }
}
