/// The account columns every read of a person selects, in the order both adapters read them.
public enum AccountSQL {
    public static let columns: SQLText = """
        users.id, users.username, users.email, users.password_hash, users.display_name, users.apple_subject,
        users.created_at, users.bio, users.avatar_url, users.units, users.time_zone, users.privacy, users.role,
        users.suspended_at, users.featured_at
        """
}

/// The account store's statements, on both databases. Usernames and emails are matched by their lowercased
/// keys, which the unique indexes hold.
extension AccountSQL {
    public static let create = SQLStatement(
        """
        INSERT INTO users (id, username, username_key, email, email_key, password_hash, display_name,
                           apple_subject, created_at, bio, avatar_url, units, time_zone, privacy, role)
        VALUES (\(bind: "id"), \(bind: "username"), \(bind: "usernameKey"), \(bind: "email"), \(bind: "emailKey"), \(
            bind: "passwordHash"), \(bind: "displayName"), \(bind: "appleSubject"), \(bind: "createdAt"), \(
            bind: "bio"), \(bind: "avatarURL"), \(bind: "units"), \(bind: "timeZone"), \(bind: "privacy"), \(
            bind: "role"))
        """)

    private static func find(where condition: SQLText) -> SQLStatement {
        SQLStatement("SELECT \(columns) FROM users WHERE \(condition)")
    }

    public static let findByID = find(where: "id = \(bind: "id")")
    public static let findByIDs = find(where: "id \(SQLText.isAny(of: "ids"))")
    public static let findByLogin = find(where: "username_key = \(bind: "key") OR email_key = \(bind: "key") LIMIT 1")
    public static let findByUsername = find(where: "username_key = \(bind: "key")")
    public static let findByAppleSubject = find(where: "apple_subject = \(bind: "subject")")

    public static let setAppleSubject = SQLStatement(
        "UPDATE users SET apple_subject = \(bind: "subject") WHERE id = \(bind: "id")")

    public static let updateProfile = SQLStatement(
        """
        UPDATE users SET display_name = \(bind: "displayName"), bio = \(bind: "bio"), avatar_url = \(
            bind: "avatarURL"),
            units = \(bind: "units"), time_zone = \(bind: "timeZone"), privacy = \(bind: "privacy")
        WHERE id = \(bind: "id")
        """)

    public static let setEmail = SQLStatement(
        "UPDATE users SET email = \(bind: "email"), email_key = \(bind: "emailKey") WHERE id = \(bind: "id")")

    /// One column of a person's row, set to `value`. The column comes from the code, never from input.
    private static func set(_ column: String) -> SQLStatement {
        SQLStatement("UPDATE users SET \(raw: column) = \(bind: "value") WHERE id = \(bind: "id")")
    }

    public static let setSuspended = set("suspended_at")
    public static let setRole = set("role")
    public static let setPasswordHash = set("password_hash")
    public static let setFeatured = set("featured_at")
}
