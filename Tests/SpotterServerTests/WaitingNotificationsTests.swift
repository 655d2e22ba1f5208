import Foundation
import HTTPTypes
import SpotterCore
import SpotterE2E
import SpotterModels
import SpotterTestSupport
import Testing

/// People are told what waits for them: an invitation to look after a child, a member waiting for an encrypted
/// group's keys, a ban, and an approved follow request. Each is a type of its own, with its own preference.
@Suite("Notifications of what waits for people")
struct WaitingNotificationsTests {
    static let phone = String(repeating: "d4", count: 32)

    /// The inbox group of `type` (its wire name), if `token`'s person has one.
    static func told(_ api: APIClient, _ token: String, _ type: String) async throws -> NotificationGroup? {
        try await NotificationsAPITests.inbox(api, token).first { $0.type.rawValue == type }
    }

    /// Where the web app's inbox takes `username` when they open `group`.
    static func tapTarget(_ api: APIClient, _ username: String, _ group: NotificationGroup) async throws -> String? {
        var browser = WebBrowser(api)
        try await browser.get("/signin")
        let signedIn = try await browser.post(
            "/signin", [("login", username), ("password", "correct horse battery")])
        #expect(signedIn.status == .seeOther)
        return try await browser.get("/notifications/groups/\(group.groupKey)").headers[.location]
    }

    /// The push bodies that left for `device` when the queue ran now.
    static func pushes(_ api: APIClient, to device: String = phone) async throws -> [String] {
        let transport = RecordingTransport()
        try await NotificationDeliveryTests.runner(api, transport).runDue()
        return transport.sent.filter { $0.target == .apns(token: device) }.map(\.message.body)
    }

    @Test(
        "a co-guardian invitation reaches the invitee's inbox and phone, never naming the child",
        arguments: StorageBackend.available)
    func guardianInvitation(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana, who looks after Maya, and Bea with an iPhone
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            try await GroupNotificationTextTests.registerPhone(api, bea, Self.phone)
            let maya = try await api.call(
                .post, "/api/v1/me/children", token: ana, body: CreateChildProfileRequest(name: "Maya", birthYear: 2018)
            ).decode(ChildProfile.self)
            // When Ana invites Bea to look after her too (twice: the second tells nobody again)
            for _ in 0..<2 {
                let invited = try await api.call(
                    .post, "/api/v1/me/children/\(maya.id)/guardians", token: ana,
                    body: InviteGuardianRequest(username: "bea"))
                #expect(invited.status == .ok)
            }
            // Then Bea is told, once, without the child's name, in her inbox, in what is stored and on her phone
            let text = "ana invited you to be a guardian of a child in their household"
            let told = try #require(try await Self.told(api, bea, "guardian_invitation"))
            #expect(told.text == text && told.notificationsCount == 1)
            let details = try await GroupNotificationTextTests.storedDetails(
                api, try await api.userID("bea", token: ana))
            #expect(details.allSatisfy { !$0.contains("Maya") })
            #expect(try await Self.pushes(api) == [text])
            // And opening it leads to the invitations she can answer
            #expect(try await Self.tapTarget(api, "bea", told) == "/settings/children#child-invitations")
        }
    }

    @Test(
        "someone joining an encrypted group tells its owner and admins that keys wait to be shared",
        arguments: StorageBackend.available)
    func awaitingKeys(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's encrypted family (Ana with an iPhone) with Cara as an admin
            let ana = try await api.e2ePerson("ana")
            try await GroupNotificationTextTests.registerPhone(api, ana.token, Self.phone)
            let cara = try await api.e2ePerson("cara")
            let (group, _, _) = try await api.encryptedGroup("The Kellers", owner: ana)
            try await api.addMember(cara.token, username: "cara", to: group, admin: ana.token)
            let promoted = try await api.call(
                .patch, "/api/v1/groups/\(group.id)/members/\(cara.id)", token: ana.token,
                body: SetMemberRoleRequest(role: .admin))
            #expect(promoted.status == .noContent)
            _ = try await Self.pushes(api)  // what Cara's joining sent
            // When Ben joins by a link, and Dot by an invitation to her name
            let ben = try await api.e2ePerson("ben")
            try await api.addMember(ben.token, username: "ben", to: group, admin: ana.token)
            let dot = try await api.e2ePerson("dot")
            _ = try await api.invite(ana.token, group, username: "dot")
            try await api.joinGroup(dot.token, group)
            // Then the owner and the admin hear who waits, folded into one line (Ana also of Cara, who joined
            // before she was an admin), and are told what to do
            let folded = [
                ana.token: "dot and 2 others joined The Kellers and are waiting for keys: open the group to share them",
                cara.token: "dot and ben joined The Kellers and are waiting for keys: open the group to share them",
            ]
            for (token, text) in folded {
                #expect(try await Self.told(api, token, "group_awaiting_keys")?.text == text)
            }
            #expect(try await Self.told(api, ben.token, "group_awaiting_keys") == nil)
            #expect(try await Self.told(api, dot.token, "group_awaiting_keys") == nil)
            // And Ana's phone said so as each came
            #expect(
                Set(try await Self.pushes(api)) == [
                    "ben joined The Kellers and is waiting for keys: open the group to share them",
                    "dot joined The Kellers and is waiting for keys: open the group to share them",
                ])
            // And opening it leads to the group's page, where her device shares the keys
            let told = try #require(try await Self.told(api, ana.token, "group_awaiting_keys"))
            #expect(try await Self.tapTarget(api, "ana", told) == "/groups/\(group.id)")
            // And a group that is not encrypted has no keys to wait for
            let club = try await api.createGroup(ana.token, "Plain Family", access: .private)
            try await api.addMember(ben.token, username: "ben", to: club, admin: ana.token)
            let waiting = try await NotificationsAPITests.inbox(api, ana.token).filter {
                $0.type.rawValue == "group_awaiting_keys"
            }
            #expect(waiting.count == 1)
        }
    }

    @Test(
        "a member who joined before having a device: her first device tells the admins again that keys wait",
        arguments: StorageBackend.available)
    func firstDeviceAwaitsKeys(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's encrypted family, and Eve, who joins by a link from a browser that is no device yet
            let ana = try await api.e2ePerson("ana")
            try await GroupNotificationTextTests.registerPhone(api, ana.token, Self.phone)
            let (group, _, _) = try await api.encryptedGroup("The Kellers", owner: ana)
            let eve = try await api.user("eve")
            try await api.addMember(eve, username: "eve", to: group, admin: ana.token)
            #expect(
                try await Self.pushes(api) == [
                    "eve joined The Kellers and is waiting for keys: open the group to share them"
                ])
            // When Ana's device has not opened the group yet and Eve's browser registers its keys (her first device)
            let eveID = try await api.call(.get, "/api/v1/me", token: eve).decode(Account.self).id
            let laptop = E2EPerson(name: "eve", token: eve, id: eveID, deviceID: UUID(), keys: DeviceKeys())
            let first = try laptop.signer.sign(
                .addDevice(laptop.registration), on: .device(user: eveID.rawValue), after: nil, at: api.now)
            let added = try await api.call(
                .post, "/api/v1/me/device-chain", token: eve, body: E2EStatementRequest(statement: first.wire))
            #expect(added.status == .created)
            // Then Ana hears again that Eve waits: now there is a device to give the keys to
            #expect(
                try await Self.pushes(api) == [
                    "eve joined The Kellers and is waiting for keys: open the group to share them"
                ])
            #expect(try await Self.told(api, eve, "group_awaiting_keys") == nil)
        }
    }

    @Test("a ban says it is a ban; a removal stays a removal", arguments: StorageBackend.available)
    func banned(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Ana's team with Bea (with an iPhone) and Cyd in it
            let ana = try await api.user("ana")
            let bea = try await api.user("bea")
            let cyd = try await api.user("cyd")
            try await GroupNotificationTextTests.registerPhone(api, bea, Self.phone)
            let team = try await api.createGroup(ana, "Strength Team", access: .open)
            try await api.joinGroup(bea, team)
            try await api.joinGroup(cyd, team)
            // When Ana bans Bea and removes Cyd
            let beaID = try await api.userID("bea", token: ana)
            let cydID = try await api.userID("cyd", token: ana)
            #expect(
                try await api.call(.put, "/api/v1/groups/\(team.id)/bans/\(beaID)", token: ana).status == .noContent)
            #expect(
                try await api.call(.delete, "/api/v1/groups/\(team.id)/members/\(cydID)", token: ana).status
                    == .noContent)
            // Then Bea reads that she is banned, in the inbox and on her phone; Cyd that she was removed
            let ban = try #require(try await Self.told(api, bea, "group_banned"))
            #expect(ban.text == "You were banned from Strength Team")
            #expect(try await Self.told(api, bea, "group_removed") == nil)
            #expect(try await Self.told(api, cyd, "group_removed")?.text == "You were removed from Strength Team")
            #expect(try await Self.pushes(api) == ["You were banned from Strength Team"])
            #expect(try await Self.tapTarget(api, "bea", ban) == "/groups")
        }
    }

    @Test(
        "an approved follow request tells the person who asked; a denied one tells nobody",
        arguments: StorageBackend.available)
    func followApproved(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            // Given Cara, private, asked to follow by Ana (with an iPhone) and by Dan
            let ana = try await api.user("ana")
            let cara = try await api.user("cara")
            let dan = try await api.user("dan")
            try await GroupNotificationTextTests.registerPhone(api, ana, Self.phone)
            _ = try await api.call(.patch, "/api/v1/me", token: cara, json: #"{"privacy":"private"}"#)
            try await api.follow(ana, "cara")
            try await api.follow(dan, "cara")
            // When Cara approves Ana and denies Dan
            #expect(
                try await api.call(.post, "/api/v1/me/follow-requests/ana/approve", token: cara).status.code < 300)
            #expect(try await api.call(.post, "/api/v1/me/follow-requests/dan/deny", token: cara).status.code < 300)
            // Then Ana hears of it, in the inbox and on her phone, and opening it leads to Cara's profile
            let approved = try #require(try await Self.told(api, ana, "follow_request_approved"))
            #expect(approved.text == "cara approved your follow request")
            #expect(try await Self.pushes(api) == ["cara approved your follow request"])
            #expect(try await Self.tapTarget(api, "ana", approved) == "/u/cara")
            // And Dan hears nothing
            #expect(try await NotificationsAPITests.inbox(api, dan).isEmpty)
        }
    }

    @Test("each new type has its preference, on by default", arguments: StorageBackend.available)
    func preferences(backend: StorageBackend) async throws {
        try await TestApp.run(backend) { api in
            let ana = try await api.user("ana")
            let response = try await api.call(.get, "/api/v1/notifications/preferences", token: ana)
            let json = try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any]
            let types = json?["types"] as? [String: String] ?? [:]
            for type in ["guardian_invitation", "group_awaiting_keys", "group_banned", "follow_request_approved"] {
                #expect(types[type] == "enabled", "\(type)")
            }
        }
    }
}
