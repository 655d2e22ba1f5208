/// A count with its noun in the right number, so no screen or terminal says "1 workouts".
///
///     Plural.count(1, "workout")              // "1 workout"
///     Plural.count(3, "exercise")             // "3 exercises"
///     Plural.count(2, "person", "people")     // "2 people"
public enum Plural {
    public static func count(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) \(noun(count, singular, plural))"
    }

    /// The noun alone, for a count shown apart from it.
    public static func noun(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        count == 1 ? singular : plural ?? singular + "s"
    }
}
