import Foundation

/// Ranks posts for the trending feed: engagement divided by a power of age, as Hacker News does, so a post
/// rises while people react to it and then sinks even if it once did very well.
///
/// `score = (kudos + 2 × comments + 1) / (ageHours + 2)^1.5`
///
/// - A comment counts twice a kudos: writing one takes more than a tap, so it says more about the post.
/// - The `+ 1` gives a post nobody has reacted to yet a score above zero, so new posts can be seen at all.
/// - The `+ 2` hours keeps a minutes-old post from dividing by almost nothing and jumping to the top.
/// - The exponent 1.5 makes age win in the end: a day-old post needs about 25 times the reactions of a
///   one-hour-old post to rank beside it.
///
/// For a workout, pass the hours since the workout was *done* (its start time), not since it was uploaded: a
/// week-old session synced today is not news, and must not push today's workouts down the feed.
///
/// ```swift
/// let age = now.timeIntervalSince(workout.startTime) / 3600
/// let score = TrendingScore.score(kudos: 12, comments: 3, ageHours: age)
/// ```
public enum TrendingScore {
    /// The time-decayed score; higher ranks first.
    ///
    /// A negative age (a client clock running ahead, a server clock behind) counts as 0, so skew never lifts a
    /// post above a brand new one. Negative counts, which no real post has, count as 0 too.
    public static func score(kudos: Int, comments: Int, ageHours: Double) -> Double {
        let engagement = Double(max(0, kudos)) + 2 * Double(max(0, comments)) + 1
        let age = ageHours > 0 ? ageHours : 0
        return engagement / pow(age + 2, 1.5)
    }
}
