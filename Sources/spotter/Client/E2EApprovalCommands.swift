import ArgumentParser
import Foundation
import SpotterE2E
import SpotterKit
import SpotterModels

/// A new terminal of someone who has devices, approved from one of them (docs/encryption.md, "Approving a new
/// device"): `spotter e2e register` asks and shows a code; on another device, `spotter e2e approve <code>`
/// (or the web app's settings) signs it in.
enum E2EApproval {
    /// Asks the person's devices to approve this terminal, prints the code, and waits for the answer unless
    /// `wait` is false.
    static func ask(_ groups: EncryptedGroups, name: String, wait: Bool) async throws {
        let status = try await e2eRefusals { try await groups.requestApproval(name: name) }
        guard case .waiting(let request) = status else { return say(status) }
        let minutes = max(1, Int((request.expiresAt.timeIntervalSinceNow / 60).rounded(.up)))
        print(
            """
            Your account has devices already: one of them approves this terminal. On it, enter this code:

                \(request.code)

            In the web app: Settings, "Encryption: this browser". In a terminal: spotter e2e approve \(request.code)
            The request runs out in \(Plural.count(minutes, "minute")).
            """)
        guard wait else {
            print("Run `spotter e2e register` again once it is approved.")
            return
        }
        print("Waiting for the approval… (Ctrl-C stops waiting; `spotter e2e register` looks again.)")
        say(try await e2eRefusals { try await groups.waitForApproval() })
    }

    private static func say(_ status: DeviceApprovalStatus) {
        switch status {
        case .approved(let device):
            print("Approved: this terminal is your device \(device.name): \(UUIDText.format(device.id))")
        case .waiting(let request):
            print("Still waiting for a device of yours to enter \(request.code).")
        case .gone:
            print("The request was declined or ran out: run `spotter e2e register` to ask again.")
        }
    }
}

/// `spotter e2e requests`: my new devices waiting to be approved.
struct E2ERequests: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "requests", abstract: "List your new devices waiting to be approved from this one.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let groups = try options.encryptedGroups()
        let waiting = try await e2eRefusals { try await groups.waitingDevices() }
        guard !waiting.isEmpty else {
            print("No new device waits to be approved.")
            return
        }
        print("\(Plural.count(waiting.count, "new device")) \(waiting.count == 1 ? "waits" : "wait") to be approved:")
        for request in waiting {
            let left = max(1, Int((request.expiresAt.timeIntervalSinceNow / 60).rounded(.up)))
            print("  \(request.device.name) · runs out in \(left) min · request \(UUIDText.format(request.id))")
        }
        print(
            """
            Approve one with the code it shows: spotter e2e approve <code>. \(SafetyNumberChange.notice)
            Decline one with: spotter e2e decline <request>.
            """)
    }
}

/// `spotter e2e approve <code>`: signs in the new device that shows this code.
struct E2EApprove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve",
        abstract: "Approve a new device of yours with the code it shows (your safety number changes).")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The code the new device shows, such as K7QF-3MZX-9HDT.") var code: String

    func run() async throws {
        let groups = try options.encryptedGroups()
        let approval = try await e2eRefusals { try await groups.approveDevice(code: code) }
        print("Approved \(approval.device.name): it is your device now, with your groups' keys.")
        print(approval.safetyNumber.summary)
    }
}

/// `spotter e2e decline <request>`: a new device you do not know, or no longer want.
struct E2EDecline: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decline", abstract: "Decline a new device waiting to be approved.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The request's id (`spotter e2e requests`).") var request: String

    func run() async throws {
        guard let id = UUIDText.parse(request) else { throw ValidationError("\(request) is not a request id.") }
        let groups = try options.encryptedGroups()
        try await e2eRefusals { try await groups.client.removeDeviceRequest(id) }
        print("Declined. That device gets no keys.")
    }
}
