import Foundation
import SpotterModels
import SpotterNostr

/// Makes Spotter objects of the events linked keys publish to the relay: NIP-101e workouts (1301) become
/// public workout posts, exercise and workout templates (33401, 33402) templates, fitness-tagged notes (kind 1)
/// public notes; reactions (7) become kudos and NIP-22 comments (1111) comments on those posts; a deletion
/// request (5) deletes what its events became.
///
/// Everything goes through the services a person's own request goes through (`PostService`,
/// `TemplateService`), so the same validation, personal-record detection, rate limits, notifications, counts
/// and domain events apply. Each event is handled once: what it became is recorded (`NostrStore.recordImport`,
/// the event id the key) in the same unit of work as what it made, so a second call, or a second node racing
/// the first, makes nothing new.
///
/// The relay calls `handle(_:author:)` after it committed an event from a key linked to an account in good
/// standing; `handle(_:)` finds that account itself.
public struct NostrIngestService: Sendable {
    let storage: any SpotterStorage
    let clock: any WallClock
    let posts: PostService
    let templates: TemplateService
    let social: SocialService
    let accounts: AccountService?

    public init(
        storage: any SpotterStorage, clock: any WallClock, posts: PostService, templates: TemplateService,
        social: SocialService, accounts: AccountService? = nil
    ) {
        self.storage = storage
        self.clock = clock
        self.posts = posts
        self.templates = templates
        self.social = social
        self.accounts = accounts
    }

    /// Handles an event stored by the relay if its key is linked to an account in good standing; events of
    /// other keys make nothing (`.ignored`).
    @discardableResult
    public func handle(_ event: NostrEvent) async throws -> NostrIngestOutcome {
        guard let user = try await storage.nostr.owner(of: event.pubkey),
            let author = try await storage.accounts.find(id: user), author.suspendedAt == nil
        else { return .ignored }
        return try await handle(event, author: author)
    }

    /// Handles an event the relay committed from a key linked to `author`'s account.
    ///
    /// Returns what the event became; a refusal (`.refused`) is an event Spotter's rules turn away (a workout
    /// that fails validation, a reaction to something that is no post here), which stays on the relay as it is.
    @discardableResult
    public func handle(_ event: NostrEvent, author: AccountRecord) async throws -> NostrIngestOutcome {
        guard author.suspendedAt == nil else { return .ignored }
        guard Self.handledKinds.contains(event.kind) else { return .ignored }
        do {
            return try await attempt(event, author: author)
        } catch StorageError.duplicate(let field) where field == "event_id" {
            // Two versions of one template's address raced, and the other made its template first: this
            // version now updates that template.
            return try await attempt(event, author: author)
        }
    }

    private func attempt(_ event: NostrEvent, author: AccountRecord) async throws -> NostrIngestOutcome {
        if let record = try await storage.nostr.importRecord(of: event.id) { return .alreadyImported(record.target) }
        do {
            let target = try await storage.write { () async throws -> NostrImport.Target? in
                guard let target = try await make(event, author: author) else { return nil }
                try await storage.nostr.recordImport(
                    NostrImport(eventID: event.id, target: target, importedAt: clock.now))
                return target
            }
            return target.map(NostrIngestOutcome.imported) ?? .ignored
        } catch StorageError.duplicate(let field) where field == "event_id" {
            // Another call imported it in the meantime; its unit committed, this one rolled back.
            guard let record = try await storage.nostr.importRecord(of: event.id) else {
                throw StorageError.duplicate(field: field)
            }
            return .alreadyImported(record.target)
        } catch let error as NIP101eError {
            return .refused(error.description)
        } catch let error as SpotterError {
            return .refused(Self.reason(error))
        }
    }

    /// The kinds an event of a linked key may become something of.
    static let handledKinds: Set<NostrKind> = [
        .textNote, .deletion, .reaction, .comment, .workoutRecord, .exerciseTemplate, .workoutTemplate,
    ]

    /// What `event` becomes; `nil` when it is nothing Spotter keeps (a note without a fitness tag, a reaction
    /// to something that is no imported post), which is not recorded.
    private func make(_ event: NostrEvent, author: AccountRecord) async throws -> NostrImport.Target? {
        switch event.kind {
        case .workoutRecord: try await workoutPost(event, author: author)
        case .exerciseTemplate: try await exerciseTemplate(event, author: author)
        case .workoutTemplate: try await workoutTemplate(event, author: author)
        case .textNote: try await note(event, author: author)
        case .reaction: try await kudos(event, author: author)
        case .comment: try await comment(event, author: author)
        case .deletion: try await deletion(event, author: author)
        default: nil
        }
    }
}

extension NostrIngestService {
    /// A refusal as the relay may log it: the fields and rules broken, never the event's content.
    static func reason(_ error: SpotterError) -> String {
        switch error {
        case .validation(let problems): problems.map { "\($0.field) \($0.detail)" }.joined(separator: "; ")
        case .malformed(let detail, _), .unauthorized(let detail), .forbidden(let detail), .notFound(let detail),
            .conflict(_, let detail), .rateLimited(_, let detail, _), .unavailable(let detail):
            detail
        }
    }
}

/// What `NostrIngestService.handle` did with an event.
public enum NostrIngestOutcome: Sendable, Equatable {
    /// It became this (`.none`: handled, nothing of its own made, e.g. a deletion or a dislike).
    case imported(NostrImport.Target)
    /// It was handled before; nothing new was made.
    case alreadyImported(NostrImport.Target)
    /// Spotter's rules turned it away, for this reason; it was not recorded.
    case refused(String)
    /// Nothing is made of events of this kind, or of keys linked to no account in good standing.
    case ignored
}
