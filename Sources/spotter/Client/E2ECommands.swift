import ArgumentParser
import Foundation
import SpotterCore
import SpotterE2E
import SpotterImaging
import SpotterKit
import SpotterModels

/// `spotter e2e …`: this terminal as a device of encrypted groups (docs/encryption.md). Its keys live in
/// `<client home>/e2e/` as a 0600 file and never leave it.
struct E2ECommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "e2e", abstract: "Encrypted groups: this device's keys, and the groups' posts.",
        subcommands: [
            E2ERegister.self, E2ERequests.self, E2EApprove.self, E2EDecline.self, E2EDevices.self, E2ERevoke.self,
            E2ERecoveryKey.self, E2ERestore.self,
            E2ECreate.self, E2ESync.self, E2EPost.self, E2EFeed.self, E2ESafety.self,
        ])
}

extension ClientOptions {
    /// This terminal's encrypted groups, with its keys in the client's home folder.
    func encryptedGroups(_ home: ClientHome = ClientHome()) throws -> EncryptedGroups {
        EncryptedGroups(
            client: try client(home),
            store: FileDeviceKeyStore(directory: home.folder.appendingPathComponent("e2e").path),
            database: try AppDatabase(path: home.outboxPath))
    }
}

/// Runs `body`, saying a refusal in one line (the server's words, or the client's) and exiting with failure.
func e2eRefusals<T>(_ body: () async throws -> T) async throws -> T {
    do { return try await body() } catch let error as SpotterClientError {
        print("refused: \(error.problem?.explanation ?? error.description)")
        throw ExitCode.failure
    } catch let error as EncryptedGroupsError {
        print("refused: \(error)")
        throw ExitCode.failure
    }
}

/// `spotter e2e register [--name …] [--no-wait]`: makes this terminal's keys and signs it in as a device: the
/// first one, or one that another device of yours approves with the code this prints.
struct E2ERegister: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Make this terminal a device of yours (its keys stay here); with devices elsewhere, one approves it.")
    @OptionGroup var options: ClientOptions
    @Option(help: "What to call this device.") var name = "terminal"
    @Flag(help: "With devices elsewhere: print the code and exit, rather than wait for the approval.") var noWait =
        false

    func run() async throws {
        let groups = try options.encryptedGroups()
        let first = try await e2eRefusals { () async throws -> SpotterE2E.DeviceRegistration? in
            do { return try await groups.registerDevice(name: name) } catch EncryptedGroupsError.alreadyHasDevices {
                return nil
            }
        }
        guard let first else { return try await E2EApproval.ask(groups, name: name, wait: !noWait) }
        print("This terminal is your device \(first.name): \(UUIDText.format(first.id))")
    }
}

/// `spotter e2e devices`: my devices, as my verified device chain says.
struct E2EDevices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "List your live devices.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let groups = try options.encryptedGroups()
        let devices = try await e2eRefusals { try await groups.myDevices() }
        let this = try? await groups.identity().deviceID
        for device in devices {
            let kind = device.recovery ? " (recovery key)" : device.id == this ? " (this terminal)" : ""
            print("\(device.name)\(kind) · \(UUIDText.format(device.id))")
        }
    }
}

/// `spotter e2e revoke <device id>`: a lost device; its groups' keys rotate.
struct E2ERevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke a lost device; every group it was in gets a new key.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The device's id (`spotter e2e devices`).") var device: String

    func run() async throws {
        guard let id = UUIDText.parse(device) else { throw ValidationError("\(device) is not a device id.") }
        let groups = try options.encryptedGroups()
        try await e2eRefusals { try await groups.revokeDevice(id) }
        print("Revoked. An admin's device makes each of its groups' next key when it next syncs.")
    }
}

/// `spotter e2e recovery-key`: 24 words, shown once.
struct E2ERecoveryKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recovery-key",
        abstract: "Make a recovery key: 24 words that restore your groups on a new device (your safety number changes)."
    )
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let groups = try options.encryptedGroups()
        print("A recovery key counts as one of your devices. \(SafetyNumberChange.notice)\n")
        let key = try await e2eRefusals { try await groups.makeRecoveryKey() }
        let words = key.words
        print("Write these 24 words down and keep them safe. They are shown this once:\n")
        for (index, line) in stride(from: 0, to: words.count, by: 6).enumerated() {
            print("  \(index * 6 + 1).\t" + words[line..<min(line + 6, words.count)].joined(separator: " "))
        }
        print("\n" + key.safetyNumber.summary)
    }
}

/// `spotter e2e restore "<24 words>"`: this terminal becomes a device through the recovery key.
struct E2ERestore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Make this terminal a device with your recovery key's 24 words.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The 24 words, in one argument.") var words: String
    @Option(help: "What to call this device.") var name = "terminal"

    func run() async throws {
        let groups = try options.encryptedGroups()
        let device = try await e2eRefusals { try await groups.restore(words: words, deviceName: name) }
        print("Restored: this terminal is your device \(device.name): \(UUIDText.format(device.id))")
    }
}

/// `spotter e2e create --name … [--history]`: an encrypted group, private, its first key from this device.
struct E2ECreate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create an encrypted group (private; only members' devices read it).")
    @OptionGroup var options: ClientOptions
    @Option(help: "The group's name.") var name: String
    @Option(help: "A description (not encrypted).") var description: String?
    @Flag(help: "New members may read posts from before they joined.") var history = false

    func run() async throws {
        let groups = try options.encryptedGroups()
        let group = try await e2eRefusals {
            try await groups.createGroup(name: name, description: description, history: history)
        }
        print("Created \(group.name) (encrypted): \(group.id)")
    }
}

/// `spotter e2e sync <group>`: what this device should do for the group: add members the server let in, make
/// the next key after someone left or a device was revoked, give my other devices their keys.
struct E2ESync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Bring an encrypted group's keys up to date from this device.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument

    func run() async throws {
        let groups = try options.encryptedGroups()
        let id = try await target.resolve(groups.client)
        let report = try await e2eRefusals { try await groups.reconcile(id) }
        var said: [String] = []
        if !report.added.isEmpty { said.append("added \(Plural.count(report.added.count, "member"))") }
        if !report.removed.isEmpty { said.append("removed \(Plural.count(report.removed.count, "member"))") }
        if !report.roleChanged.isEmpty {
            said.append("followed the group's roles for \(Plural.count(report.roleChanged.count, "member"))")
        }
        if let epoch = report.newEpoch { said.append("made key \(epoch)") }
        if report.keysForMyDevices > 0 {
            said.append("gave your devices \(Plural.count(report.keysForMyDevices, "key"))")
        }
        print(said.isEmpty ? "Up to date." : said.joined(separator: "; ").capitalizedFirst + ".")
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
