import Crypto
import Foundation
import SpotterModels
import SpotterNostr

extension NostrIngestService {
    /// A 1301 record as a public workout post, its personal records detected as for any workout.
    func workoutPost(_ event: NostrEvent, author: AccountRecord) async throws -> NostrImport.Target {
        let known = try await knownExercises(in: event, author: author)
        var templateID: WorkoutTemplateID?
        if let reference = NIP101e.templateReference(in: event) {
            templateID = try await knownWorkoutTemplate(reference, author: author)
        }
        let read = try NIP101e.workoutRecord(from: event, exercises: { known[$0] }, template: { _ in templateID })
        let text = Self.hashtagText(read.hashtags, besides: [read.workout.title, read.workout.notes ?? ""])
        let post = try await posts.create(
            CreatePostRequest(kind: .workout, text: text, visibility: .public, workout: read.workout), author: author)
        return .post(post.id)
    }

    /// A 33401 exercise template as a public template; a newer version of the same address updates it.
    func exerciseTemplate(_ event: NostrEvent, author: AccountRecord) async throws -> NostrImport.Target {
        let read = try NIP101e.exerciseTemplate(from: event)
        let address = NostrAddressKey.key(kind: event.kind, pubkey: event.pubkey, identifier: event.dTag)
        if let earlier = try await storage.nostr.importRecord(of: address) {
            guard case .exerciseTemplate(let id) = earlier.target,
                try await storage.templates.exercise(id, viewer: author.id) != nil
            else { throw SpotterError.conflict(field: "d", detail: "the template of this address was deleted") }
            _ = try await templates.updateExercise(id, with: read.template, author: author)
            return .exerciseTemplate(id)
        }
        let created = try await templates.createExercise(read.template, author: author)
        try await storage.nostr.recordImport(
            NostrImport(eventID: address, target: .exerciseTemplate(created.id), importedAt: clock.now))
        return .exerciseTemplate(created.id)
    }

    /// A 33402 workout template as a public template; a newer version of the same address updates it.
    func workoutTemplate(_ event: NostrEvent, author: AccountRecord) async throws -> NostrImport.Target {
        let known = try await knownExercises(in: event, author: author)
        let read = try NIP101e.workoutTemplate(from: event, exercises: { known[$0] })
        let address = NostrAddressKey.key(kind: event.kind, pubkey: event.pubkey, identifier: event.dTag)
        if let earlier = try await storage.nostr.importRecord(of: address) {
            guard case .workoutTemplate(let id) = earlier.target,
                try await storage.templates.workoutTemplate(id, viewer: author.id) != nil
            else { throw SpotterError.conflict(field: "d", detail: "the template of this address was deleted") }
            _ = try await templates.updateWorkoutTemplate(id, with: read.template, author: author)
            return .workoutTemplate(id)
        }
        let created = try await templates.createWorkoutTemplate(read.template, author: author)
        try await storage.nostr.recordImport(
            NostrImport(eventID: address, target: .workoutTemplate(created.id), importedAt: clock.now))
        return .workoutTemplate(created.id)
    }

    // MARK: Naming exercises

    /// What Spotter knows of each exercise template the event names (at most 100, as a workout holds).
    private func knownExercises(
        in event: NostrEvent, author: AccountRecord
    ) async throws -> [NIP101e.Reference: NIP101e.KnownExercise] {
        var known: [NIP101e.Reference: NIP101e.KnownExercise] = [:]
        for reference in NIP101e.exerciseReferences(in: event).prefix(100) {
            known[reference] = try await knownExercise(reference, author: author)
        }
        return known
    }

    /// An exercise reference's name: the Spotter template its 33401 event became; else Spotter's own template
    /// when the `d` is one's id (what SpotterKit writes for an exercise picked from Spotter's templates); else
    /// the 33401 event itself when the relay holds it (a key linked to no account, on an open relay).
    private func knownExercise(
        _ reference: NIP101e.Reference, author: AccountRecord
    ) async throws -> NIP101e.KnownExercise? {
        if let record = try await storage.nostr.importRecord(of: NostrAddressKey.key(reference)),
            case .exerciseTemplate(let id) = record.target,
            let template = try await storage.templates.exercise(id, viewer: author.id)
        {
            // Its sets list the parameters its event's format named.
            return NIP101e.KnownExercise(name: template.name, id: id, format: template.format)
        }
        if let id = ExerciseTemplateID(reference.identifier),
            let template = try await storage.templates.exercise(id, viewer: author.id)
        {
            // Written by Spotter's own mapping: the standard parameters (`NIP101e.workoutRecordEvent`).
            return NIP101e.KnownExercise(name: template.name, id: id)
        }
        let filter = NostrFilter(
            authors: [reference.pubkey], kinds: [.exerciseTemplate], tags: ["d": [reference.identifier]], limit: 1)
        if let event = try await storage.nostr.query([filter], reader: NostrReader(user: author.id), limitCap: 1)
            .first, let template = try? NIP101e.exerciseTemplate(from: event)
        {
            return NIP101e.KnownExercise(name: template.template.name, format: template.template.format)
        }
        return nil
    }

    /// The Spotter workout template a record's `template` tag names, if the author may use it.
    private func knownWorkoutTemplate(
        _ reference: NIP101e.Reference, author: AccountRecord
    ) async throws -> WorkoutTemplateID? {
        var candidates: [WorkoutTemplateID] = []
        if let record = try await storage.nostr.importRecord(of: NostrAddressKey.key(reference)),
            case .workoutTemplate(let id) = record.target
        {
            candidates.append(id)
        }
        if let id = WorkoutTemplateID(reference.identifier) { candidates.append(id) }
        for id in candidates where try await storage.templates.workoutTemplate(id, viewer: author.id) != nil {
            return id
        }
        return nil
    }

    /// `#tag` for each of `hashtags` the text does not carry already, so a post's tags (which Spotter reads
    /// from its text) include the event's `t` tags.
    static func hashtagText(_ hashtags: [String], besides texts: [String]) -> String {
        let present = Set(texts.flatMap { TextEntities.hashtags(in: $0) })
        return hashtags.filter { !present.contains($0) && TextEntities.hashtags(in: "#\($0)") == [$0] }
            .map { "#\($0)" }.joined(separator: " ")
    }
}

/// Where the imports remember what an addressable event's versions became: a new version of a template
/// finds the template its address made, though the relay no longer holds the version before.
///
/// The key is the SHA-256 of `address:<kind>:<pubkey>:<d>`, kept as an import beside those of event ids.
/// No event id can equal it: an id hashes a JSON array (`[0,"<pubkey>",…]`), never this text.
enum NostrAddressKey {
    static func key(kind: NostrKind, pubkey: NostrPublicKey, identifier: String) -> NostrEventID {
        let text = "address:\(kind.rawValue):\(pubkey.rawValue):\(identifier)"
        return NostrEventID(bytes: Array(SHA256.hash(data: Data(text.utf8))))!
    }

    static func key(_ reference: NIP101e.Reference) -> NostrEventID {
        key(kind: reference.kind, pubkey: reference.pubkey, identifier: reference.identifier)
    }
}
