import Foundation
import Observation
import SpotterModels

/// Builds a workout to log, from scratch or from a template, and posts it through the outbox; with photos,
/// through the upload queue, its progress in `uploadProgress`.
///
/// ```swift
/// let model = ComposeWorkoutViewModel(client: client, outbox: outbox)
/// await model.start(from: template.id)          // exercises and target sets filled in
/// model.addSet(to: 0, weightKg: 100, reps: 5)
/// let posted = await model.publish()            // false: see model.errors, field by field
/// ```
///
/// A run is one cardio exercise:
///
/// ```swift
/// model.type = .cardio
/// model.addExercise("Run")
/// model.setCardio(for: 0, distance: 3.1, unit: .mi, durationS: 30 * 60 + 45)
/// model.pace(for: 0, unit: .mi)                 // "9:55 /mi"
/// ```
///
/// Photos (up to four), each with alt text:
///
/// ```swift
/// model.addPhoto(jpeg, contentType: "image/jpeg", description: "Deadlift lockout")
/// await model.publish()                          // model.uploadProgress?.fraction moves from 0 to 1
/// ```
///
/// With a Nostr key on the device linked to the account (`NostrWorkoutPublishing`), a **public workout
/// without photos** is signed here as a NIP-101e kind 1301 event and queued to Spotter's relay and the
/// person's other relays instead of the REST create; Spotter's relay makes it the post. Workouts with photos,
/// notes and followers-only or private posts go through REST as before. While a relay still waits for it,
/// `nostrPublication` says where it stands (as `ActionQueue.pending` shows an unsent post):
///
/// ```swift
/// let model = ComposeWorkoutViewModel(client: client, outbox: outbox, nostr: nostr)
/// await model.publish()                          // model.nostrPublication?.isPending while offline
/// ```
///
/// How long it took is said, never assumed: `endTime` is `nil` (no duration) until the person gives one
/// (`setMinutes`, or the time pickers).
///
/// Editing a logged workout fills the form from the post; `publish()` then saves the corrections through the
/// outbox, offline first (the cached post shows them at once), and the server detects the records again:
///
/// ```swift
/// let model = ComposeWorkoutViewModel(editing: post, session: session)
/// model.exercises[0].sets[1] = WorkoutSet(weightKg: 100, reps: 5)
/// await model.publish()                          // the post's screen shows 100 kg at once
/// ```
@MainActor
@Observable
public final class ComposeWorkoutViewModel {
    public struct Exercise: Sendable, Equatable {
        public var name: String
        public var sets: [WorkoutSet]
        /// Distance and time, for cardio work.
        public var cardio: CardioMetrics?

        public init(name: String, sets: [WorkoutSet] = [], cardio: CardioMetrics? = nil) {
            self.name = name
            self.sets = sets
            self.cardio = cardio
        }
    }

    public var title = ""
    public var type: WorkoutType = .strength
    public var text = ""
    public var visibility: Visibility = .public
    /// The group it is posted to, if any (the person must be a member): its members are its audience, whatever
    /// `visibility` says, and its feed shows it while it is sent.
    public var groupID: GroupID?
    /// When it was done (its start, when `endTime` says how long it took).
    public var startTime: Date
    /// When it ended; `nil` when nobody said how long it took.
    public var endTime: Date?
    public var exercises: [Exercise] = []
    /// The post this form edits, when it edits one (`init(editing:…)`): `publish()` then saves the edit.
    public private(set) var editing: PostID?
    public private(set) var templateID: WorkoutTemplateID?
    /// What the server (or the form) refused, by field (`workout.exercises[0].sets[1].reps`, …).
    public private(set) var errors: [FieldError] = []
    /// True once the workout is posted, or stored in the outbox to go out when online.
    public private(set) var isPublished = false
    /// The photos to post with it, in order, each with its alt text.
    public private(set) var photos: [PhotoToUpload] = []
    /// How the photos' upload and the post are going, while `publish()` runs and after.
    public private(set) var uploadProgress: UploadProgress?
    /// The signed workout and where it stands on each relay, when it went out as a Nostr event.
    public private(set) var nostrPublication: NostrQueuedEvent?
    /// Templates to start from (`loadTemplates`), as last fetched: kept with an outbox, so they list offline.
    public private(set) var templates: [WorkoutTemplate] = []

    private let client: SpotterClient
    /// The edited workout as logged: what the form has no field for (notes, whether completed, each
    /// exercise's template) stays as it was.
    private var original: WorkoutRecord?
    private let nostr: NostrWorkoutPublishing?
    private let outbox: ActionQueue?
    private let uploads: UploadQueue?
    private var database: AppDatabase? { outbox?.database }

    /// - Parameters:
    ///   - uploads: where a post with photos waits until it is posted (`UploadQueue`); without one, photos go
    ///     through a queue in memory, lost if the app is killed before they are posted.
    ///   - nostr: the device's Nostr key and publication queue: public workouts without photos are signed and
    ///     published through it when the key is linked to the account.
    public init(
        client: SpotterClient, outbox: ActionQueue? = nil, uploads: UploadQueue? = nil,
        nostr: NostrWorkoutPublishing? = nil, now: Date = Date()
    ) {
        self.client = client
        self.outbox = outbox
        self.uploads = uploads
        self.nostr = nostr
        startTime = now
        endTime = nil
    }

    /// A form holding a logged workout of the caller's, to correct it: its title, text, audience, times,
    /// exercises and sets. Its photos stay as they are.
    public convenience init(editing post: Post, client: SpotterClient, outbox: ActionQueue? = nil) {
        self.init(client: client, outbox: outbox, now: post.workout?.startTime ?? post.createdAt)
        editing = post.id
        text = post.text
        visibility = post.visibility
        guard let workout = post.workout else { return }
        title = workout.title
        type = workout.type
        startTime = workout.startTime
        endTime = workout.endTime
        templateID = workout.templateID
        exercises = workout.exercises.map { Exercise(name: $0.name, sets: $0.sets ?? [], cardio: $0.cardio) }
        original = workout
    }

    /// The session's form for editing `post`.
    public convenience init(editing post: Post, session: SpotterSession) {
        self.init(editing: post, client: session.client, outbox: session.outbox)
    }

    /// Says how long it took: it ended when it was done (`endTime`, or `startTime` while it has no duration)
    /// and began `minutes` before, as the web form reads its minutes; `nil` takes the duration away and keeps
    /// the moment it was done. So minutes given to a workout just done never put its end in the future.
    public func setMinutes(_ minutes: Int?) {
        let done = endTime ?? startTime
        guard let minutes else {
            (startTime, endTime) = (done, nil)
            return
        }
        (startTime, endTime) = (done.addingTimeInterval(-TimeInterval(minutes * 60)), done)
    }

    /// The templates to start from (everyone's the person may use, or one author's): the kept ones at once,
    /// then the server's.
    public func loadTemplates(author: String? = nil) async {
        if let kept = try? await database?.templates(author: author), !kept.isEmpty { templates = kept }
        do {
            let page = try await client.workoutTemplates(author: author)
            templates = page.items
            try? await database?.save(page.items, author: author)
        } catch {
            errors = [FieldError(field: "template", detail: FeedViewModel.message(error))]
        }
    }

    /// Fills the form from a template: its name, type and exercises, each with its target sets. Offline, from
    /// the template as last fetched.
    public func start(from id: WorkoutTemplateID) async {
        do {
            let template: WorkoutTemplate
            do {
                template = try await client.workoutTemplate(id)
            } catch let error as SpotterClientError where error.isTransient {
                guard let kept = try? await database?.template(id) else { throw error }
                template = kept
            }
            templateID = template.id
            title = template.name
            type = template.type
            exercises = template.exercises.map { exercise in
                Exercise(
                    name: exercise.name,
                    sets: exercise.targetSets.map { WorkoutSet(weightKg: $0.weightKg ?? 0, reps: $0.reps ?? 0) })
            }
            errors = []
        } catch {
            errors = [FieldError(field: "template", detail: FeedViewModel.message(error))]
        }
    }

    public func addExercise(_ name: String) { exercises.append(Exercise(name: name)) }

    public func addSet(to exercise: Int, weightKg: Double, reps: Int, setType: SetType = .normal) {
        guard exercises.indices.contains(exercise) else { return }
        exercises[exercise].sets.append(WorkoutSet(weightKg: weightKg, reps: reps, setType: setType))
    }

    public func removeExercise(_ exercise: Int) {
        guard exercises.indices.contains(exercise) else { return }
        exercises.remove(at: exercise)
    }

    /// Sets an exercise's distance (in `unit`, stored in metres) and time; `nil` distance for time alone.
    public func setCardio(for exercise: Int, distance: Double?, unit: DistanceUnit = .km, durationS: Int) {
        guard exercises.indices.contains(exercise) else { return }
        exercises[exercise].cardio = CardioMetrics(distanceM: distance.map { $0 * unit.metres }, durationS: durationS)
    }

    /// An exercise's pace as shown, "5:55 /km"; `nil` without both a distance and a time.
    public func pace(for exercise: Int, unit: DistanceUnit = .km) -> String? {
        guard exercises.indices.contains(exercise), let cardio = exercises[exercise].cardio else { return nil }
        return CardioText.pace(cardio, unit: unit)
    }

    public func removeSet(_ set: Int, from exercise: Int) {
        guard exercises.indices.contains(exercise), exercises[exercise].sets.indices.contains(set) else { return }
        exercises[exercise].sets.remove(at: set)
    }

    /// Adds a photo, unless the post has its four already; returns whether it was added.
    @discardableResult
    public func addPhoto(_ data: Data, contentType: String, description: String? = nil) -> Bool {
        guard photos.count < Self.maxPhotos else { return false }
        photos.append(PhotoToUpload(data: data, contentType: contentType, description: description))
        return true
    }

    public func removePhoto(_ index: Int) {
        guard photos.indices.contains(index) else { return }
        photos.remove(at: index)
    }

    /// Sets a photo's alt text; empty removes it.
    public func setDescription(_ text: String, forPhoto index: Int) {
        guard photos.indices.contains(index) else { return }
        photos[index].description = text.isEmpty ? nil : text
    }

    /// Photos a post may carry (`MediaRules.maxPerPost` on the server).
    public static let maxPhotos = 4

    /// The request this form makes.
    public var request: CreatePostRequest {
        CreatePostRequest(
            kind: .workout, text: text, visibility: groupID == nil ? visibility : nil,
            workout: WorkoutRecord(
                title: title, type: type, startTime: startTime, endTime: endTime,
                exercises: exercises.map {
                    ExerciseEntry(
                        name: $0.name, sets: $0.cardio != nil && $0.sets.isEmpty ? nil : $0.sets, cardio: $0.cardio)
                }, templateID: templateID), groupID: groupID)
    }

    /// The edit this form makes of the post it edits: its text, audience and workout.
    public var updateRequest: UpdatePostRequest {
        var workout = request.workout
        if let original, var edited = workout {
            edited.notes = original.notes
            edited.completed = original.completed
            for index in edited.exercises.indices {
                edited.exercises[index].exerciseID =
                    original.exercises.first { $0.name == edited.exercises[index].name }?.exerciseID
            }
            workout = edited
        }
        return UpdatePostRequest(text: text, visibility: visibility, workout: workout)
    }

    /// Posts the workout, or saves the edit of the one it edits. Returns whether it was posted or queued; when
    /// refused, `errors` names each field.
    @discardableResult
    public func publish() async -> Bool {
        if let editing { return await saveEdit(of: editing) }
        let request = request
        if !photos.isEmpty { return await publishWithPhotos(request) }
        if let nostr, await nostr.takes(request) { return await publishSigned(request, through: nostr) }
        do {
            if let outbox {
                let queued = try await outbox.enqueue(.createPost(request))
                for outcome in await outbox.drain() {
                    guard case .refused(let refused, let problem) = outcome, refused.id == queued.id else { continue }
                    try? await outbox.discard(refused.id)
                    errors = Self.fieldErrors(problem)
                    return false
                }
            } else {
                _ = try await client.createPost(request)
            }
            errors = []
            isPublished = true
            return true
        } catch SpotterClientError.problem(let problem) {
            errors = Self.fieldErrors(problem)
        } catch {
            errors = [FieldError(field: "workout", detail: FeedViewModel.message(error))]
        }
        return false
    }

    /// A refusal's field errors, or the whole refusal as one about the workout.
    private static func fieldErrors(_ problem: Problem) -> [FieldError] {
        problem.errors ?? [FieldError(field: "workout", detail: problem.detail ?? problem.title)]
    }

    /// Saves the edit: through the outbox when there is one (the cached post shows it at once; a refusal is
    /// taken back and the post read again from the server), else straight to the server.
    private func saveEdit(of post: PostID) async -> Bool {
        let request = updateRequest
        do {
            if let outbox {
                let queued = try await outbox.editPost(post, request)
                for outcome in await outbox.drain() {
                    guard case .refused(let refused, let problem) = outcome, refused.id == queued.id else { continue }
                    try? await outbox.discard(refused.id)
                    if let server = try? await client.post(post) { try? await outbox.database.save([server]) }
                    errors = Self.fieldErrors(problem)
                    return false
                }
            } else {
                _ = try await client.updatePost(post, request)
            }
            errors = []
            isPublished = true
            return true
        } catch SpotterClientError.problem(let problem) {
            errors = Self.fieldErrors(problem)
        } catch {
            errors = [FieldError(field: "workout", detail: FeedViewModel.message(error))]
        }
        return false
    }

    /// Signs the workout and queues it to every relay, then tries them once: a relay that cannot be reached
    /// now gets it at the publisher's next drain. When Spotter's relay refuses it for good (the key is no
    /// longer linked, the account suspended), `errors` says so and the link is forgotten, so publishing again
    /// goes through REST.
    private func publishSigned(_ request: CreatePostRequest, through nostr: NostrWorkoutPublishing) async -> Bool {
        do {
            let event = try await nostr.publish(request)
            await nostr.publisher.drain()
            let queued = try await nostr.publisher.all.first { $0.event.id == event.id }
            nostrPublication = queued
            if let refusal = queued?.refusals.first(where: { $0.relay == nostr.publisher.spotterRelay }) {
                try? await nostr.publisher.setLinkedKey(nil)
                errors = [FieldError(field: "workout", detail: "Spotter's relay refused it: \(refusal.message ?? "")")]
                return false
            }
            errors = []
            isPublished = true
            return true
        } catch {
            errors = [FieldError(field: "workout", detail: FeedViewModel.message(error))]
            return false
        }
    }

    /// Posts through the upload queue: the job is stored first, so a post whose photos cannot go now goes at the
    /// queue's next drain; a photo the server refuses is named in `errors`, under `photos`.
    private func publishWithPhotos(_ request: CreatePostRequest) async -> Bool {
        do {
            let queue = try uploads ?? UploadQueue(path: nil, client: client)
            let job = try await queue.enqueue(request, photos: photos)
            let updates = await queue.progress()
            let watcher = Task { [weak self] in
                for await progress in updates where progress.jobID == job.id { self?.uploadProgress = progress }
            }
            defer { watcher.cancel() }
            let outcome = await queue.drain().first { outcome in
                switch outcome {
                case .posted(let ran, _), .failed(let ran, _), .waiting(let ran, _): ran.id == job.id
                }
            }
            if case .failed(_, let reason) = outcome {
                try? await queue.discard(job.id)
                errors = [FieldError(field: "photos", detail: reason)]
                return false
            }
            switch outcome {
            case .posted(_, let post): uploadProgress = UploadProgress(jobID: job.id, step: .posted(post), fraction: 1)
            case .waiting(let ran, let retry):
                uploadProgress = UploadProgress(jobID: job.id, step: .waiting(retry), fraction: ran.fraction)
            case .failed, nil: break
            }
            errors = []
            isPublished = true
            return true
        } catch {
            errors = [FieldError(field: "photos", detail: FeedViewModel.message(error))]
            return false
        }
    }
}
