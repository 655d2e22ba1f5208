import Foundation
import SpotterCore
import SpotterModels

/// The large club `spotter bench feeds` times a group's pages on: an open group ("Bench Club") whose members
/// are the first `members` seeded accounts, with `posts` notes by them over the last 60 days. Made once, with
/// the bulk loader, and found again by name in a kept database.
enum BenchClub {
    static let name = "Bench Club"

    static func prepare(
        storage: any SpotterStorage, bulk: any BulkLoading, accounts: Int, members: Int, posts: Int,
        random: inout SeededGenerator
    ) async throws -> GroupID {
        if let found = try await storage.groups.discoverable(matching: name, limit: 1).first, found.name == name {
            return found.id
        }
        let count = min(members, accounts)
        var people: [UserID] = []
        for number in 0..<count {
            guard let account = try await storage.accounts.find(username: Seeder.username(number))
            else { continue }
            people.append(account.id)
        }
        guard let owner = people.first else { throw BenchClubError.noAccounts }
        let now = Date()
        let group = GroupRecord(
            id: .generate(at: now), name: name, description: "Every seeded athlete's club.", avatarURL: nil,
            timeZone: "UTC", access: .open, ownerID: owner, createdAt: now.addingTimeInterval(-61 * 86_400))
        try await storage.groups.create(group)
        let joined = group.createdAt
        for start in stride(from: 1, to: people.count, by: 5_000) {
            try await bulk.loadGroupMembers(
                people[start..<min(start + 5_000, people.count)].map { (group.id, $0, .member, joined) })
        }
        var made = 0
        let span = 60.0 * 86_400
        while made < posts {
            let batch = min(10_000, posts - made)
            // Oldest first within the window, so ids rise with time as they do for posts made live.
            let records = (0..<batch).map { offset -> PostRecord in
                let index = made + offset
                let createdAt = now.addingTimeInterval(-span + span * Double(index) / Double(posts))
                let text = "Club session \(index)"
                return PostRecord(
                    id: PostID(rawValue: UUIDv7.make(at: createdAt, using: &random)),
                    authorID: people[Int.random(in: 0..<people.count, using: &random)], kind: .note, text: text,
                    visibility: .group, workout: nil, records: [], hashtags: [], mentions: [],
                    textHash: PostService.textHash(text), inGlobal: false, performedAt: createdAt,
                    createdAt: createdAt, groupID: group.id)
            }
            try await bulk.loadPosts(records)
            made += batch
            ProgressBar.write("\(name): \(made) of \(posts) posts\r")
        }
        ProgressBar.write("\n")
        return group.id
    }

    enum BenchClubError: Error { case noAccounts }
}
