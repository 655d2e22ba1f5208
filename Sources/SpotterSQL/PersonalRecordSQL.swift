/// The statements that replay a person's personal records after an edit (`PersonalRecordDetector.replay`), on
/// both databases: their workouts in the order they were logged, and the writes that put the replay's records
/// and bests in place.
public enum PersonalRecordSQL {
    public static let loggedWorkouts = SQLStatement(
        """
        SELECT id, workout, records, deleted_at IS NOT NULL FROM posts
        WHERE author_id = \(bind: "author") AND kind = 'workout' ORDER BY id
        """)

    public static let setRecords = SQLStatement(
        "UPDATE posts SET records = \(bind: "records") WHERE id = \(bind: "post")")

    public static let clearBests = SQLStatement("DELETE FROM personal_bests WHERE user_id = \(bind: "user")")

    public static let insertBests = SQLStatement(
        """
        INSERT INTO personal_bests (user_id, exercise_key, bests)
        VALUES (\(bind: "user"), \(bind: "exercise"), \(bind: "bests"))
        """)
}
