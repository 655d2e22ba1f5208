import Foundation
import HTTPTypes
import SpotterCore
import SpotterModels
import SpotterNostr

extension APIClient {
    /// Links `key` to the account of `token` the way a device does: a challenge, answered by a signed event.
    func linkNostrKey(_ token: String, _ key: NostrSecretKey) async throws {
        let challenge = try await call(.post, "/api/v1/nostr/challenge", token: token).decode(NostrChallenge.self)
        let event = try NostrEvent.sign(
            kind: .clientAuthentication, tags: [["relay", challenge.relayURL], ["challenge", challenge.challenge]],
            content: "", createdAt: Int64(clock.now.timeIntervalSince1970), with: key)
        let response = try await call(.post, "/api/v1/nostr/keys", token: token, body: NostrLinkRequest(event: event))
        guard response.status == .created else { throw UnexpectedStatus(response: response) }
    }
}

/// Events as the tests make them.
enum TestEvents {
    static func now(_ api: APIClient) -> Int64 { Int64(api.clock.now.timeIntervalSince1970) }

    /// A 1301 workout record in NIP-101e's shape: one exercise, its sets as `exercise` tags.
    static func workoutTags(
        author: NostrPublicKey, title: String, start: Int64, sets: [(kg: Double, reps: Int)] = [(100, 5)],
        hashtags: [String] = ["fitness"]
    ) -> [[String]] {
        var tags: [[String]] = [
            ["d", UUID().uuidString.lowercased()], ["title", title], ["type", "strength"], ["start", "\(start)"],
            ["end", "\(start + 3600)"], ["completed", "true"],
        ]
        for set in sets {
            tags.append(["exercise", "33401:\(author.rawValue):back-squat", "", "\(set.kg)", "\(set.reps)", "8", "normal"])
        }
        tags += hashtags.map { ["t", $0] }
        return tags
    }

    static func note(_ key: NostrSecretKey, _ text: String, tags: [[String]] = [], at createdAt: Int64) throws
        -> NostrEvent
    {
        try NostrEvent.sign(kind: .textNote, tags: tags, content: text, createdAt: createdAt, with: key)
    }
}
