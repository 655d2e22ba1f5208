import Foundation
import SpotterCore
import SpotterE2E
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterKit

/// A second device approved from the first through the server, with the code it shows (docs/encryption.md,
/// "Approving a new device"), through `DeviceApprovalViewModel` as an app binds it, against a live server.
@Suite("Approving a new device against a live server")
struct DeviceApprovalLiveTests {
    typealias Device = EncryptedGroupsLiveTests.Device

    @Test(
        "the laptop shows a code, the phone approves with it, and the laptop opens the family's sealed post",
        arguments: StorageBackend.available)
    func approveWithTheCode(backend: StorageBackend) async throws {
        try await EncryptedGroupsLiveTests.withServer(on: backend) { url, clock in
            try await Self.approveWithTheCode(url, clock)
        }
    }

    @MainActor
    static func approveWithTheCode(_ url: URL, _ clock: ManualClock) async throws {
        // Given Ana's family group with Ben in it, and Ben's sealed photo post
        let (ana, ben, family) = try await EncryptedGroupsLiveTests.family(url, clock)
        let sent = try await ben.groups.post(
            text: "Sunday swim", photos: [EncryptedPhoto(data: EncryptedGroupsLiveTests.photo, width: 4, height: 3)],
            to: family.id)
        let anasNumber = try #require(try await ben.groups.safetyNumbers(family.id)[try await ana.id])

        // When Ana signs in on a new laptop and asks her devices to approve it
        let laptop = try await Device.signIn("ana", url, clock: clock)
        let laptopScreen = DeviceApprovalViewModel(groups: laptop.groups)
        await laptopScreen.requestApproval(name: "Ana's laptop")
        guard case .waiting(let request) = laptopScreen.status else {
            Issue.record("the laptop is not waiting: \(String(describing: laptopScreen.status))")
            return
        }
        // Then it shows its code, and opens nothing yet
        #expect(request.code.description.count == 14)
        await #expect(throws: (any Error).self) { try await laptop.groups.open(try await laptop.client.post(sent.id)) }

        // When her phone lists the new devices waiting
        let phoneScreen = DeviceApprovalViewModel(groups: ana.groups)
        await phoneScreen.loadWaiting()
        let waiting = try #require(phoneScreen.waiting.first)
        #expect(phoneScreen.waiting.map(\.device.id) == [request.device.id])

        // When she types another code, then nothing is signed, and the laptop still waits
        let otherCode = DeviceCode(
            userID: try await ana.id.rawValue, device: DeviceKeys().registration(id: UUID(), name: "x"))
        #expect(await phoneScreen.approve(waiting, code: otherCode.description) == false)
        #expect(phoneScreen.errorMessage?.contains("Nothing was signed") == true)
        await #expect(throws: EncryptedGroupsError.unreadableCode) { try await ana.groups.approveDevice(code: "12") }
        await #expect(throws: EncryptedGroupsError.wrongCode) {
            try await ana.groups.approveDevice(code: otherCode.description)
        }
        // And when the server puts keys of its own in the request, the laptop's own code signs nothing either
        let impostor = DeviceKeys()
        var swapped = waiting
        swapped.device.hpkePublic = Base64URL.encode(impostor.hpkePublic)
        swapped.device.signingPublic = Base64URL.encode(impostor.signingPublic)
        await #expect(throws: EncryptedGroupsError.wrongCode) {
            try await ana.groups.approveDevice(swapped, code: request.code.description)
        }
        #expect(try await ana.groups.myDevices().count == 1)
        await laptopScreen.checkApproval()
        #expect(laptopScreen.status == .waiting(request))

        // When she types the laptop's code, in lower case and spaced as she read it
        let typed = request.code.description.lowercased().replacingOccurrences(of: "-", with: " ")
        #expect(await phoneScreen.approve(waiting, code: typed))

        // Then the phone says how her safety number changed, and nothing waits any more
        let change = try #require(phoneScreen.safetyNumberChange)
        #expect(
            change.before
                == SafetyNumber(
                    userID: try await ana.id.rawValue, devices: [try await ana.groups.identity().registration]))
        #expect(change.after != change.before && change.summary.contains(change.after.description))
        #expect(phoneScreen.waiting.isEmpty && phoneScreen.errorMessage == nil)
        // And Ben sees the new number, as the phone said he would
        let benSees = try #require(try await ben.groups.safetyNumbers(family.id)[try await ana.id])
        #expect(benSees != anasNumber && benSees == change.after)

        // When the laptop looks again
        await laptopScreen.checkApproval()
        // Then it is approved, and opens Ben's post and photo
        #expect(laptopScreen.status == .approved(request.device))
        let post = try await laptop.groups.open(try await laptop.client.post(sent.id))
        #expect(post.text == "Sunday swim")
        #expect(
            try await laptop.groups.photo(try #require(post.media.first), in: family.id)
                == EncryptedGroupsLiveTests.photo)
        // And asking again answers that it is in
        #expect(try await laptop.groups.requestApproval(name: "Ana's laptop") == .approved(request.device))
    }

    @Test(
        "a declined request is gone, asked again it shows the same code, and it runs out after fifteen minutes",
        arguments: StorageBackend.available)
    func declinedAndExpired(backend: StorageBackend) async throws {
        try await LiveServer.run(on: backend) { url, clock in
            // Given Ana's phone, and a tablet of hers waiting
            let ana = try await Device.signUp("ana", url, clock: clock)
            let tablet = try await Device.signIn("ana", url, clock: clock)
            guard case .waiting(let first) = try await tablet.groups.requestApproval(name: "tablet") else {
                Issue.record("the tablet is not waiting")
                return
            }

            // When her phone declines it
            try await ana.groups.declineDevice(try #require(try await ana.groups.waitingDevices().first))
            // Then the tablet learns it is gone
            #expect(try await tablet.groups.approvalStatus() == .gone)

            // When the tablet asks again, then it waits with the same keys and code
            guard case .waiting(let second) = try await tablet.groups.requestApproval(name: "tablet") else {
                Issue.record("the tablet is not waiting again")
                return
            }
            #expect(second.code == first.code && second.requestID != first.requestID)
            #expect(try await tablet.groups.approvalStatus() == .waiting(second))

            // When sixteen minutes pass, then it ran out, and a code typed on the phone finds nothing to sign
            clock.advance(by: 16 * 60)
            #expect(try await tablet.groups.approvalStatus() == .gone)
            await #expect(throws: EncryptedGroupsError.wrongCode) {
                try await ana.groups.approveDevice(code: second.code.description)
            }

            // And someone with no device at all is told to make this one their first
            let cyd = try await Device.signUpWithoutDevice("cyd", url, clock: clock)
            await #expect(throws: EncryptedGroupsError.noDevicesYet) { try await cyd.groups.requestApproval(name: "x") }
        }
    }
}

extension EncryptedGroupsLiveTests.Device {
    /// Someone new, signed in, with no device registered.
    static func signUpWithoutDevice(_ name: String, _ url: URL, clock: ManualClock) async throws -> Self {
        let client = SpotterClient(baseURL: url)
        try await client.signUp(email: "\(name)@example.com", username: name, password: "correct horse battery")
        return Self(client, clock: clock)
    }
}
