import ArgumentParser
import Foundation
import SpotterKit
import SpotterModels
import SpotterNostr

extension ClientHome {
    /// The Nostr secret key: a 0600 file in a 0700 folder of its own (`FileNostrKeyStore`).
    var nostrKeyPath: String { folder.appendingPathComponent("nostr/secret.key").path }
    var nostrSigner: NostrSigner { NostrSigner(store: FileNostrKeyStore(path: nostrKeyPath)) }
}

extension ClientOptions {
    /// The Nostr publication queue, in the outbox's file, for the server's relay and the ones added.
    func nostrPublisher(_ home: ClientHome = ClientHome()) throws -> NostrPublisher {
        try FileManager.default.createDirectory(at: home.folder, withIntermediateDirectories: true)
        return NostrPublisher(database: try AppDatabase(path: home.outboxPath), server: try client(home).baseURL)
    }
}

/// `spotter nostr …`: the Nostr key on this computer, the relays workouts go to, and how far they got.
struct NostrCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nostr", abstract: "Your Nostr key, its link to your account, and the relays you publish to.",
        subcommands: [
            NostrKeygen.self, NostrImport.self, NostrShow.self, NostrLink.self, NostrUnlink.self, NostrRelays.self,
            NostrPublishStatus.self, NostrClientTag.self,
        ])
}

/// `spotter nostr keygen`: a new key, kept in a file only you can read.
struct NostrKeygen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen", abstract: "Make a new Nostr key on this computer.")
    @Flag(help: "Replace the key already here (it is lost unless you kept a copy).") var force = false

    func run() async throws {
        let home = ClientHome()
        let signer = home.nostrSigner
        let present = try await signer.hasKey
        if !force && present {
            throw ValidationError("There is a key here already (\(try await signer.publicKey)); --force replaces it.")
        }
        let key = try await signer.generate()
        print("New key: \(NostrKeyText.public(key))")
        print("Kept in \(home.nostrKeyPath) (only you can read it). `spotter nostr link` links it to your account.")
    }
}

/// `spotter nostr import <nsec|hex>`: a key you already have (asked for when left out, so it stays out of the
/// shell's history).
struct NostrImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Keep a Nostr key you already have (nsec or hex) on this computer.")
    @Argument(help: "The secret key (asked for when left out; env SPOTTER_NOSTR_KEY).") var key: String?
    @Flag(help: "Replace the key already here.") var force = false

    func run() async throws {
        let home = ClientHome()
        let signer = home.nostrSigner
        let present = try await signer.hasKey
        if !force && present {
            throw ValidationError("There is a key here already (\(try await signer.publicKey)); --force replaces it.")
        }
        let secret =
            key ?? ProcessInfo.processInfo.environment["SPOTTER_NOSTR_KEY"]
            ?? String(cString: getpass("Secret key (nsec or hex): "))
        do {
            let publicKey = try await signer.importKey(secret)
            print("Imported: \(NostrKeyText.public(publicKey)), kept in \(home.nostrKeyPath).")
        } catch let error as NostrSignerError {
            throw ValidationError(error.description)
        }
    }
}

/// `spotter nostr show`: the public key only, as an `npub`.
struct NostrShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show your Nostr public key.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let home = ClientHome()
        guard try await home.nostrSigner.hasKey else {
            throw ValidationError("No Nostr key here; `spotter nostr keygen` or `spotter nostr import` makes one.")
        }
        let key = try await home.nostrSigner.publicKey
        print(NostrKeyText.public(key))
        let linked = try await options.nostrPublisher(home).linkedKey
        print(linked == key ? "Linked to your account: your public workouts are signed here." : "Not linked.")
    }
}

/// `spotter nostr relays add|remove|list`.
struct NostrRelays: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relays", abstract: "The relays your workouts go to, besides Spotter's own.",
        subcommands: [Add.self, Remove.self, List.self], defaultSubcommand: List.self)

    static func relay(_ text: String) throws -> NostrRelayURL {
        guard let relay = NostrRelayURL(text) else {
            throw ValidationError("\(text) is not a relay address: write wss://host (or ws:// for a local one).")
        }
        return relay
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Publish to this relay too.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "wss://relay.example") var url: String

        func run() async throws {
            let relay = try NostrRelays.relay(url)
            let added = try await options.nostrPublisher().addRelay(relay)
            print(added ? "Added \(relay)." : "\(relay) is there already.")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop publishing to this relay.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "wss://relay.example") var url: String

        func run() async throws {
            let relay = try NostrRelays.relay(url)
            let publisher = try options.nostrPublisher()
            guard relay != publisher.spotterRelay else {
                throw ValidationError("\(relay) is Spotter's own relay: your workouts always go there.")
            }
            let removed = try await publisher.removeRelay(relay)
            print(removed ? "Removed \(relay)." : "\(relay) was not in the list.")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the relays.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let publisher = try options.nostrPublisher()
            for relay in try await publisher.relays {
                print(relay == publisher.spotterRelay ? "\(relay) (Spotter's)" : relay.description)
            }
        }
    }
}

/// `spotter nostr client-tag on|off`: whether signed workouts say they came from Spotter (NIP-89).
struct NostrClientTag: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client-tag", abstract: "Whether your signed workouts carry [\"client\",\"Spotter\"] (NIP-89).")
    enum Setting: String, ExpressibleByArgument, CaseIterable { case on, off }
    @OptionGroup var options: ClientOptions
    @Argument(help: "on or off (left out: show it).") var setting: Setting?

    func run() async throws {
        let publisher = try options.nostrPublisher()
        if let setting { try await publisher.setIncludesClientTag(setting == .on) }
        print("Client tag: \(try await publisher.includesClientTag ? "on" : "off").")
    }
}

/// `spotter nostr publish-status`: sends what waits now, then where each signed event stands on each relay.
struct NostrPublishStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish-status", abstract: "Send signed events that wait, and show where each one stands.")
    @OptionGroup var options: ClientOptions
    @Flag(help: "Show delivered events too.") var all = false

    func run() async throws {
        let publisher = try options.nostrPublisher()
        await publisher.drain(ignoringBackoff: true)
        let events = try await all ? publisher.all : publisher.pending
        if events.isEmpty { print(all ? "Nothing published from here yet." : "Nothing waits.") }
        for queued in events { print(NostrPublishReport.describe(queued, now: Date())) }
    }
}

enum NostrKeyText {
    /// A public key as people share it.
    static func `public`(_ key: NostrPublicKey) -> String {
        (try? NIP19Entity.publicKey(key).encode()) ?? key.rawValue
    }
}

enum NostrPublishReport {
    static func describe(_ queued: NostrQueuedEvent, now: Date) -> String {
        let what =
            queued.post?.workout.map { "workout \"\($0.title.prefix(40))\"" } ?? "kind \(queued.event.kind.rawValue)"
        var lines = ["\(what) · \(queued.event.id.rawValue.prefix(12))"]
        for row in queued.publications {
            let state =
                switch row.state {
                case .delivered: "delivered"
                case .refused: "refused: \(row.message ?? "")"
                case .pending:
                    row.nextAttempt.map {
                        "waiting (\(row.message ?? "not sent yet")); next try \(OutboxReport.time($0, from: now))"
                    } ?? "waiting (not sent yet)"
                }
            lines.append("  \(row.relay): \(state)")
        }
        return lines.joined(separator: "\n")
    }

    /// Drains and says in one line how the event just queued went.
    static func drainAndReport(_ publisher: NostrPublisher, event: NostrEvent) async throws {
        await publisher.drain(ignoringBackoff: true)
        guard let queued = try await publisher.all.first(where: { $0.event.id == event.id }) else { return }
        let delivered = queued.publications.filter { $0.state == .delivered }.count
        print("signed and sent to \(delivered) of \(queued.publications.count) relays")
        for row in queued.publications where row.state != .delivered {
            print("  \(row.relay): \(row.state == .refused ? "refused" : "waiting"): \(row.message ?? "")")
        }
        if queued.publications.contains(where: { $0.state == .pending }) {
            print("`spotter nostr publish-status` sends what waits.")
        }
        if queued.publications.contains(where: { $0.relay == publisher.spotterRelay && $0.state == .refused }) {
            throw ExitCode.failure
        }
    }
}

/// `spotter nostr link`: proves to the server that you hold the key (by signing its challenge here) and links
/// it to your account; from then on your public workouts can be signed here and published to your relays.
struct NostrLink: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link", abstract: "Link the key on this computer to your Spotter account.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let home = ClientHome()
        let key = try await options.nostrPublisher(home).link(home.nostrSigner, using: try options.client(home))
        print("Linked \(NostrKeyText.public(key)) to your account.")
    }
}

/// `spotter nostr unlink`: unlinks the key on this computer; it stays here.
struct NostrUnlink: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlink", abstract: "Unlink the key on this computer from your Spotter account.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let home = ClientHome()
        let signer = home.nostrSigner
        try await options.nostrPublisher(home).unlink(signer, using: try options.client(home))
        print("Unlinked \(NostrKeyText.public(try await signer.publicKey)); the key stays on this computer.")
    }
}

extension ClientOptions {
    /// The key on this computer with the publication queue: what signs and sends public workouts.
    func nostrPublishing(_ home: ClientHome = ClientHome()) throws -> NostrWorkoutPublishing {
        NostrWorkoutPublishing(signer: home.nostrSigner, publisher: try nostrPublisher(home))
    }
}
