/// The template store's statements, on both databases. Templates are aliased `p` with their author `u`, so
/// `PostSQL.visibleTemplate` applies as it does to posts; the viewer is bound as `viewer`.
public enum TemplateSQL {
    static let author: SQLText = "u.id, u.username, u.display_name, u.avatar_url"

    /// One exercise template by `id`, if the viewer may see it (`limit` 1).
    public static let exercise = SQLStatement(exercises(where: "p.id = \(bind: "id")"))

    /// One workout template by `id`, if the viewer may see it (`limit` 1).
    public static let workout = SQLStatement(workouts(where: "p.id = \(bind: "id")"))

    public static let insertExercise = SQLStatement(
        """
        INSERT INTO exercise_templates (id, author_id, name, equipment, muscle_groups, format, visibility, created_at)
        VALUES (\(bind: "id"), \(bind: "author"), \(bind: "name"), \(bind: "equipment"), \(bind: "muscleGroups"), \(
            bind: "format"), \(bind: "visibility"), \(bind: "at"))
        """)

    /// Exercise templates meeting `condition` the viewer may see, newest first, read by position. A page's
    /// condition is each adapter's own: SQLite's one statement tests its absent bounds for NULL, PostgreSQL
    /// writes only the bounds it has.
    public static func exercises(where condition: SQLText) -> SQLText {
        """
        SELECT p.id, p.name, p.equipment, p.muscle_groups, p.format, p.visibility, p.created_at, \(author)
        FROM exercise_templates p JOIN users u ON u.id = p.author_id
        WHERE \(condition) AND \(PostSQL.visibleTemplate)
        ORDER BY p.id DESC LIMIT \(bind: "limit")
        """
    }

    public static let tombstoneExercise = SQLStatement(
        "UPDATE exercise_templates SET deleted_at = \(bind: "at") WHERE id = \(bind: "id") AND deleted_at IS NULL")

    public static let updateExercise = SQLStatement(
        """
        UPDATE exercise_templates SET name = \(bind: "name"), equipment = \(bind: "equipment"),
            muscle_groups = \(bind: "muscleGroups"), format = \(bind: "format"), visibility = \(bind: "visibility")
        WHERE id = \(bind: "id") AND deleted_at IS NULL
        """)

    public static let insertWorkout = SQLStatement(
        """
        INSERT INTO workout_templates (id, author_id, name, type, description, exercises, visibility, created_at)
        VALUES (\(bind: "id"), \(bind: "author"), \(bind: "name"), \(bind: "type"), \(bind: "description"), \(
            bind: "exercises"), \(bind: "visibility"), \(bind: "at"))
        """)

    /// Workout templates meeting `condition` the viewer may see, newest first, each with how many posts the
    /// viewer may see used it; read by position.
    public static func workouts(where condition: SQLText) -> SQLText {
        """
        SELECT p.id, p.name, p.type, p.description, p.exercises, p.visibility, p.created_at, \(author),
               (SELECT COUNT(*) FROM posts wp JOIN users wu ON wu.id = wp.author_id
                WHERE wp.template_id = p.id AND \(PostSQL.visible(post: "wp", author: "wu")))
        FROM workout_templates p JOIN users u ON u.id = p.author_id
        WHERE \(condition) AND \(PostSQL.visibleTemplate)
        ORDER BY p.id DESC LIMIT \(bind: "limit")
        """
    }

    public static let tombstoneWorkout = SQLStatement(
        "UPDATE workout_templates SET deleted_at = \(bind: "at") WHERE id = \(bind: "id") AND deleted_at IS NULL")

    public static let updateWorkout = SQLStatement(
        """
        UPDATE workout_templates SET name = \(bind: "name"), type = \(bind: "type"), description = \(
            bind: "description"),
            exercises = \(bind: "exercises"), visibility = \(bind: "visibility")
        WHERE id = \(bind: "id") AND deleted_at IS NULL
        """)
}
