import Foundation
import SpotterModels
import SpotterNostr

/// What every `NostrStore` adapter keeps of an event besides its JSON, worked out once here so the SQLite and
/// PostgreSQL stores index, replace and delete by the same rules.
public struct NostrStoredForm: Sendable {
    public var event: NostrEvent
    /// The event as JSON, stored and decoded again as it is.
    public var json: String
    /// What identifies the one version kept of a replaceable (`""`) or addressable (its `d` tag) event, with
    /// its author and kind; `nil` for other kinds, of which every event is kept.
    public var replacementKey: String?
    /// The `(name, value)` pairs `#x` filters find the event by: the first value of every tag whose name is a
    /// single letter (NIP-01), each pair once, values longer than `maximumIndexedValue` bytes left out.
    public var indexedTags: [(name: String, value: String)]

    /// Longer tag values are not indexed (a `#x` filter does not find the event by them): PostgreSQL refuses
    /// B-tree entries over about 2.7 kB, and no filter names such a value in practice (ids, keys, addresses
    /// and hashtags are far shorter).
    public static let maximumIndexedValue = 1024

    /// `NostrStore.save` refuses ephemeral events: NIP-01 relays pass them to live subscriptions only, so a
    /// caller that saves one is mistaken, and says so early rather than answer `OK true` for a stored event
    /// that was never kept.
    public init(_ event: NostrEvent) throws {
        guard !event.kind.isEphemeral else { throw NostrStoreError.ephemeral(event.kind) }
        self.event = event
        json = event.json
        replacementKey = event.kind.isAddressable ? event.dTag : event.kind.isReplaceable ? "" : nil
        var seen = Set<String>()
        indexedTags = event.tags.compactMap { tag in
            guard tag.count > 1, tag[0].utf8.count == 1, let letter = tag[0].utf8.first,
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(letter)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(letter),
                tag[1].utf8.count <= Self.maximumIndexedValue, seen.insert(tag[0] + "\u{0}" + tag[1]).inserted
            else { return nil }
            return (tag[0], tag[1])
        }
    }

    /// Whether a stored version (`createdAt`, `id`) of the same replaceable or addressable event wins over this
    /// one: it is newer, or as new with the lower id (NIP-01).
    public func isSuperseded(byStored createdAt: Int64, id: String) -> Bool {
        createdAt > event.createdAt || (createdAt == event.createdAt && id < event.id.rawValue)
    }
}

/// What a NIP-09 deletion request names: event ids, and addresses whose versions up to its `created_at` go.
public struct NostrDeletionTargets: Sendable, Equatable {
    public struct Address: Sendable, Equatable {
        public var kind: NostrKind
        public var replacementKey: String
    }

    public var ids: [NostrEventID]
    /// Only the request's own author's addresses: a deletion never reaches another author's events.
    public var addresses: [Address]

    public init(_ deletion: NostrEvent) {
        ids = Array(Set(deletion.tagValues("e").compactMap(NostrEventID.init(rawValue:)))).sorted {
            $0.rawValue < $1.rawValue
        }
        addresses = deletion.tagValues("a").compactMap { value in
            // `<kind>:<pubkey>:<d>`; the d tag may itself hold colons.
            let parts = value.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, let number = Int(parts[0]), parts[1] == deletion.pubkey.rawValue else {
                return nil
            }
            let kind = NostrKind(number)
            if kind.isAddressable {
                return Address(kind: kind, replacementKey: parts.count > 2 ? String(parts[2]) : "")
            }
            if kind.isReplaceable { return Address(kind: kind, replacementKey: "") }
            return nil
        }
    }
}

extension NostrFilter {
    /// The words of a NIP-50 `search` the full-text index looks for, each as a prefix; `key:value` extensions
    /// are left out. Empty when there is no search or nothing in it to look for: the filter then has no search
    /// condition.
    public var searchWords: [String] {
        guard let search else { return [] }
        let plain = search.split(whereSeparator: \.isWhitespace).filter { !$0.contains(":") }.joined(separator: " ")
        return SearchTerms.words(plain)
    }

    /// Whether the filter can match no event at all (an empty list of ids, authors, kinds or tag values, or a
    /// `since` after its `until`), so a store need not ask the database.
    public var matchesNothing: Bool {
        if ids?.isEmpty == true || authors?.isEmpty == true || kinds?.isEmpty == true { return true }
        if tags.values.contains(where: \.isEmpty) { return true }
        if let since, let until, since > until { return true }
        return false
    }

    /// `min(limit, cap)`, or `cap` without a limit.
    public func effectiveLimit(cap: Int) -> Int { Swift.min(limit ?? cap, cap) }
}

/// Refusals of a `NostrStore` that are the caller's mistake.
public enum NostrStoreError: Error, Sendable, Equatable {
    /// Ephemeral kinds (20000–29999) are never stored.
    case ephemeral(NostrKind)
}

extension NostrImport.Target {
    /// The target as stored: what it is and up to two ids, the column values every adapter writes.
    public var stored: (kind: String, first: UUID?, second: UUID?) {
        switch self {
        case .post(let post): ("post", post.rawValue, nil)
        case .exerciseTemplate(let template): ("exercise_template", template.rawValue, nil)
        case .workoutTemplate(let template): ("workout_template", template.rawValue, nil)
        case .kudos(let post, let user): ("kudos", post.rawValue, user.rawValue)
        case .comment(let post, let comment): ("comment", post.rawValue, comment.rawValue)
        case .none: ("none", nil, nil)
        }
    }

    /// The target a stored row describes; `nil` for a row this version does not know.
    public init?(stored kind: String, first: UUID?, second: UUID?) {
        switch (kind, first, second) {
        case ("post", let post?, nil): self = .post(PostID(rawValue: post))
        case ("exercise_template", let id?, nil): self = .exerciseTemplate(ExerciseTemplateID(rawValue: id))
        case ("workout_template", let id?, nil): self = .workoutTemplate(WorkoutTemplateID(rawValue: id))
        case ("kudos", let post?, let user?): self = .kudos(PostID(rawValue: post), by: UserID(rawValue: user))
        case ("comment", let post?, let comment?): self = .comment(PostID(rawValue: post), CommentID(rawValue: comment))
        case ("none", nil, nil): self = .none
        default: return nil
        }
    }
}
