import Foundation
import SpotterModels

/// `GET /api/v1/search?q=…&type=users|tags|posts|groups&cursor=…`.
///
/// People are found by username or display name, by prefix, substring, or with a typo; the database gives
/// candidates that share letter triples with the query, and `NameMatch` orders them: exact, then prefix,
/// then by edit distance. People whose bio holds the words follow. Groups are the ones anyone may find
/// (`GroupService.discover`, the same rule as `GET /groups?q=`). One kind pages on (`SearchCursor`): a page
/// of the ranking at a time, to `SearchCursor.maxOffset`.
public struct SearchService: Sendable {
    public enum Kind: String, Sendable, CaseIterable { case users, tags, posts, groups }

    public static let defaultLimit = 10
    let storage: any SpotterStorage

    /// Fills in photo URLs for the viewer; `nil` leaves them empty.
    let links: MediaLinks?

    /// Finds groups; `nil` finds none.
    let groups: GroupService?

    public init(storage: any SpotterStorage, links: MediaLinks? = nil, groups: GroupService? = nil) {
        self.storage = storage
        self.links = links
        self.groups = groups
    }

    /// - Parameter cursor: the `next_cursor` of the page before, for more of one kind (`type` is then required).
    public func search(
        query: String?, type: String?, limit: String?, cursor: String? = nil, viewer: AccountRecord?
    ) async throws
        -> SearchResults
    {
        let query = try TextInput.checked(query ?? "", field: "q")
        guard TextLength.isName(query, maxLength: 100) else {
            throw SpotterError.malformed(detail: "q must be 1 to 100 characters of text.", field: "q")
        }
        let q = query.trimmingCharacters(in: .whitespacesAndNewlines)
        let kinds: [Kind]
        if let type {
            guard let kind = Kind(rawValue: type) else {
                throw SpotterError.malformed(detail: "type must be users, tags, posts or groups.", field: "type")
            }
            kinds = [kind]
        } else {
            kinds = Kind.allCases
        }
        let count = try PageRequest(limit: limit, cursor: nil, since: nil).limit
        let offset = try Self.offset(PageRequest.given(cursor), type: type)
        // One more than the page, to tell whether more follow; none past `SearchCursor.maxOffset`.
        let window = offset + count + 1
        var results = SearchResults()
        var found = 0
        for kind in kinds {
            switch kind {
            case .users:
                // The 50 nearest names whatever the page, so their ranking, and each page of it, stays put.
                let candidates = try await storage.search.users(matching: q, viewer: viewer?.id, limit: 50)
                // Names first (they say who someone is), then people whose bio has the words.
                var people = NameMatch.rank(candidates, query: q)
                if people.count < window {
                    let named = Set(people.map(\.id))
                    let byBio = try await storage.search.users(withBio: q, viewer: viewer?.id, limit: window)
                    people += byBio.filter { !named.contains($0.id) }
                }
                found = people.count
                results.users = Self.page(people, offset, count).map(\.summary)
            case .tags:
                let prefix = q.hasPrefix("#") ? String(q.dropFirst()).lowercased() : q.lowercased()
                if !prefix.isEmpty {
                    let tags = try await storage.search.tags(prefix: prefix, viewer: viewer?.id, limit: window)
                    found = tags.count
                    results.tags = Self.page(tags, offset, count)
                }
            case .posts:
                let posts = try await storage.search.posts(matching: q, viewer: viewer?.id, limit: window)
                found = posts.count
                let page = Self.page(posts, offset, count)
                results.posts = try await links?.linked(page) ?? page
            case .groups:
                let groups = try await groups?.discover(q, viewer: viewer, limit: window) ?? []
                found = groups.count
                results.groups = Self.page(groups, offset, count)
            }
        }
        if let type, found > offset + count, offset + count <= SearchCursor.maxOffset {
            results.hasMore = true
            results.nextCursor = SearchCursor.at(offset + count, of: type)
        }
        return results
    }

    /// Where the page starts in the ranking: 0 without a cursor. A cursor pages one kind, so it needs `type`,
    /// and the kind it was given for.
    static func offset(_ cursor: String?, type: String?) throws -> Int {
        guard let cursor else { return 0 }
        guard let offset = SearchCursor.offset(in: cursor, of: type ?? "") else {
            // A cursor of some kind, given without its type, is the type's fault; anything else, the cursor's.
            if type == nil, Kind.allCases.contains(where: { SearchCursor.offset(in: cursor, of: $0.rawValue) != nil }) {
                throw SpotterError.malformed(detail: "A cursor pages one kind: give type too.", field: "type")
            }
            throw SpotterError.malformed(detail: "cursor is not a cursor this server gave out.", field: "cursor")
        }
        return offset
    }

    private static func page<Item>(_ ranked: [Item], _ offset: Int, _ count: Int) -> [Item] {
        Array(ranked.dropFirst(offset).prefix(count))
    }
}

/// Orders name-search candidates; pure.
public enum NameMatch {
    public static func rank(_ accounts: [AccountRecord], query: String) -> [AccountRecord] {
        let q = query.lowercased().hasPrefix("@") ? String(query.lowercased().dropFirst()) : query.lowercased()
        return accounts.map { (account: $0, score: score($0, q)) }
            .filter { $0.score < Int.max }
            .sorted { ($0.score, $0.account.username.lowercased()) < ($1.score, $1.account.username.lowercased()) }
            .map(\.account)
    }

    /// Lower is better: 0 exact username, 1 username prefix, 2 display-name word prefix, 3 substring,
    /// then 10 + edit distance for near misses; `Int.max` for no resemblance.
    static func score(_ account: AccountRecord, _ q: String) -> Int {
        let username = account.username.lowercased()
        let display = account.displayName.lowercased()
        if username == q { return 0 }
        if username.hasPrefix(q) { return 1 }
        if display.split(separator: " ").contains(where: { $0.hasPrefix(q) }) { return 2 }
        if username.contains(q) || display.contains(q) { return 3 }
        // Compare with each name's start at about the query's length, so "marahton" is one swap from
        // "marathon_mike" rather than six edits from the whole name.
        let nearest =
            ([username] + display.split(separator: " ").map(String.init))
            .flatMap { name in
                [q.count - 1, q.count, q.count + 1].map { editDistance(q, String(name.prefix(max(1, $0)))) }
            }
            .min() ?? Int.max
        let allowed = q.count <= 4 ? 1 : 2
        return nearest <= allowed ? 10 + nearest : Int.max
    }

    /// Damerau–Levenshtein (optimal string alignment) distance: a swapped pair of letters is one typo.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
