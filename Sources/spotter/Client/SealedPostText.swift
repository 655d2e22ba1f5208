import Foundation
import SpotterKit
import SpotterModels

/// A post as the terminal prints it, a sealed one (an encrypted group's) opened on this terminal when it is a
/// device holding the group's keys, and otherwise said for what it is: never a blank entry.
///
///     @ana · 0193…
///       Strength · Leg day: 2 exercises
///         Back Squat: 100x5, 100x5
///         Lunge: 20x10
///       Felt strong
///       0 kudos · 1 comment
enum SealedPostText {
    static func render(_ post: Post, opening groups: EncryptedGroups?) async -> String {
        guard post.sealed != nil else { return PostText.render(post) }
        var lines = ["@\(post.author.username) · \(post.id)"]
        let group = post.group?.name ?? "a group"
        do {
            guard let groups else { throw EncryptedGroupsError.notRegistered }
            let body = try await groups.open(post)
            if !body.children.isEmpty { lines.append("  For \(body.children.map(\.name).joined(separator: ", "))") }
            if let workout = body.workout { lines += workoutLines(workout) }
            if !body.text.isEmpty { lines.append("  \(body.text)") }
            if !body.media.isEmpty { lines.append("  \(Plural.count(body.media.count, "photo"))") }
        } catch let error as EncryptedGroupsError {
            switch error {
            case .notRegistered, .deviceNotLive, .noKey, .notAMember:
                lines.append("  An encrypted post in \(group): this device has no keys for it yet.")
            default:
                lines.append("  An encrypted post in \(group) that this device cannot open: \(sentence(error))")
            }
        } catch {
            lines.append("  An encrypted post in \(group) that this device cannot open now: \(sentence(error))")
        }
        lines.append(
            "  \(post.kudosCount) kudos\(post.kudosedByMe ? " (yours)" : "") · "
                + Plural.count(post.commentsCount, "comment"))
        return lines.joined(separator: "\n")
    }

    /// An error's words as the end of a sentence: one full stop, whether or not they bring their own.
    static func sentence(_ error: any Error) -> String {
        let words = "\(error)"
        return words.hasSuffix(".") ? words : words + "."
    }

    /// The workout's line as a plain post's, then each exercise as `spotter e2e post --exercise` takes it
    /// (kg × reps), or its cardio numbers.
    static func workoutLines(_ workout: WorkoutRecord) -> [String] {
        var lines = ["  \(workout.type.label) · \(workout.title): \(PostText.summary(of: workout))"]
        for exercise in workout.exercises {
            if let cardio = exercise.cardio {
                let parts = [
                    cardio.distanceM.map { CardioText.distance($0, unit: .km) },
                    cardio.durationS > 0 ? CardioText.clock(cardio.durationS) : nil, CardioText.pace(cardio, unit: .km),
                ]
                lines.append("    \(exercise.name): " + parts.compactMap { $0 }.joined(separator: " · "))
            } else {
                let sets = (exercise.sets ?? []).map { "\(CardioText.number($0.weightKg))x\($0.reps)" }
                lines.append("    \(exercise.name): " + sets.joined(separator: ", "))
            }
        }
        return lines
    }
}
