import Foundation
import SpotterKit
import SpotterModels
import Testing

/// Every screen reads the database (issue 40, item 7): a post's comments, the Parent Zone and compose's
/// templates show what they last saw at once, offline too, and refresh from the network; signing out forgets
/// them.
@Suite("Offline screens")
struct OfflineScreensTests {
    static let password = "correct horse battery"

    static func session(_ name: String, _ url: URL, _ network: SwitchableNetwork) async throws -> SpotterSession {
        let session = try SpotterSession(
            baseURL: url, folder: nil, tokens: MemoryTokenStore(), transport: network, retry: .none)
        try await session.client.signUp(email: "\(name)@example.com", username: name, password: Self.password)
        return session
    }

    @Test("a post's comments seen once show offline when it is opened again, with more still to load")
    func commentsOffline() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Ana's run with 25 comments from Bea, opened once on Ana's phone
            let network = SwitchableNetwork()
            let ana = try await Self.session("ana", url, network)
            let bea = try await LiveServer.person("bea", url, password: Self.password)
            let run = try await ana.client.createPost(CreatePostRequest(kind: .note, text: "Hill repeats"))
            for number in 1...25 {
                _ = try await bea.addComment(CreateCommentRequest(text: "Comment \(number)"), on: run.id)
            }
            let first = await CommentsViewModel(postID: run.id, client: ana.client, outbox: ana.outbox)
            await first.load()
            let seen = await first.comments.map(\.id)
            #expect(!seen.isEmpty)
            #expect(await first.hasMoreComments)

            // When it is opened again with no network
            network.state = .down
            let again = await CommentsViewModel(postID: run.id, client: ana.client, outbox: ana.outbox)
            await again.load()

            // Then the comments seen show, the page after them still to load, and the screen says it is offline
            #expect(await again.comments.map(\.id) == seen)
            #expect(await again.hasMoreComments)
            #expect(await again.errorMessage == "You're offline. Showing what was loaded.")

            // When the network is back, more loads after them, each once, and is kept too
            network.state = .up
            await again.loadMoreComments()
            let all = await again.comments.map(\.id)
            #expect(all.count == 25 && Set(all).count == 25)
            network.state = .down
            let third = await CommentsViewModel(postID: run.id, client: ana.client, outbox: ana.outbox)
            await third.load()
            #expect(await third.comments.map(\.id) == all)
        }
    }

    @Test(
        "the Parent Zone shows a guardian's children, invitations and family groups, offline too; sign-out forgets them"
    )
    func parentZone() async throws {
        try await LiveServer.run { url, _ in
            // Given Ana with a family circle and a club, and Ben
            let network = SwitchableNetwork()
            let ana = try await Self.session("ana", url, network)
            let ben = try await Self.session("ben", url, SwitchableNetwork())
            _ = try await ana.client.createGroup(CreateGroupRequest(name: "The Okafors", access: .private))
            _ = try await ana.client.createGroup(CreateGroupRequest(name: "Harbour Runners", access: .open))
            let zone = await ParentZoneViewModel(session: ana)
            await zone.load()

            // When she adds Lou, and a child with no name
            let lou = try #require(await zone.addChild(name: "Lou", birthYear: 2019))
            #expect(await zone.addChild(name: "", birthYear: 2019) == nil)

            // Then Lou is listed, the nameless one is refused naming its field, and the family circle is where
            // Lou's posts may go
            #expect(await zone.children.map(\.name) == ["Lou"])
            #expect(await zone.errors.map(\.field) == ["name"])
            #expect(await zone.familyGroups.map(\.name) == ["The Okafors"])

            // When she invites Ben to manage Lou, and Ben accepts from his Parent Zone
            #expect(await zone.invite("ben", toManage: lou.id)?.invitedGuardians.map(\.username) == ["ben"])
            let bens = await ParentZoneViewModel(session: ben)
            await bens.load()
            #expect(await bens.invitations.map(\.name) == ["Lou"])
            await bens.answer(lou.id, accept: true)
            #expect(await bens.invitations.isEmpty)
            #expect(await bens.children.map(\.name) == ["Lou"])

            // When Ana opens the Parent Zone again with no network
            network.state = .down
            let offline = await ParentZoneViewModel(session: ana)
            await offline.load()
            // Then what was last fetched shows, and the screen says it is offline
            #expect(await offline.children.map(\.name) == ["Lou"])
            #expect(await offline.familyGroups.map(\.name) == ["The Okafors"])
            #expect(await offline.errorMessage == "You're offline. Showing what was loaded.")

            // When she signs out, the next person on the phone sees none of it
            network.state = .up
            await ana.signOut()
            network.state = .down
            let next = await ParentZoneViewModel(session: ana)
            await next.load()
            #expect(await next.children.isEmpty)
            #expect(await next.familyGroups.isEmpty)
        }
    }

    @Test("compose lists the templates last fetched and starts a workout from one with no network")
    func templatesOffline() async throws {
        try await LiveServer.run(configure: { $0.postRules.newAccountAge = 0 }) { url, _ in
            // Given Bea's push-day template, listed once on Ana's phone
            let network = SwitchableNetwork()
            let ana = try await Self.session("ana", url, network)
            let bea = try await LiveServer.person("bea", url, password: Self.password)
            let template = try await bea.createWorkoutTemplate(
                CreateWorkoutTemplateRequest(
                    name: "Push day", type: .strength,
                    exercises: [TemplateExercise(name: "Bench Press", targetSets: [TargetSet(weightKg: 80, reps: 5)])]))
            let first = await ComposeWorkoutViewModel(client: ana.client, outbox: ana.outbox)
            await first.loadTemplates()
            #expect(await first.templates.map(\.id) == [template.id])

            // When compose opens again with no network, and she starts from it
            network.state = .down
            let compose = await ComposeWorkoutViewModel(client: ana.client, outbox: ana.outbox)
            await compose.loadTemplates()
            await compose.start(from: template.id)

            // Then the template is listed and fills the form, and she can log it, queued for the network
            #expect(await compose.templates.map(\.name) == ["Push day"])
            #expect(await compose.title == "Push day")
            #expect(await compose.exercises.first?.sets == [WorkoutSet(weightKg: 80, reps: 5)])
            #expect(await compose.publish())
            network.state = .up
            #expect(await ana.outbox.drain(ignoringBackoff: true).count == 1)
            #expect(try await ana.client.feed(.user("ana")).items.first?.workout?.templateID == template.id)
        }
    }
}
