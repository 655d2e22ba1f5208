import Foundation
import HTTPTypes
import SpotterCore
import SpotterE2E
import SpotterModels
import SpotterNostr
import SpotterTestSupport
import Testing

/// PostgreSQL refuses NUL in text, so a NUL that reached it was a 500 where SQLite stored it. Every text field
/// the API takes is judged by one rule instead (`TextInput`): on both databases, a control character with no
/// meaning in a field is refused with a problem naming that field.
@Suite("Control characters in text")
struct ControlCharacterTests {
    @Test(
        "every text field of the OpenAPI document refuses NUL and other control characters, naming the field",
        arguments: StorageBackend.available)
    func everyTextField(backend: StorageBackend) async throws {
        let document = try YAMLSubset.parse(String(contentsOf: OpenAPIFile.url, encoding: .utf8))
        let fields = OpenAPITextField.all(in: document)
        #expect(fields.count > 60, "the document was read: \(fields.count) text fields")
        try await TestApp.run(
            backend,
            configure: {
                // Sign in with Apple on, so its fields are judged rather than the route answering 404.
                $0.appleClientID = "club.spotter.app"
                $0.appleJWKSURL = "http://127.0.0.1:9/keys"
            }
        ) { api in
            // Given an account with a post, a comment and templates, for the routes that need them
            let fixture = try await RequestFixture.make(api)
            for field in fields {
                for control in ["\u{0}", "\u{1B}"] {
                    // When the field carries a control character, the rest of the request being good
                    let request = try fixture.request(for: field, inserting: control)
                    let response = try await api.call(
                        HTTPRequest.Method(rawValue: field.method)!, request.uri, token: fixture.token,
                        json: request.body)
                    let label = "\(field) with U+\(String(control.unicodeScalars.first!.value, radix: 16))"
                    // Then the answer is a problem naming the field: 422, or 400 for a value that can't be read
                    // as the id, date or word it has to be. Cursors are opaque: read, not judged, as they always were.
                    let isCursor = field.place == .query && ["cursor", "since"].contains(field.field)
                    let allowed: Set<Int> = field.isFormatted || isCursor ? [400, 422] : [422]
                    #expect(allowed.contains(response.status.code), "\(label): \(response.status) \(response.text)")
                    // (Foundation names a date it can't read by the object holding it: `workout`, `events[0]`.)
                    let named = ((try? response.problem().errors?.map(\.field)) ?? nil) ?? []
                    let isNamed = named.contains { name in
                        name == request.field
                            || (field.isFormatted && [".", "["].contains { request.field.hasPrefix(name + $0) })
                    }
                    #expect(isNamed, "\(label): \(response.text)")
                }
            }
        }
    }

    @Test("a multi-line field keeps line feeds and tabs, and stores CR LF as LF", arguments: StorageBackend.available)
    func lineBreaks(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana
            let ana = try await api.user("ana")
            // When she posts text written in a browser's textarea (CR LF) with a tab, and a comment with a lone CR
            let post = try await api.post(ana, "Squats\r\n\t5x5\r\nDone")
            let comment = try await api.call(
                .post, "/api/v1/posts/\(post.id)/comments", token: ana, body: CreateCommentRequest(text: "a\rb"))
            // Then the line breaks are stored as LF and the tab stays
            #expect(post.text == "Squats\n\t5x5\nDone")
            #expect(try comment.decode(SpotterModels.Comment.self).text == "a\nb")
        }
    }

    @Test("a path parameter is read percent-decoded, as clients escape it", arguments: StorageBackend.available)
    func percentDecodedPath(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given a post tagged in another script
            let ana = try await api.user("ana")
            let post = try await api.post(ana, "Sommer #été")
            // When its tag's feed is asked for, escaped as SpotterKit escapes a path segment
            let feed = try await api.feed("/api/v1/feeds/tags/%C3%A9t%C3%A9", token: nil)
            // Then the post is there
            #expect(feed.items.map(\.id) == [post.id])
        }
    }

    @Test("a single-line field refuses a line break", arguments: StorageBackend.available)
    func singleLine(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let response = try await api.call(
                .post, "/api/v1/auth/signin", body: SigninRequest(login: "ana\nbea", password: "whatever"))
            #expect(response.status == .unprocessableContent)
            #expect(try response.problem().errors?.map(\.field) == ["login"])
        }
    }
}

/// A good request for each documented operation, and the same request with a control character put into one
/// of its text fields.
private struct RequestFixture {
    let token: String
    /// Good values of path and query parameters.
    let parameters: [String: String]
    let postID: PostID
    let exerciseID: ExerciseTemplateID
    let workoutTemplateID: WorkoutTemplateID
    let mediaID: MediaID
    let groupID: GroupID
    /// An encrypted group, for the `/e2e` routes (it has no keys yet: each field is judged before that matters).
    let encryptedGroupID: GroupID
    let childID: ChildProfileID
    /// Good JSON bodies by operation (`POST /api/v1/posts`).
    let bodies: [String: String]

    struct Request {
        let uri: String
        let body: String?
        /// What the problem should name.
        let field: String
    }

    static func make(_ api: APIClient) async throws -> RequestFixture {
        let tokens = try await api.signup("ana")
        let token = tokens.accessToken
        _ = try await api.user("bea")
        let exercise = try await api.call(
            .post, "/api/v1/exercises", token: token, json: #"{"name":"Back Squat","format":["weight","reps"]}"#
        ).decode(ExerciseTemplate.self)
        let template = try await api.call(
            .post, "/api/v1/workout-templates", token: token,
            json: #"{"name":"Legs","type":"strength","exercises":[{"name":"Back Squat","target_sets":[]}]}"#
        ).decode(WorkoutTemplate.self)

        let iso = ISO8601DateFormatter()
        let now = api.clock.now
        let device = String(repeating: "ab", count: 32)
        let workout = """
            {"title":"Legs","type":"strength","start_time":"\(iso.string(from: now - 3600))",\
            "end_time":"\(iso.string(from: now))","completed":true,"template_id":"\(template.id)",\
            "notes":"Felt good.","exercises":[{"name":"Back Squat","exercise_id":"\(exercise.id)",\
            "sets":[{"weight_kg":100,"reps":5,"rpe":8,"set_type":"normal"}],"cardio":{"duration_s":60}}]}
            """
        // A workout post, so that an edit's workout is judged field by field.
        let post = try await api.call(
            .post, "/api/v1/posts", token: token, json: #"{"kind":"workout","text":"Leg day","workout":\#(workout)}"#
        ).decode(Post.self)
        let comment = try await api.call(
            .post, "/api/v1/posts/\(post.id)/comments", token: token, body: CreateCommentRequest(text: "First!")
        ).decode(SpotterModels.Comment.self)
        let upload = try await api.presign(token, byteSize: 1000)
        let group = try await api.createGroup(token, "Harbour Runners", access: .open)
        let bea = try await api.userID("bea", token: token)
        let link = try await api.invite(token, group)
        let groupPost = try await api.postToGroup(token, group, "Hello club")
        let child = try await api.call(
            .post, "/api/v1/me/children", token: token, body: CreateChildProfileRequest(name: "Lou", birthYear: 2019)
        ).decode(ChildProfile.self)
        let nostrLink = try api.linkEvent(try await api.nostrChallenge(token), try NostrSecretKey.generate())
        let encrypted = try await api.call(
            .post, "/api/v1/groups", token: token,
            body: CreateGroupRequest(name: "Family", access: .private, encrypted: true)
        ).decode(Group.self)
        // Statements, keys and sealed content of the right shapes and sizes (base64url), not signed: a control
        // character in one field is refused before anything is verified.
        let b64 = { (count: Int) in Data(repeating: 7, count: count).base64URL }
        let statement =
            #"{"body":"\#(b64(40))","signature":"\#(b64(64))","signer":"\#(UUID().uuidString.lowercased())"}"#
        let deviceKey = #"{"device_id":"\#(UUID().uuidString.lowercased())","key":"\#(b64(113))"}"#
        let keys = DeviceKeys()
        let newDevice = """
            {"device":{"id":"\(UUID().uuidString.lowercased())","name":"laptop",\
            "hpke_public":"\(keys.hpkePublic.base64URL)","signing_public":"\(keys.signingPublic.base64URL)",\
            "recovery":false}}
            """
        let webPush = """
            {"endpoint":"https://push.example.net/send/abc","keys":\
            {"p256dh":"\(Data(repeating: 4, count: 65).base64URL)","auth":"\(Data(repeating: 1, count: 16).base64URL)"}}
            """
        let bodies = [
            "POST /api/v1/auth/signup": #"{"email":"cara@example.com","username":"cara","password":"correct horse"}"#,
            "POST /api/v1/auth/signin": #"{"login":"ana","password":"correct horse battery"}"#,
            "POST /api/v1/auth/refresh": #"{"refresh_token":"\#(tokens.refreshToken)"}"#,
            "POST /api/v1/auth/apple": #"{"identity_token":"eyJ.e30.c2ln","nonce":"nonce-1","username":"cara"}"#,
            "POST /api/v1/auth/password":
                #"{"current_password":"correct horse battery","new_password":"another horse battery"}"#,
            "POST /api/v1/auth/password-reset": #"{"email":"ana@example.com"}"#,
            "POST /api/v1/auth/password-reset/confirm": #"{"token":"spl_abc","password":"another horse battery"}"#,
            "POST /api/v1/me/email": #"{"email":"ana.new@example.com","password":"correct horse battery"}"#,
            "POST /api/v1/me/email/confirm": #"{"token":"spl_abc"}"#,
            "PATCH /api/v1/me": """
            {"display_name":"Ana","bio":"Lifts.","avatar_url":"https://example.com/ana.png",\
            "time_zone":"Europe/Berlin","units":"kg","privacy":"public"}
            """,
            "POST /api/v1/posts": #"{"kind":"workout","text":"Leg day","visibility":"public","workout":\#(workout)}"#,
            "PATCH /api/v1/posts/{id}": #"{"text":"Leg day","visibility":"public","workout":\#(workout)}"#,
            "POST /api/v1/posts/{id}/comments": #"{"text":"Strong!","parent_id":"\#(comment.id)"}"#,
            "PATCH /api/v1/posts/{id}/comments/{comment_id}": #"{"text":"Stronger!"}"#,
            "POST /api/v1/exercises": """
            {"name":"Front Squat","equipment":"barbell","muscle_groups":["legs"],"format":["weight","reps"],\
            "visibility":"public"}
            """,
            "POST /api/v1/workout-templates": """
            {"name":"Legs","type":"strength","description":"Heavy.","visibility":"public","exercises":\
            [{"name":"Back Squat","exercise_id":"\(exercise.id)","target_sets":[{"weight_kg":100,"reps":5}]}]}
            """,
            "POST /api/v1/analytics/events":
                #"{"events":[{"name":"app.open","occurred_at":"\#(iso.string(from: now))","properties":{"screen":"feed"}}]}"#,
            "POST /api/v1/notifications/seen": #"{"up_to":"\#(post.id)"}"#,
            "POST /api/v1/notifications/read": #"{"up_to":"\#(post.id)"}"#,
            "PUT /api/v1/notifications/preferences": """
            {"types":{"kudos":"enabled"},"quiet_hours":{"enabled":true,"start":"22:00","end":"07:00",\
            "time_zone":"Europe/Berlin","allowed_types":["follow"]}}
            """,
            "POST /api/v1/notifications/devices": #"{"token":"\#(device)"}"#,
            "DELETE /api/v1/notifications/devices": #"{"token":"\#(device)"}"#,
            "POST /api/v1/notifications/web-push": webPush,
            "POST /api/v1/notifications/web-push/unsubscribe": #"{"endpoint":"https://push.example.net/send/abc"}"#,
            "POST /api/v1/media":
                #"{"content_type":"image/jpeg","byte_size":1000,"purpose":"post","description":"Mile 3."}"#,
            "PATCH /api/v1/media/{id}": #"{"description":"Mile 3.","focus":{"x":0,"y":0.5}}"#,
            "POST /api/v1/nostr/keys": #"{"event":\#(nostrLink.json)}"#,
            "POST /api/v1/groups":
                #"{"name":"Club","description":"Runs.","access":"open","time_zone":"Europe/Berlin"}"#,
            "PATCH /api/v1/groups/{id}":
                #"{"name":"Club","description":"Runs.","access":"open","time_zone":"Europe/Berlin"}"#,
            "POST /api/v1/groups/join": #"{"code":"\#(link.code ?? "")"}"#,
            "POST /api/v1/groups/{id}/invitations": #"{"username":"bea","expires_in":3600}"#,
            "PATCH /api/v1/groups/{id}/members/{user_id}": #"{"role":"admin"}"#,
            "POST /api/v1/groups/{id}/transfer": #"{"user_id":"\#(bea)"}"#,
            "POST /api/v1/groups/{id}/seen": #"{"up_to":"\#(groupPost.id)"}"#,
            "POST /api/v1/me/children": #"{"name":"Lou","birth_year":2019}"#,
            "PATCH /api/v1/me/children/{id}": #"{"name":"Lou","birth_year":2019}"#,
            "POST /api/v1/me/children/{id}/guardians": #"{"username":"bea"}"#,
            "POST /api/v1/me/device-chain": #"{"statement":\#(statement)}"#,
            "PUT /api/v1/me/recovery-kit": #"{"kit":"\#(b64(120))"}"#,
            "POST /api/v1/groups/{id}/e2e/chain":
                #"{"statements":[\#(statement)],"epoch":{"number":0,"keys":[\#(deviceKey)]}}"#,
            "POST /api/v1/groups/{id}/e2e/keys":
                #"{"keys":[{"device_id":"\#(UUID().uuidString.lowercased())","epoch":0,"key":"\#(b64(113))"}]}"#,
            "POST /api/v1/posts/{id}/tombstone": #"{"statement":\#(statement)}"#,
            "POST /api/v1/me/device-requests": newDevice,
        ]
        return RequestFixture(
            token: token,
            parameters: [
                "username": "bea", "comment_id": comment.id.description, "tag": "legday", "group_key": "follow-x",
                "token": device, "author": "ana", "q": "squat", "type": "posts",
                "cursor": PageRequest.encode(post.id.rawValue), "since": PageRequest.encode(post.id.rawValue),
                "pubkey": nostrLink.pubkey.rawValue, "user_id": bea.description, "code": link.code ?? "",
                "invitation_id": link.id.description, "order": "top", "device_id": UUID().uuidString.lowercased(),
                "blob": UUID().uuidString.lowercased(),
            ],
            postID: post.id, exerciseID: exercise.id, workoutTemplateID: template.id, mediaID: upload.id,
            groupID: group.id, encryptedGroupID: encrypted.id, childID: child.id,
            bodies: bodies)
    }

    /// The good request of `field`'s operation, with `control` put into the middle of `field`'s value.
    func request(for field: OpenAPITextField, inserting control: String) throws -> Request {
        let operation = "\(field.method) \(field.path)"
        var path = field.path
        for name in Self.parameterNames(in: path) {
            let value = try parameter(name, in: field.path)
            let sent = field.place == .path && field.field == name ? Self.inserting(control, into: value) : value
            path = path.replacingOccurrences(of: "{\(name)}", with: Self.percentEncoded(sent))
        }
        var query: [String] = []
        if field.place == .query {
            query.append(
                "\(field.field)=\(Self.percentEncoded(Self.inserting(control, into: try parameter(field.field))))")
            if field.field != "q", field.path == "/api/v1/search" { query.append("q=squat") }
        }
        let uri = query.isEmpty ? path : "\(path)?\(query.joined(separator: "&"))"
        guard field.place == .body else {
            return Request(uri: uri, body: bodies[operation], field: field.field)
        }
        guard let baseline = bodies[operation] else {
            throw MissingBaseline(description: "no good body for \(operation): add one to RequestFixture")
        }
        var json = try JSONSerialization.jsonObject(with: Data(baseline.utf8))
        let components = Self.components(of: field.field, in: json)
        let value = Self.value(at: components[...], in: json) as? String ?? "ab"
        json = Self.setting(Self.inserting(control, into: value), at: components[...], in: json)
        let body = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        return Request(uri: uri, body: body, field: Self.fieldName(components))
    }

    private func parameter(_ name: String, in path: String = "") throws -> String {
        if name == "id" {
            if path.hasPrefix("/api/v1/exercises") { return exerciseID.description }
            if path.hasPrefix("/api/v1/workout-templates") { return workoutTemplateID.description }
            if path.hasPrefix("/api/v1/media") { return mediaID.description }
            if path.hasPrefix("/api/v1/groups"), path.contains("/e2e") { return encryptedGroupID.description }
            if path.hasPrefix("/api/v1/groups") { return groupID.description }
            if path.hasPrefix("/api/v1/me/children") || path.hasPrefix("/api/v1/me/guardian-invitations") {
                return childID.description
            }
            return postID.description
        }
        guard let value = parameters[name] else {
            throw MissingBaseline(description: "no good value for parameter \(name): add one to RequestFixture")
        }
        return value
    }

    struct MissingBaseline: Error, CustomStringConvertible {
        let description: String
    }

    private static func parameterNames(in path: String) -> [String] {
        path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
    }

    static func inserting(_ control: String, into value: String) -> String {
        guard !value.isEmpty else { return "a\(control)b" }
        let middle = value.index(value.startIndex, offsetBy: value.count / 2)
        return String(value[..<middle]) + control + String(value[middle...])
    }

    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? text
    }

    // MARK: JSON paths

    private enum Component {
        case key(String)
        case index(Int)
    }

    /// `workout.exercises[0].name` as keys and indexes; `*` becomes the first key the good body has there.
    private static func components(of field: String, in json: Any) -> [Component] {
        var components: [Component] = []
        for part in field.split(separator: ".") {
            var name = Substring(part)
            var indexes: [Int] = []
            while let open = name.lastIndex(of: "["), name.hasSuffix("]") {
                indexes.insert(Int(name[name.index(after: open)..<name.index(before: name.endIndex)]) ?? 0, at: 0)
                name = name[..<open]
            }
            if name == "*" {
                let map = value(at: components[...], in: json) as? [String: Any]
                components.append(.key(map?.keys.sorted().first ?? "key"))
            } else {
                components.append(.key(String(name)))
            }
            components += indexes.map(Component.index)
        }
        return components
    }

    private static func fieldName(_ components: [Component]) -> String {
        components.reduce(into: "") { name, component in
            switch component {
            case .key(let key): name += name.isEmpty ? key : ".\(key)"
            case .index(let index): name += "[\(index)]"
            }
        }
    }

    private static func value(at path: ArraySlice<Component>, in node: Any?) -> Any? {
        guard let first = path.first else { return node }
        switch first {
        case .key(let key): return value(at: path.dropFirst(), in: (node as? [String: Any])?[key])
        case .index(let index):
            guard let array = node as? [Any], array.indices.contains(index) else { return nil }
            return value(at: path.dropFirst(), in: array[index])
        }
    }

    private static func setting(_ text: String, at path: ArraySlice<Component>, in node: Any?) -> Any {
        guard let first = path.first else { return text }
        switch first {
        case .key(let key):
            var object = node as? [String: Any] ?? [:]
            object[key] = setting(text, at: path.dropFirst(), in: object[key])
            return object
        case .index(let index):
            var array = node as? [Any] ?? []
            let element = array.indices.contains(index) ? array[index] : nil
            let changed = setting(text, at: path.dropFirst(), in: element)
            if array.indices.contains(index) { array[index] = changed } else { array.append(changed) }
            return array
        }
    }
}
