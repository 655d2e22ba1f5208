import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterE2E
import SpotterModels
import SpotterTestSupport
import Testing

/// A new device asking one of its person's devices to add it (docs/encryption.md, "Approving a new device"):
/// the server keeps the request for the person's own sessions only, for fifteen minutes, once; it never signs.
@Suite("Device requests over HTTP")
struct E2EDeviceRequestAPITests {
    /// A laptop's public registration, as a new device sends it.
    static func laptop(_ name: String = "Ana's laptop") -> (DeviceKeys, CreateE2EDeviceRequest) {
        let keys = DeviceKeys()
        let device = E2EDevice(
            id: UUIDv7.make(), name: name, hpkePublic: Base64URL.encode(keys.hpkePublic),
            signingPublic: Base64URL.encode(keys.signingPublic))
        return (keys, CreateE2EDeviceRequest(device: device))
    }

    static func requests(_ api: APIClient, token: String) async throws -> [E2EDeviceRequest] {
        let response = try await api.call(.get, "/api/v1/me/device-requests", token: token)
        guard response.status == .ok else { throw UnexpectedStatus(response: response) }
        return try response.decode(E2EDeviceRequests.self).items
    }

    @Test(
        "only the person's own sessions see or remove their requests; another account gets 404; approval uses one up",
        arguments: StorageBackend.available)
    func permissions(database: StorageBackend) async throws {
        try await TestApp.run(database) { api in
            // Given Ana with her phone, a second session of hers on a new laptop, and Ben
            let ana = try await api.e2ePerson("ana")
            let laptopSession = try await api.signin("ana").decode(TokenResponse.self).accessToken
            let ben = try await api.e2ePerson("ben")

            // When the laptop asks to be added
            let (laptopKeys, ask) = Self.laptop()
            let made = try await api.call(.post, "/api/v1/me/device-requests", token: laptopSession, body: ask)
            #expect(made.status == .created)
            let request = try made.decode(E2EDeviceRequest.self)
            // Then it waits fifteen minutes, carrying the laptop's public keys as sent
            #expect(request.device == ask.device)
            #expect(request.expiresAt.timeIntervalSince(request.createdAt) == 15 * 60)
            // And Ana's phone session sees it, listed and by id
            #expect(try await Self.requests(api, token: ana.token) == [request])
            let one = try await api.call(
                .get, "/api/v1/me/device-requests/\(UUIDText.format(request.id))", token: ana.token)
            #expect(try one.decode(E2EDeviceRequest.self) == request)

            // When Ben lists his, reads hers by id, or removes it; or someone signed out asks
            let bens = try await Self.requests(api, token: ben.token)
            let read = try await api.call(
                .get, "/api/v1/me/device-requests/\(UUIDText.format(request.id))", token: ben.token)
            let removed = try await api.call(
                .delete, "/api/v1/me/device-requests/\(UUIDText.format(request.id))", token: ben.token)
            let signedOut = try await api.call(.get, "/api/v1/me/device-requests")
            // Then he sees nothing and is told it does not exist, and it is still Ana's
            #expect(bens.isEmpty)
            #expect(read.status == .notFound && removed.status == .notFound)
            #expect(signedOut.status == .unauthorized)
            #expect(try await Self.requests(api, token: ana.token).map(\.id) == [request.id])
            // Nor can Ben add her laptop's keys to his own chain by asking for the same device
            let stolen = try await api.call(.post, "/api/v1/me/device-requests", token: ben.token, body: ask)
            #expect(stolen.status == .conflict)

            // When her phone signs the laptop in
            let chain = try await api.chain("/api/v1/me/device-chain", token: ana.token)
            let registration = laptopKeys.registration(id: ask.device.id, name: ask.device.name)
            let added = try ana.signer.sign(
                .addDevice(registration), on: .device(user: ana.id.rawValue), after: chain.last, at: api.now)
            let appended = try await api.call(
                .post, "/api/v1/me/device-chain", token: ana.token, body: E2EStatementRequest(statement: added.wire))
            #expect(appended.status == .created)
            // Then the request is used up: listed nowhere, 404 by id, for the laptop's session too
            #expect(try await Self.requests(api, token: laptopSession).isEmpty)
            let after = try await api.call(
                .get, "/api/v1/me/device-requests/\(UUIDText.format(request.id))", token: laptopSession)
            #expect(after.status == .notFound)
            // And asking again for the same device, now in the chain, is a conflict
            let again = try await api.call(.post, "/api/v1/me/device-requests", token: laptopSession, body: ask)
            #expect(again.status == .conflict)

            // When another new device asks and Ana declines it from her phone
            let (_, tablet) = Self.laptop("tablet")
            let waiting = try await api.call(.post, "/api/v1/me/device-requests", token: laptopSession, body: tablet)
                .decode(E2EDeviceRequest.self)
            let path = "/api/v1/me/device-requests/\(UUIDText.format(waiting.id))"
            #expect(try await api.call(.delete, path, token: ana.token).status == .noContent)
            // Then it is gone, and removing it again is a 404
            #expect(try await api.call(.get, path, token: laptopSession).status == .notFound)
            #expect(try await api.call(.delete, path, token: ana.token).status == .notFound)
        }
    }

    @Test(
        "a request is gone after fifteen minutes; a bad one is refused naming the field; five wait at most",
        arguments: StorageBackend.available)
    func rules(database: StorageBackend) async throws {
        try await TestApp.run(database) { api in
            // Given Ana with her phone, and a request from her laptop
            let ana = try await api.e2ePerson("ana")
            let (_, ask) = Self.laptop()
            let request = try await api.call(.post, "/api/v1/me/device-requests", token: ana.token, body: ask)
                .decode(E2EDeviceRequest.self)
            let path = "/api/v1/me/device-requests/\(UUIDText.format(request.id))"

            // When fifteen minutes pass
            api.clock.advance(by: 14 * 60)
            #expect(try await api.call(.get, path, token: ana.token).status == .ok)
            api.clock.advance(by: 61)
            // Then it is gone: not listed, not read, not removed (a new session: access tokens last 15 minutes too)
            let token = try await api.signin("ana").decode(TokenResponse.self).accessToken
            #expect(try await Self.requests(api, token: token).isEmpty)
            #expect(try await api.call(.get, path, token: token).status == .notFound)
            #expect(try await api.call(.delete, path, token: token).status == .notFound)
            // And the same device may ask again
            let again = try await api.call(.post, "/api/v1/me/device-requests", token: token, body: ask)
            #expect(again.status == .created)

            // When a request is for a recovery key, carries a key that is no P-256 point, or a name of two lines
            let (_, good) = Self.laptop()
            var recovery = good
            recovery.device.recovery = true
            var notAPoint = good
            notAPoint.device.hpkePublic = Base64URL.encode(Data(repeating: 7, count: 65))
            var twoLines = good
            twoLines.device.name = "Ana's\nlaptop"
            var unnamed = good
            unnamed.device.name = " "
            // Then each is a 422 naming the field, and none waits
            for (body, field) in [
                (recovery, "device.recovery"), (notAPoint, "device.hpke_public"), (twoLines, "device.name"),
                (unnamed, "device.name"),
            ] {
                let refused = try await api.call(.post, "/api/v1/me/device-requests", token: token, body: body)
                #expect(refused.status == .unprocessableContent)
                #expect(try refused.problem().errors?.map(\.field) == [field])
            }
            #expect(try await Self.requests(api, token: token).count == 1)

            // When a device asks with the id of Ana's phone, then it is a conflict
            var phoneID = good
            phoneID.device.id = ana.deviceID
            let taken = try await api.call(.post, "/api/v1/me/device-requests", token: token, body: phoneID)
            #expect(taken.status == .conflict)
            #expect(try taken.problem().errors?.map(\.field) == ["device.id"])

            // When Cyd, who has no device yet, asks: then she is told to make this one her first
            let cyd = try await api.user("cyd")
            let first = try await api.call(.post, "/api/v1/me/device-requests", token: cyd, body: good)
            #expect(first.status == .conflict)
            #expect(try first.problem().detail?.contains("first") == true)

            // When four more of Ana's devices ask, then the sixth is refused
            for index in 0..<4 {
                let made = try await api.call(
                    .post, "/api/v1/me/device-requests", token: token, body: Self.laptop("device \(index)").1)
                #expect(made.status == .created)
            }
            let sixth = try await api.call(
                .post, "/api/v1/me/device-requests", token: token, body: Self.laptop("one too many").1)
            #expect(sixth.status == .unprocessableContent)
            #expect(try sixth.problem().errors?.map(\.field) == ["device"])
            #expect(try await Self.requests(api, token: token).count == 5)
        }
    }

    @Test(
        "the web app's /e2e/me/device-requests take the session and the page's CSRF token, and answer problem+json",
        arguments: StorageBackend.available)
    func webRoutes(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana signed in to the web app, with no device yet
            var ana = WebBrowser(api)
            try await ana.signUp("ana")
            let body = String(decoding: try JSONEncoder().encode(Self.laptop().1), as: UTF8.self)
            // When her page asks without the CSRF token, then nothing runs
            let forged = try await WebE2ETests.json(&ana, .post, "/e2e/me/device-requests", body, csrf: false)
            #expect(forged.status == .forbidden)
            // When it asks with it, then the service answers, as problem+json: she has no device to approve it
            let asked = try await WebE2ETests.json(&ana, .post, "/e2e/me/device-requests", body)
            #expect(asked.status == .conflict)
            #expect(asked.headers[.contentType] == "application/problem+json")
            // And her list is there, empty
            let listed = try await WebE2ETests.json(&ana, .get, "/e2e/me/device-requests")
            #expect(listed.status == .ok && listed.text == #"{"items":[]}"#)
        }
    }
}
