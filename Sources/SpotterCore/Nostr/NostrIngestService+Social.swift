import Foundation
import SpotterModels
import SpotterNostr

extension NostrIngestService {
    /// A kind 1 note with a fitness hashtag (a `t` tag among the fitness tags that put a note in the global
    /// feed, `PostService.Configuration.fitnessTags`: fitness, workout, running, run, gym, strength, cycling,
    /// lifting, training, …) as a public note; other notes make nothing.
    func note(_ event: NostrEvent, author: AccountRecord) async throws -> NostrImport.Target? {
        let hashtags = Self.hashtags(of: event)
        guard !posts.configuration.fitnessTags.isDisjoint(with: hashtags) else { return nil }
        let missing = Self.hashtagText(hashtags, besides: [event.content])
        let text = missing.isEmpty ? event.content : event.content + "\n\n" + missing
        let post = try await posts.create(
            CreatePostRequest(kind: .note, text: text, visibility: .public), author: author)
        return .post(post.id)
    }

    /// A kind 7 reaction to an imported post as kudos by the reactor's account. The reacted-to event is the
    /// last `e` tag (NIP-25); a `-` is a dislike, which Spotter has no place for.
    func kudos(_ event: NostrEvent, author: AccountRecord) async throws -> NostrImport.Target? {
        guard
            let target = event.tags.last(where: { $0.count > 1 && $0[0] == "e" }).flatMap({
                NostrEventID(rawValue: $0[1])
            }),
            case .post(let post)? = try await storage.nostr.importRecord(of: target)?.target
        else { return nil }
        guard event.content != "-" else { return NostrImport.Target.none }
        _ = try await posts.setKudos(post, on: true, viewer: author)
        return .kudos(post, by: author.id)
    }

    /// A NIP-22 comment (kind 1111) whose root is an imported post, as a comment by the commenter's account;
    /// a reply to an imported comment (its `e` parent) joins that comment's thread.
    func comment(_ event: NostrEvent, author: AccountRecord) async throws -> NostrImport.Target? {
        // NIP-22 names the root with `E`; clients that write NIP-10 threads name it with an `e` (marked root).
        let root =
            event.firstTagValue("E")
            ?? event.tags.first(where: { $0.count > 3 && $0[0] == "e" && $0[3] == "root" })?[1]
            ?? event.firstTagValue("e")
        guard let rootID = root.flatMap(NostrEventID.init(rawValue:)),
            case .post(let post)? = try await storage.nostr.importRecord(of: rootID)?.target
        else { return nil }
        var parent: CommentID?
        if let parentID = event.firstTagValue("e").flatMap(NostrEventID.init(rawValue:)), parentID != rootID,
            case .comment(post, let comment)? = try await storage.nostr.importRecord(of: parentID)?.target
        {
            parent = comment
        }
        let comment = try await posts.comment(
            on: post, CreateCommentRequest(text: event.content, parentID: parent), viewer: author)
        return .comment(post, comment.id)
    }

    /// A deletion request (kind 5): what the events it names (`e`) and the addresses it names (`a`) became is
    /// deleted, for events of the request's own key only (NIP-09). The relay has hidden the events already.
    func deletion(_ event: NostrEvent, author: AccountRecord) async throws -> NostrImport.Target {
        var targets: [NostrImport.Target] = []
        for id in event.tagValues("e").prefix(100).compactMap(NostrEventID.init(rawValue:)) {
            guard let stored = try await storage.nostr.find(id), stored.event.pubkey == event.pubkey,
                let record = try await storage.nostr.importRecord(of: id)
            else { continue }
            targets.append(record.target)
        }
        for reference in event.tagValues("a").prefix(100).compactMap(NIP101e.Reference.init)
        where reference.pubkey == event.pubkey {
            if let record = try await storage.nostr.importRecord(of: NostrAddressKey.key(reference)) {
                targets.append(record.target)
            }
        }
        for target in targets { try await undo(target, author: author) }
        return .none
    }

    /// Deletes what an event became, as its author would in Spotter; what is gone already stays gone.
    private func undo(_ target: NostrImport.Target, author: AccountRecord) async throws {
        do {
            switch target {
            case .post(let id): try await posts.delete(id, viewer: author)
            case .exerciseTemplate(let id): try await templates.deleteExercise(id, viewer: author)
            case .workoutTemplate(let id): try await templates.deleteWorkoutTemplate(id, viewer: author)
            case .kudos(let post, let user) where user == author.id:
                _ = try await posts.setKudos(post, on: false, viewer: author)
            case .comment(let post, let comment): try await posts.deleteComment(comment, on: post, viewer: author)
            case .kudos, .none: break
            }
        } catch SpotterError.notFound, SpotterError.forbidden {
            // Deleted already, or no longer theirs to delete (a key relinked to another account).
        }
    }

    /// An event's `t` tags as Spotter keeps hashtags: lower-cased, each once.
    static func hashtags(of event: NostrEvent) -> [String] {
        var seen = Set<String>()
        return event.tagValues("t").compactMap {
            let tag = $0.trimmingCharacters(in: .whitespaces).lowercased()
            return !tag.isEmpty && seen.insert(tag).inserted ? tag : nil
        }
    }
}
