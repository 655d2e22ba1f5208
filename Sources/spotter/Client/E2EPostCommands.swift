import ArgumentParser
import Foundation
import SpotterCore
import SpotterE2E
import SpotterImaging
import SpotterKit
import SpotterModels

/// `spotter e2e post <group> [text] [--photo f.jpg …] [--for <child>] [--title … --exercise …]`: a post sealed
/// on this terminal, a workout when it has a title or exercises (written as `spotter log-workout` takes them).
///
/// Each photo is made into its renditions here, by libvips, before it is encrypted: the server cannot
/// process what it cannot read, so it is here that the photo loses its metadata (GPS among it) and gets a
/// thumbnail. A workout goes inside the sealed body (docs/encryption.md), as every client writes it.
///
///     spotter e2e post Family "Felt strong" --title "Leg day" --exercise "Back Squat: 100x5, 100x5"
struct E2EPost: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Post to an encrypted group (a note or a workout), sealed on this terminal.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument
    @Argument(help: "What to say.") var text = ""
    @Option(name: .customLong("photo"), help: "A photo to attach (repeat for more).") var photos: [String] = []
    @Option(name: .customLong("for"), help: "A child profile you manage, by name (repeat for more).")
    var children: [String] = []
    @OptionGroup var workoutFlags: WorkoutFlags

    func validate() throws {
        guard !text.isEmpty || !photos.isEmpty || workoutFlags.saysAnything else {
            throw ValidationError("Say something, add a --photo, or log a workout with --title and --exercise.")
        }
        try workoutFlags.check()
    }

    /// The workout the flags describe, done now unless they say when, or `nil` when they describe none. Its
    /// time is the one given (or the cardio's), never a number nobody typed: read as `spotter log-workout` reads
    /// the same flags.
    func workout(now: Date) throws -> WorkoutRecord? {
        guard workoutFlags.saysAnything else { return nil }
        let exercises = try workoutFlags.exercises(orNames: [workoutFlags.title ?? "Run"])
        guard !exercises.isEmpty else {
            throw ValidationError("A workout needs an --exercise, like \"Back Squat: 100x5\".")
        }
        let times = try workoutFlags.times(from: nil, now: now)
        let isCardio = try workoutFlags.cardio() != nil
        return WorkoutRecord(
            title: workoutFlags.title ?? exercises[0].name, type: workoutFlags.type ?? (isCardio ? .cardio : .strength),
            startTime: times.start, endTime: times.end, exercises: exercises)
    }

    func run() async throws {
        let workout = try workout(now: Date())
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
            try await groups.post(text: text, workout: workout, photos: sealedPhotos, childIDs: childIDs, to: id)
        }
        let what = workout == nil ? "post" : "workout"
        print("sent: sealed \(what) with \(Plural.count(sealedPhotos.count, "photo")) as \(post.id)")
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
        for post in page.items { print(await SealedPostText.render(post, opening: groups)) }
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
