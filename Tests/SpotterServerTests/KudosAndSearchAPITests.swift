import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

@Suite("Who gave kudos, and search over workouts and bios")
struct KudosAndSearchAPITests {
    @Test(
        "the kudos list follows the post's visibility and leaves blocked people out",
        arguments: StorageBackend.available)
    func kudosGivers(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's followers-only post with kudos from Bo, who follows her
            let ana = try await api.user("ana")
            let bo = try await api.user("bob")
            let eve = try await api.user("eve")
            _ = try await api.follow(bo, "ana")
            _ = try await api.follow(eve, "ana")
            let post = try await api.post(ana, "Deadlift day", visibility: .followers)
            let open = try await api.post(ana, "Open day #gym")
            for id in [post.id, open.id] {
                #expect(try await api.call(.post, "/api/v1/posts/\(id)/kudos", token: bo).status == .ok)
                #expect(try await api.call(.post, "/api/v1/posts/\(id)/kudos", token: eve).status == .ok)
            }
            // Then Ana reads both names
            let list = try await api.call(.get, "/api/v1/posts/\(post.id)/kudos", token: ana).decode(
                Page<AuthorSummary>.self)
            #expect(list.items.map(\.username).sorted() == ["bob", "eve"])
            // And a stranger, or nobody signed in, gets 404 for the followers-only post, as for the post itself
            let cy = try await api.user("cyd")
            #expect(try await api.call(.get, "/api/v1/posts/\(post.id)/kudos", token: cy).status == .notFound)
            #expect(try await api.call(.get, "/api/v1/posts/\(post.id)/kudos").status == .notFound)
            // When Eve blocks Bo, Eve no longer sees Bo in the public post's list
            #expect(try await api.call(.post, "/api/v1/users/bob/block", token: eve).status.code < 300)
            let seenByEve = try await api.call(.get, "/api/v1/posts/\(open.id)/kudos", token: eve).decode(
                Page<AuthorSummary>.self)
            #expect(seenByEve.items.map(\.username) == ["eve"])
            // And a page of one has a cursor to the next
            let first = try await api.call(.get, "/api/v1/posts/\(post.id)/kudos?limit=1", token: ana).decode(
                Page<AuthorSummary>.self)
            let cursor = try #require(first.nextCursor)
            let second = try await api.call(.get, "/api/v1/posts/\(post.id)/kudos?limit=1&cursor=\(cursor)", token: ana)
                .decode(Page<AuthorSummary>.self)
            #expect(Set(first.items.map(\.username) + second.items.map(\.username)) == ["bob", "eve"])
            #expect(try await api.call(.get, "/api/v1/posts/not-an-id/kudos").status == .badRequest)
        }
    }

    @Test(
        "search finds workouts by title and exercise, and people by bio, never private posts",
        arguments: StorageBackend.available)
    func searchWorkoutsAndBios(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let start = api.clock.now - 7200
            try await api.workout(
                ana, "Squat day", sets: [WorkoutSet(weightKg: 100, reps: 5)], exercise: "Lunge", at: start)
            try await api.workout(
                ana, "Leg session", sets: [WorkoutSet(weightKg: 80, reps: 8)], exercise: "Front Squat", at: start)
            let hidden = WorkoutRecord(
                title: "Secret squat", type: .strength, startTime: start, endTime: start + 3600,
                exercises: [ExerciseEntry(name: "Back Squat", sets: [WorkoutSet(weightKg: 90, reps: 3)])])
            #expect(
                try await api.call(
                    .post, "/api/v1/posts", token: ana,
                    body: CreatePostRequest(kind: .workout, text: "", visibility: .private, workout: hidden)
                ).status == .created)
            _ = try await api.call(
                .patch, "/api/v1/me", token: ana, body: UpdateAccountRequest(bio: "Powerlifter from Porto"))
            let bo = try await api.user("bob")
            // When Bo searches "squat", he finds both public workouts and not the private one
            let found = try await api.call(.get, "/api/v1/search?q=squat&type=posts", token: bo).decode(
                SearchResults.self)
            #expect(Set(found.posts.compactMap(\.workout?.title)) == ["Squat day", "Leg session"])
            // And Ana finds her own private one too
            let own = try await api.call(.get, "/api/v1/search?q=secret&type=posts", token: ana).decode(
                SearchResults.self)
            #expect(own.posts.compactMap(\.workout?.title) == ["Secret squat"])
            // And "porto" finds Ana by her bio
            let people = try await api.call(.get, "/api/v1/search?q=porto&type=users", token: bo).decode(
                SearchResults.self)
            #expect(people.users.map(\.username) == ["ana"])
            // And an edited title is found by its new words only
            let squatDay = try #require(found.posts.first { $0.workout?.title == "Squat day" })
            var renamed = try #require(squatDay.workout)
            renamed.title = "Hinge practice"
            #expect(
                try await api.call(
                    .patch, "/api/v1/posts/\(squatDay.id)", token: ana, body: UpdatePostRequest(workout: renamed)
                ).status == .ok)
            let after = try await api.call(.get, "/api/v1/search?q=hinge&type=posts", token: bo).decode(
                SearchResults.self)
            #expect(after.posts.map(\.id) == [squatDay.id])
            let squats = try await api.call(.get, "/api/v1/search?q=squat&type=posts", token: bo).decode(
                SearchResults.self)
            #expect(squats.posts.compactMap(\.workout?.title) == ["Leg session"])
        }
    }
}
