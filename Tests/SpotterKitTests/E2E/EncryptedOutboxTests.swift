import Foundation
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterKit

/// Encrypted groups that remember (issue 40, items 7 and 11): posts queued like plain ones, sealed before
/// they are stored, so the outbox holds no plaintext; opened photos kept, bounded, with their download state;
/// and a cold start without a network opening the sealed posts the feed kept.
@Suite("Encrypted groups on the phone")
struct EncryptedOutboxTests {
    static let password = "correct horse battery"

    @Test("a post written offline in an encrypted group waits sealed in the outbox, shows as sending, and lands once")
    func queuedSealed() async throws {
        try await EncryptedGroupsLiveTests.withServer(on: .sqlite) { url, clock in
            // Given Ana's phone (its network switchable, one client database) and her family group with Ben
            let network = SwitchableNetwork()
            let client = SpotterClient(baseURL: url, transport: network, retry: .none)
            try await client.signUp(email: "ana@example.com", username: "ana", password: Self.password)
            let database = try AppDatabase(path: nil)
            let outbox = ActionQueue(database: database, client: client)
            let ana = EncryptedGroups(client: client, store: MemoryDeviceKeyStore(), database: database) { clock.now }
            try await ana.registerDevice(name: "ana's phone")
            let family = try await ana.createGroup(name: "Family", history: true)
            let ben = try await EncryptedGroupsLiveTests.Device.signUp("ben", url, clock: clock)
            _ = try await client.createInvitation(to: family.id, CreateInvitationRequest(username: "ben"))
            _ = try await ben.client.joinGroup(family.id)
            _ = try await ana.reconcile(family.id)
            try await ana.queuePost(text: "Swim at six", to: family.id, outbox: outbox)
            #expect(await outbox.drain().count == 1)
            let feed = await FeedViewModel(kind: .group(family.id), client: client, outbox: outbox)
            await feed.loadInitial()

            // When she writes a post with no network
            network.state = .down
            try await ana.queuePost(text: "Pool closed, lake instead", to: family.id, outbox: outbox)
            _ = await outbox.drain()

            // Then the outbox holds it sealed: no word of it in what is stored
            let stored = try await database.reader.read { db in
                try String.fetchAll(db, sql: "SELECT action FROM actions")
            }
            #expect(stored.count == 1)
            #expect(!stored.contains { $0.contains("lake") || $0.contains("Pool") })
            // And the group's feed shows it as sending, which her device opens
            try await SpotterSessionTests.eventually { await MainActor.run { feed.sending.count == 1 } }
            let sending = try #require(await feed.sending.first)
            #expect(sending.request.text == nil && sending.request.sealed != nil)
            #expect(try await ana.open(sending).text == "Pool closed, lake instead")

            // When the network is back and the outbox drains, twice
            network.state = .up
            #expect(await outbox.drain(ignoringBackoff: true).count == 1)
            #expect(await outbox.drain(ignoringBackoff: true).isEmpty)

            // Then it landed once, the server holds no text, and Ben's device opens it
            try await SpotterSessionTests.eventually {
                await MainActor.run { feed.sending.isEmpty && feed.posts.count == 2 }
            }
            let posts = try await ben.client.feed(.group(family.id)).items
            #expect(posts.count == 2 && posts.allSatisfy { $0.text.isEmpty && $0.sealed != nil })
            #expect(try await ben.groups.open(try #require(posts.first)).text == "Pool closed, lake instead")
        }
    }

    @Test(
        "opened photos are kept with their download state, shown offline, and bounded, the least recently shown going first"
    )
    func keptPhotos() async throws {
        try await EncryptedGroupsLiveTests.withServer(on: .sqlite) { url, clock in
            // Given Ana's post of three photos in the family group, and Ben's phone keeping at most 350 kB
            let ana = try await EncryptedGroupsLiveTests.Device.signUp("ana", url, clock: clock)
            let family = try await ana.groups.createGroup(name: "Family", history: true)
            let network = SwitchableNetwork()
            let client = SpotterClient(baseURL: url, transport: network, retry: .none)
            try await client.signUp(email: "ben@example.com", username: "ben", password: Self.password)
            let database = try AppDatabase(path: nil)
            let ben = EncryptedGroups(
                client: client, store: MemoryDeviceKeyStore(), database: database, mediaCacheLimit: 350_000
            ) { clock.now }
            try await ben.registerDevice(name: "ben's phone")
            _ = try await ana.client.createInvitation(to: family.id, CreateInvitationRequest(username: "ben"))
            _ = try await client.joinGroup(family.id)
            _ = try await ana.groups.reconcile(family.id)
            let photos = (1...3).map { number in
                Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* (31 + number)) })
            }
            let sent = try await ana.groups.post(
                text: "Lake day",
                photos: photos.map { EncryptedPhoto(data: $0, thumbnail: Data($0.prefix(1_000))) }, to: family.id)
            let body = try await ben.open(try await client.post(sent.id))

            // When Ben's feed asks for the thumbnails ahead
            await ben.prefetch(body.media, in: family.id)
            // Then each is ready, kept, with when it came
            for media in body.media {
                let blob = try #require(media.thumbnailBlobID)
                let thumbnail = try #require(await ben.mediaDownload(blob))
                #expect(thumbnail.state == .ready && thumbnail.byteSize == 1_000 && thumbnail.lastDownloaded != nil)
            }

            // When he opens the three photos in turn
            for (media, photo) in zip(body.media, photos) {
                clock.advance(by: 60)
                #expect(try await ben.cachedPhoto(media, in: family.id) == photo)
            }
            // Then what was shown longest ago went (the thumbnails, then the first photo) to keep the rest under
            // the limit, and the later ones are kept
            #expect(await ben.mediaDownload(body.media[0].blobID) == nil)
            #expect(await ben.mediaDownload(body.media[1].blobID)?.state == .ready)
            #expect(await ben.mediaDownload(body.media[2].blobID)?.state == .ready)

            // When he opens them with no network
            network.state = .down
            // Then the kept one shows, and the one let go is failed with why
            #expect(try await ben.cachedPhoto(body.media[2], in: family.id) == photos[2])
            await #expect(throws: SpotterClientError.self) { try await ben.cachedPhoto(body.media[0], in: family.id) }
            guard case .failed(let reason) = await ben.mediaDownload(body.media[0].blobID)?.state else {
                Issue.record("expected a failed download")
                return
            }
            #expect(reason.contains("not connected"), "\(reason)")

            // When the network is back, asking again brings it; signing out forgets them all
            network.state = .up
            #expect(try await ben.cachedPhoto(body.media[0], in: family.id) == photos[0])
            try await database.forgetPerson()
            #expect(await ben.mediaDownload(body.media[2].blobID) == nil)
        }
    }

    @Test("a cold start without a network opens the sealed posts the group's feed kept, with the keys kept wrapped")
    func coldStartOffline() async throws {
        try await EncryptedGroupsLiveTests.withServer(on: .sqlite) { url, clock in
            // Given Ana's post in the family group, seen yesterday on Ben's phone
            let ana = try await EncryptedGroupsLiveTests.Device.signUp("ana", url, clock: clock)
            let family = try await ana.groups.createGroup(name: "Family", history: true)
            let network = SwitchableNetwork()
            let client = SpotterClient(baseURL: url, transport: network, retry: .none)
            let account = try await client.signUp(email: "ben@example.com", username: "ben", password: Self.password)
            let database = try AppDatabase(path: nil)
            try await database.saveMe(account)
            let store = MemoryDeviceKeyStore()
            let yesterday = EncryptedGroups(client: client, store: store, database: database) { clock.now }
            try await yesterday.registerDevice(name: "ben's phone")
            _ = try await ana.client.createInvitation(to: family.id, CreateInvitationRequest(username: "ben"))
            _ = try await client.joinGroup(family.id)
            _ = try await ana.groups.reconcile(family.id)
            _ = try await ana.groups.post(text: "Swim at six", to: family.id)
            let outbox = ActionQueue(database: database, client: client)
            let seen = await FeedViewModel(kind: .group(family.id), client: client, outbox: outbox)
            await seen.loadInitial()
            #expect(try await yesterday.open(try #require(await seen.posts.first)).text == "Swim at six")

            // When the app starts again this morning with no network
            network.state = .down
            let morning = EncryptedGroups(client: client, store: store, database: database) { clock.now }
            let feed = await FeedViewModel(kind: .group(family.id), client: client, outbox: outbox)
            await feed.loadInitial()

            // Then the kept post opens, with the epoch key kept wrapped to this device
            let kept = try #require(await feed.posts.first)
            #expect(kept.text.isEmpty && kept.sealed != nil)
            #expect(try await morning.open(kept).text == "Swim at six")
        }
    }
}
