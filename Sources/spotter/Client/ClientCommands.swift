import ArgumentParser
import Foundation
import SpotterImaging
import SpotterKit
import SpotterModels

/// Where the terminal client keeps its state: `$SPOTTER_HOME`, else `$XDG_CONFIG_HOME/spotter`, else
/// `$HOME/.config/spotter`.
struct ClientHome {
    let folder: URL

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let home = environment["SPOTTER_HOME"], !home.isEmpty {
            folder = URL(fileURLWithPath: home)
        } else if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            // The XDG Base Directory spec ignores a relative path.
            folder = URL(fileURLWithPath: config).appendingPathComponent("spotter")
        } else {
            // `$HOME` first: on Linux, FileManager's home directory is the password file's, whatever `HOME` says.
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            folder = (home ?? FileManager.default.homeDirectoryForCurrentUser).appendingPathComponent(".config/spotter")
        }
    }

    var tokens: FileTokenStore { FileTokenStore(path: sessionPath) }
    private var sessionPath: String { folder.appendingPathComponent("session.json").path }
    /// Whether a `spotter login` left a session here (the server may still have ended it since).
    var hasSession: Bool { FileManager.default.fileExists(atPath: sessionPath) }
    var outboxPath: String { folder.appendingPathComponent("outbox.sqlite").path }
    private var serverFile: URL { folder.appendingPathComponent("server") }

    /// The server remembered by the last `spotter login`.
    var rememberedServer: String? {
        (try? String(contentsOf: serverFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func remember(server: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(server.utf8).write(to: serverFile)
    }
}

/// `--server`, shared by the client commands: given, else remembered, else the local default.
struct ClientOptions: ParsableArguments {
    @Option(help: "The Spotter server (default: the one from `spotter login`, else http://localhost:8080).")
    var server: String?

    func client(_ home: ClientHome = ClientHome()) throws -> SpotterClient {
        let address = server ?? home.rememberedServer ?? "http://localhost:8080"
        guard let url = URL(string: address), url.scheme == "http" || url.scheme == "https" else {
            throw ValidationError("--server must be an http or https URL, not \(address).")
        }
        return SpotterClient(baseURL: url, tokens: home.tokens)
    }

    /// The outbox. A command that adds to it is refused before anything is queued when nobody is signed in:
    /// what it queued could never be sent.
    func outbox(_ home: ClientHome = ClientHome(), requiringSession: Bool = true) throws -> ActionQueue {
        if requiringSession, !home.hasSession { throw NotSignedIn() }
        try FileManager.default.createDirectory(at: home.folder, withIntermediateDirectories: true)
        return try ActionQueue(path: home.outboxPath, client: try client(home))
    }

    /// Posts with photos, kept in the outbox's file; refused as `outbox` is when nobody is signed in.
    func uploads(_ home: ClientHome = ClientHome(), requiringSession: Bool = true) throws -> UploadQueue {
        if requiringSession, !home.hasSession { throw NotSignedIn() }
        try FileManager.default.createDirectory(at: home.folder, withIntermediateDirectories: true)
        return try UploadQueue(path: home.outboxPath, client: try client(home), photos: VipsPhotoPreparer())
    }
}

/// Photos made ready on this machine before they are queued (`PhotoPreparing`), by libvips: what the Nova
/// seed's app does with ImageIO.
struct VipsPhotoPreparer: PhotoPreparing {
    func prepare(_ photo: PhotoToUpload) async throws -> PhotoToUpload {
        // What libvips cannot read goes as it is: the server refuses it with its reason, named by photo.
        guard
            let fitted = try? ClientPhoto.fitted(
                photo.data, maxSide: PhotoPreparation.maxSide, quality: PhotoPreparation.quality)
        else { return photo }
        var prepared = photo
        prepared.data = fitted
        prepared.contentType = "image/jpeg"
        return prepared
    }
}

/// `spotter login`: signs in and remembers the server and the session (in a file only you can read).
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Sign in to a Spotter server.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "Your username or email.") var login: String
    @Option(help: "Your password (asked for when left out; env SPOTTER_PASSWORD).") var password: String?

    func run() async throws {
        let home = ClientHome()
        let secret =
            password ?? ProcessInfo.processInfo.environment["SPOTTER_PASSWORD"]
            ?? String(cString: getpass("Password: "))
        let account = try await options.client(home).signIn(login: login, password: secret)
        try home.remember(server: options.server ?? home.rememberedServer ?? "http://localhost:8080")
        print("Signed in as @\(account.username).")
    }
}

/// `spotter feed [following|featured|global]`: a page of a feed, newest first.
struct Feed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show a feed.")
    enum Which: String, ExpressibleByArgument, CaseIterable { case following, featured, global }

    @OptionGroup var options: ClientOptions
    @Argument(help: "following, featured or global.") var which: Which = .following
    @Option(help: "Posts to show (1 to 50).") var limit = 20

    func run() async throws {
        let kind: FeedKind =
            switch which {
            case .following: .following
            case .featured: .featured
            case .global: .global
            }
        let page = try await options.client().feed(kind, limit: limit)
        if page.items.isEmpty { print("Nothing here yet.") }
        // Encrypted groups' posts are opened here when this terminal holds their keys (`SealedPostText`).
        let groups = page.items.contains { $0.sealed != nil } ? try? options.encryptedGroups() : nil
        for post in page.items { print(await SealedPostText.render(post, opening: groups)) }
    }
}

/// `spotter kudos <post id>` (or `--undo`): through the outbox, so it is kept and sent later when offline.
struct Kudos: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Give kudos to a post (or take them back).")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The post's id.") var post: String
    @Flag(help: "Take kudos back.") var undo = false

    func run() async throws {
        guard let id = PostID(post) else { throw ValidationError("\(post) is not a post id.") }
        let outbox = try options.outbox()
        let queued = try await outbox.enqueue(.setKudos(id, given: !undo))
        try await OutboxReport.drainAndReport(outbox, sending: queued)
    }
}

/// `spotter post <text> [--photo run.jpg --alt "…"]…`: a note, through the outbox; with photos, through the
/// upload queue (`PhotoPost`).
struct PostNote: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "post", abstract: "Post a note, with photos.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The text; #tags and @mentions are linked.") var text: String
    @Option(help: "A photo to post with it (JPEG, PNG, WebP or HEIC); up to 4, in order.") var photo: [String] = []
    @Option(help: "Alt text for the photo in the same place (the first --alt for the first --photo).")
    var alt: [String] = []

    func validate() throws {
        guard photo.count <= 4 else { throw ValidationError("A post takes at most 4 photos.") }
        guard alt.count <= photo.count else { throw ValidationError("Each --alt describes a --photo before it.") }
    }

    func run() async throws {
        if !photo.isEmpty {
            return try await PhotoPost.run(
                CreatePostRequest(kind: .note, text: text), photos: try PhotoPost.read(photo, alt: alt),
                options: options)
        }
        let outbox = try options.outbox()
        let queued = try await outbox.enqueue(.createPost(CreatePostRequest(kind: .note, text: text)))
        try await OutboxReport.drainAndReport(outbox, sending: queued)
    }
}

/// `spotter outbox`: sends what waits now, without waiting out its backoff (only a rate limit's time is
/// kept), then lists what still waits, with why and when it is tried next, and what the server refused.
struct Outbox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Send pending actions now, and list what is left.")
    @OptionGroup var options: ClientOptions
    @Option(help: "Put a failed action back in line (its #number).") var retry: Int64?
    @Option(help: "Drop an action for good (its #number).") var discard: Int64?

    func run() async throws {
        let outbox = try options.outbox(requiringSession: false)
        if let retry { try await outbox.retry(retry) }
        if let discard { try await outbox.discard(discard) }
        let actions = try await OutboxReport.drainAndReport(outbox, listing: true)
        let uploads = try await PhotoPost.report(options.uploads(requiringSession: false), listing: true)
        let nostr = try options.nostrPublisher()
        await nostr.drain(ignoringBackoff: true)
        let published = try await nostr.pending
        for queued in published { print(NostrPublishReport.describe(queued, now: Date())) }
        if actions.count + uploads + published.count == 0 { print("Nothing waiting to be sent.") }
        if actions.needsSignIn { throw ExitCode.failure }
    }
}

/// `spotter tail`: live posts from the community feed until interrupted.
struct Tail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Follow new posts live.")
    @OptionGroup var options: ClientOptions
    @Option(help: "The topic (community:feed, or feed:<your user id>).") var topic = "community:feed"

    func run() async throws {
        let client = try options.client()
        guard let topic = RealtimeTopic(topic) else {
            throw ValidationError("\(topic) is not a topic: community:feed, or feed:<your user id>.")
        }
        let live = RealtimeClient(baseURL: client.baseURL) { try await client.currentAccessToken() }
        await live.join(topic)
        let groups = try? options.encryptedGroups()
        for await event in live.events {
            switch event {
            case .newPost(let post, _): Self.write(await SealedPostText.render(post, opening: groups))
            case .connection(let up): FileHandle.standardError.write(Data((up ? "live\n" : "offline…\n").utf8))
            case .reset: Self.write("(too much missed; run `spotter feed` to catch up)")
            case .push: break
            }
        }
    }

    /// Writes a line straight to the output, unbuffered: `spotter tail > file` (or into a pipe, where `print`
    /// would hold lines until exit) shows each post as it comes.
    static func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

enum PostText {
    static func render(_ post: Post) -> String {
        var lines = ["@\(post.author.username) · \(post.id)"]
        if let workout = post.workout {
            lines.append("  \(workout.type.label) · \(workout.title): \(summary(of: workout))")
        }
        if !post.text.isEmpty { lines.append("  \(post.text)") }
        lines.append(
            "  \(post.kudosCount) kudos\(post.kudosedByMe ? " (yours)" : "") · "
                + Plural.count(post.commentsCount, "comment"))
        return lines.joined(separator: "\n")
    }

    /// "3 exercises", "1 exercise"; a single cardio exercise by its numbers: "5.2 km · 30:45 · 5:55 /km".
    static func summary(of workout: WorkoutRecord) -> String {
        if workout.exercises.count == 1, let cardio = workout.exercises[0].cardio {
            let parts = [
                cardio.distanceM.map { CardioText.distance($0, unit: .km) },
                cardio.durationS > 0 ? CardioText.clock(cardio.durationS) : nil, CardioText.pace(cardio, unit: .km),
            ]
            return "\(workout.exercises[0].name) " + parts.compactMap { $0 }.joined(separator: " · ")
        }
        return Plural.count(workout.exercises.count, "exercise")
    }
}
