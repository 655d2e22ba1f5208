import ArgumentParser
import Foundation
import SpotterCore
import SpotterE2E
import SpotterImaging
import SpotterKit
import SpotterModels

/// `spotter e2e post <group> <text> [--photo f.jpg …] [--for <child>]`: a post sealed on this terminal.
///
/// Each photo is made into its renditions here, by libvips, before it is encrypted: the server cannot
/// process what it cannot read, so it is here that the photo loses its metadata (GPS among it) and gets a
/// thumbnail.
struct E2EPost: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Post to an encrypted group, sealed on this terminal.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument
    @Argument(help: "What to say.") var text: String
    @Option(name: .customLong("photo"), help: "A photo to attach (repeat for more).") var photos: [String] = []
    @Option(name: .customLong("for"), help: "A child profile you manage, by name (repeat for more).")
    var children: [String] = []

    func run() async throws {
        let groups = try options.encryptedGroups()
        let id = try await target.resolve(groups.client)
        let processor = VipsImageProcessor()
        var sealedPhotos: [EncryptedPhoto] = []
        for photo in try PhotoPost.read(photos, alt: []) {
            let processed: ProcessedImage
            do {
                processed = try await processor.process(photo.data, limits: ImageLimits())
            } catch let error as ImageRefusal {
                print("refused: \(error.reason)")
                throw ExitCode.failure
            }
            sealedPhotos.append(
                EncryptedPhoto(
                    data: processed.large, thumbnail: processed.small, width: processed.width,
                    height: processed.height))
        }
        let childIDs = try await e2eRefusals { try await Self.children(children, client: groups.client) }
        let post = try await e2eRefusals {
            try await groups.post(text: text, photos: sealedPhotos, childIDs: childIDs, to: id)
        }
        print("sent: sealed post with \(Plural.count(sealedPhotos.count, "photo")) as \(post.id)")
    }

    /// The managed children named, by name (case folded), or a refusal naming the one not found.
    static func children(_ names: [String], client: SpotterClient) async throws -> [ChildProfileID] {
        guard !names.isEmpty else { return [] }
        let mine = try await client.children()
        return try names.map { name in
            guard let child = mine.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw ValidationError("You manage no child called \(name).")
            }
            return child.id
        }
    }
}

/// `spotter e2e feed <group>`: the group's posts, opened on this terminal.
struct E2EFeed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed", abstract: "Show an encrypted group's posts, opened on this terminal.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument
    @Option(help: "Posts to show (1 to 50).") var limit = 20

    func run() async throws {
        let groups = try options.encryptedGroups()
        let id = try await target.resolve(groups.client)
        let page = try await e2eRefusals { try await groups.client.groupPosts(id, limit: limit) }
        if page.items.isEmpty { print("Nothing here yet.") }
        for post in page.items {
            var lines = ["@\(post.author.username) · \(post.id)"]
            do {
                let body = try await groups.open(post)
                if !body.children.isEmpty { lines.append("  For \(body.children.map(\.name).joined(separator: ", "))") }
                if !body.text.isEmpty { lines.append("  \(body.text)") }
                if !body.media.isEmpty { lines.append("  \(Plural.count(body.media.count, "photo"))") }
            } catch {
                lines.append("  (this device cannot open it: \(error))")
            }
            lines.append(
                "  \(post.kudosCount) kudos\(post.kudosedByMe ? " (yours)" : "") · "
                    + Plural.count(post.commentsCount, "comment"))
            print(lines.joined(separator: "\n"))
        }
    }
}

/// `spotter e2e safety <group>`: each member's safety number, to compare in person.
struct E2ESafety: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "safety", abstract: "Show each member's safety number, to compare in person.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument

    func run() async throws {
        let groups = try options.encryptedGroups()
        let id = try await target.resolve(groups.client)
        let numbers = try await e2eRefusals { try await groups.safetyNumbers(id) }
        let members = try await e2eRefusals { try await groups.client.groupMembers(id).items }
        for member in members.sorted(by: { $0.person.username < $1.person.username }) {
            guard let number = numbers[member.person.id] else { continue }
            print("@\(member.person.username)\t\(number)")
        }
        print("\nCompare these with the people themselves: a number that changed means a new device.")
    }
}
