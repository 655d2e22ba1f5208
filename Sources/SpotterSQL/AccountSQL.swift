/// The account columns every read of a person selects, in the order both adapters read them.
public enum AccountSQL {
    public static let columns: SQLText = """
        users.id, users.username, users.email, users.password_hash, users.display_name, users.apple_subject,
        users.created_at, users.bio, users.avatar_url, users.units, users.time_zone, users.privacy, users.role,
        users.suspended_at, users.featured_at
        """
}
