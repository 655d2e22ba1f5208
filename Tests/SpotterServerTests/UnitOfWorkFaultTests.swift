import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// Every mutating request is one unit of work: a fault injected after its handler answered (where a failed
/// commit would strike) leaves no row of it behind, on the API and the web app, with or without an
/// `Idempotency-Key`. Each step of a tour through the routes runs first with the fault, then for real, so the
/// next step builds on it.
@Suite("One unit of work per change")
struct UnitOfWorkFaultTests {
    static let fault = HTTPField.Name("Spotter-Test-Fault")!

    struct InjectedFault: Error {}

    @Test(
        "a fault after the handler of each mutating route leaves the database as it was",
        arguments: StorageBackend.available)
    func faultLeavesNothing(backend: StorageBackend) async throws {
        var configuration = AppConfiguration()
        configuration.bcryptCost = 4
        configuration.runsMaintenance = false
        configuration.delivery.runsQueue = false
        configuration.faultAfterHandler = { headers in headers[Self.fault] == nil ? nil : InjectedFault() }
        let finalConfiguration = configuration
        try await backend.withIsolatedStorage { storage, place in
            let app = try await buildApplication(
                configuration: finalConfiguration, storage: storage, clock: ManualClock(Date()),
                logger: StorageBackend.logger)
            try await app.test(.router) { client in
                let tour = FaultTour(
                    api: APIClient(client: client, clock: ManualClock(Date()), storage: storage), place: place)
                try await tour.walk()
            }
        }
    }
}

/// The routes a community uses, each as `step`: faulted (nothing changes), then for real.
private struct FaultTour {
    let api: APIClient
    let place: StorageBackend.Place

    /// Sends the request with the fault and checks that every table is as it was, then sends it for real.
    @discardableResult
    func step(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: String? = nil,
        headers: HTTPFields = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TestResponse {
        let before = try await place.tableContents()
        var faulted = headers
        faulted[UnitOfWorkFaultTests.fault] = "after-handler"
        let failed = try await api.call(method, path, token: token, json: json, headers: faulted)
        #expect(failed.status == .internalServerError, "\(method) \(path)", sourceLocation: sourceLocation)
        let after = try await place.tableContents()
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        #expect(changed.isEmpty, "\(method) \(path) left rows in \(changed)", sourceLocation: sourceLocation)
        let response = try await api.call(method, path, token: token, json: json, headers: headers)
        #expect(
            (200..<400).contains(Int(response.status.code)),
            "\(method) \(path): \(response.status) \(String(buffer: response.body))", sourceLocation: sourceLocation)
        return response
    }

    static let device = String(repeating: "ab", count: 32)

    func walk() async throws {
        // Accounts.
        let signup = try await step(
            .post, "/api/v1/auth/signup",
            json: #"{"email":"ana@example.com","username":"ana","password":"correct horse battery"}"#)
        let ana = try signup.decode(TokenResponse.self)
        let bea = try await api.signup("bea").accessToken
        let cai = try await api.signup("cai").accessToken
        let signin = try await step(
            .post, "/api/v1/auth/signin", json: #"{"login":"ana","password":"correct horse battery"}"#)
        let second = try signin.decode(TokenResponse.self)
        try await step(.post, "/api/v1/auth/refresh", json: #"{"refresh_token":"\#(second.refreshToken)"}"#)
        try await step(.patch, "/api/v1/me", token: ana.accessToken, json: #"{"display_name":"Ana","bio":"Lifts."}"#)

        // People.
        let token = ana.accessToken
        for (method, path) in [
            (HTTPRequest.Method.post, "follow"), (.delete, "follow"), (.post, "mute"), (.delete, "mute"),
            (.post, "block"), (.delete, "block"), (.post, "follow"),
        ] {
            try await step(method, "/api/v1/users/bea/\(path)", token: token)
        }
        try await step(.post, "/api/v1/users/ana/follow", token: bea)

        // Posts, kudos and comments, one with an Idempotency-Key as SpotterKit sends every change.
        let created = try await step(
            .post, "/api/v1/posts", token: token, json: #"{"kind":"note","text":"Squats with @bea today"}"#)
        let post = try created.decode(Post.self)
        try await step(
            .patch, "/api/v1/posts/\(post.id)", token: token, json: #"{"text":"Squats with @bea and @cai"}"#)
        try await step(
            .post, "/api/v1/posts/\(post.id)/kudos", token: bea, headers: [IdempotencyKey.name: "kudos-1"])
        try await step(.delete, "/api/v1/posts/\(post.id)/kudos", token: bea)
        try await step(.post, "/api/v1/posts/\(post.id)/kudos", token: cai)
        let commented = try await step(
            .post, "/api/v1/posts/\(post.id)/comments", token: bea, json: #"{"text":"Nice one @ana"}"#)
        let comment = try commented.decode(SpotterModels.Comment.self)
        try await step(
            .patch, "/api/v1/posts/\(post.id)/comments/\(comment.id)", token: bea, json: #"{"text":"Nice one!"}"#)
        try await step(.delete, "/api/v1/posts/\(post.id)/comments/\(comment.id)", token: bea)
        let workout = try await step(
            .post, "/api/v1/posts", token: token,
            json: #"""
                {"kind":"workout","text":"","workout":{"title":"Legs","type":"strength",
                 "start_time":"2026-11-30T08:00:00Z","end_time":"2026-11-30T09:00:00Z",
                 "exercises":[{"name":"Back Squat","sets":[{"weight_kg":100,"reps":5}]}]}}
                """#)
        try await step(.delete, "/api/v1/posts/\(try workout.decode(Post.self).id)", token: token)

        // Templates.
        let exercise = try await step(.post, "/api/v1/exercises", token: token, json: #"{"name":"Zercher Squat"}"#)
        let template = try await step(
            .post, "/api/v1/workout-templates", token: token,
            json:
                #"{"name":"Leg day","type":"strength","exercises":[{"name":"Back Squat","target_sets":[{"reps":5}]}]}"#)
        try await step(
            .delete, "/api/v1/workout-templates/\(try template.decode(WorkoutTemplate.self).id)", token: token)
        try await step(.delete, "/api/v1/exercises/\(try exercise.decode(ExerciseTemplate.self).id)", token: token)

        // Groups.
        let made = try await step(
            .post, "/api/v1/groups", token: token, json: #"{"name":"Dawn Patrol","access":"open"}"#)
        let group = try made.decode(Group.self)
        try await step(.patch, "/api/v1/groups/\(group.id)", token: token, json: #"{"description":"6 am runs"}"#)
        try await step(.post, "/api/v1/groups/\(group.id)/join", token: bea)
        let newest = try await step(
            .post, "/api/v1/posts", token: bea, json: #"{"kind":"note","text":"Out at six","group_id":"\#(group.id)"}"#)
        try await step(
            .post, "/api/v1/groups/\(group.id)/seen", token: token,
            json: #"{"up_to":"\#(try newest.decode(Post.self).id)"}"#)
        try await step(.post, "/api/v1/groups/\(group.id)/invitations", token: token, json: #"{"username":"cai"}"#)
        try await step(.post, "/api/v1/groups/\(group.id)/leave", token: bea)

        // Children.
        let child = try await step(
            .post, "/api/v1/me/children", token: token, json: #"{"name":"Lia","birth_year":2016}"#)
        let childID = try child.decode(ChildProfile.self).id
        try await step(.patch, "/api/v1/me/children/\(childID)", token: token, json: #"{"name":"Lia R."}"#)
        try await step(.delete, "/api/v1/me/children/\(childID)", token: token)

        // Notifications.
        try await step(.post, "/api/v1/notifications/seen", token: token, json: "{}")
        try await step(.post, "/api/v1/notifications/read", token: token, json: "{}")
        try await step(.post, "/api/v1/notifications/devices", token: token, json: #"{"token":"\#(Self.device)"}"#)
        try await step(.delete, "/api/v1/notifications/devices/\(Self.device)", token: token)

        try await step(.post, "/api/v1/auth/signout", token: second.accessToken)
        _ = cai
    }
}

extension IdempotencyKey {
    static let name = HTTPField.Name("Idempotency-Key")!
}

private enum IdempotencyKey {}
