import Foundation
import SpotterModels

/// A workout post as personal records are replayed over it (`PostStore.loggedWorkouts`).
public struct LoggedWorkout: Sendable, Equatable {
    public var postID: PostID
    /// `nil` for a post whose workout the server cannot read (sealed in an encrypted group).
    public var workout: WorkoutRecord?
    public var records: [PersonalRecord]
    public var deleted: Bool

    public init(postID: PostID, workout: WorkoutRecord?, records: [PersonalRecord], deleted: Bool) {
        self.postID = postID
        self.workout = workout
        self.records = records
        self.deleted = deleted
    }
}

extension PersonalRecordDetector {
    /// The records of each workout, and the bests after the last, when the workouts are detected one after
    /// another in the order given: what `detect` finds had each been logged, in that order, as it reads now.
    /// A workout not completed sets nothing, as when it is logged.
    ///
    /// ```swift
    /// let (records, bests) = PersonalRecordDetector.replay(logged.map { ($0.postID, $0.workout) })
    /// ```
    public static func replay(
        _ workouts: [(postID: PostID, workout: WorkoutRecord?)]
    ) -> (records: [PostID: [PersonalRecord]], bests: [String: ExerciseBests]) {
        var records: [PostID: [PersonalRecord]] = [:]
        var bests: [String: ExerciseBests] = [:]
        for (id, workout) in workouts {
            guard let workout, workout.completed else {
                records[id] = []
                continue
            }
            let detected = detect(workout: workout, postID: id, previous: bests)
            records[id] = detected.records
            bests.merge(detected.bests) { _, after in after }
        }
        return (records, bests)
    }

    /// Whether records could read `old` and `new` differently: their exercises, when they were done (a
    /// record is achieved then), or whether they were completed. A new title or notes changes no record.
    public static func recordsMayDiffer(_ old: WorkoutRecord?, _ new: WorkoutRecord?) -> Bool {
        old?.exercises != new?.exercises || old?.startTime != new?.startTime || old?.completed != new?.completed
    }
}

extension PostService {
    /// Detects `author`'s personal records again, as if each workout had been logged as it now reads, after an
    /// edit of `edited` changed what records could read. Returns the posts after `edited` whose records
    /// changed, for their live copies to hear. Runs inside the edit's unit of work.
    ///
    /// The workouts are replayed in the order they were logged, as each was detected against the bests
    /// before it, and deleted ones count, as their lifts counted when later workouts were logged: only what
    /// the edit changes moves. The edited post and those after it take their new records; those before it
    /// cannot change; the person's bests become the replay's.
    func replayRecords(of author: UserID, after edited: PostID) async throws -> [PostID] {
        let logged = try await storage.posts.loggedWorkouts(of: author)
        let (records, bests) = PersonalRecordDetector.replay(logged.map { ($0.postID, $0.workout) })
        var changed: [PostID] = []
        let from = logged.firstIndex { $0.postID == edited } ?? logged.endIndex
        for post in logged[from...] where !post.deleted {
            let now = records[post.postID] ?? []
            guard now != post.records else { continue }
            try await storage.posts.setRecords(now, of: post.postID)
            if post.postID != edited { changed.append(post.postID) }
        }
        try await storage.posts.replacePersonalBests(bests, of: author)
        return changed
    }
}
