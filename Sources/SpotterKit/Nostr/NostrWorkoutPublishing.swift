import Foundation
import SpotterModels
import SpotterNostr

/// How a device posts its person's public workouts as Nostr events: signed here with the person's key
/// (`NostrSigner`), mapped as NIP-101e's kind 1301 workout record, and queued to every relay through the
/// durable `NostrPublisher`. Spotter's relay turns the event into the post; external relays carry it to the
/// rest of Nostr. The server never signs for anyone.
///
/// Only a **public workout without photos** goes this way, and only when the key on this device is the one
/// linked to the account signed in here (`NostrPublisher.linkedKey`, recorded by `NostrPublisher.link`). Workouts
/// with photos, notes (kind `note` posts) and followers-only or private posts go through REST as before:
/// photos need the upload queue, and a signed event on a relay is public by nature.
///
/// ```swift
/// let nostr = NostrWorkoutPublishing(signer: NostrSigner(store: KeychainNostrKeyStore()), publisher: publisher)
/// try await publisher.link(nostr.signer, using: client)     // once: signs the server's challenge
/// let compose = ComposeWorkoutViewModel(client: client, outbox: outbox, nostr: nostr)
/// ```
public struct NostrWorkoutPublishing: Sendable {
    public let signer: any NostrSigning
    public let publisher: NostrPublisher

    public init(signer: any NostrSigning, publisher: NostrPublisher) {
        self.signer = signer
        self.publisher = publisher
    }

    /// Whether `request` goes out as a signed event: a public workout outside any group, no photos, and this
    /// device's key is the account's linked key.
    public func takes(_ request: CreatePostRequest, photos: Int = 0) async -> Bool {
        guard photos == 0, (request.mediaIDs ?? []).isEmpty, request.kind == .workout, request.workout != nil,
            (request.visibility ?? .public) == .public, request.groupID == nil  // a group's post is its members'
        else { return false }
        guard let key = try? await signer.publicKey, let linked = try? await publisher.linkedKey else { return false }
        return key == linked
    }

    /// Signs the workout's kind 1301 event and queues it to every relay (committed before this returns); the
    /// caller drains. The post's text goes in the event's content when the workout has no notes of its own,
    /// its `#tags` become `t` tags, and NIP-89's `["client", "Spotter"]` is added unless the person switched
    /// it off.
    @discardableResult
    public func publish(_ request: CreatePostRequest, at now: Date = Date()) async throws -> NostrEvent {
        guard var workout = request.workout else { throw NostrPublishingError.notAWorkout }
        let text = (request.text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if (workout.notes ?? "").isEmpty && !text.isEmpty { workout.notes = text }
        let author = try await signer.publicKey
        var (tags, content) = NIP101e.workoutRecordEvent(
            workout, identifier: UUID().uuidString.lowercased(), author: author, hashtags: Self.hashtags(in: text))
        if try await publisher.includesClientTag { tags.append(["client", "Spotter"]) }
        let event = try await signer.sign(
            kind: .workoutRecord, tags: tags, content: content, createdAt: Int64(now.timeIntervalSince1970))
        try await publisher.enqueue(event, post: request)
        return event
    }

    /// The `#tags` of a post's text, lower-cased, once each, in order.
    static func hashtags(in text: String) -> [String] {
        var seen: Set<String> = []
        return text.split(whereSeparator: { $0.isWhitespace }).compactMap { word -> String? in
            guard word.hasPrefix("#") else { return nil }
            let tag = word.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }.lowercased()
            guard !tag.isEmpty, seen.insert(tag).inserted else { return nil }
            return tag
        }
    }
}

public enum NostrPublishingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Only a workout post maps to a kind 1301 event.
    case notAWorkout

    public var description: String { "only a workout can be published as a Nostr workout record" }
}
