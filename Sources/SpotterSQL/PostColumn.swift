/// A post row's columns as every post query selects them (post `p`, author `u`, for the viewer), in select
/// order. Each is named (`AS`), so an adapter may read a row by name (PostgreSQL) or by position (SQLite,
/// where a name costs a hash per read), and both read the same list.
public enum PostColumn: Int, CaseIterable, Sendable {
    case id, kind, text, visibility, workout, records, hashtags, mentions, createdAt, editedAt
    case authorID, username, displayName, avatarURL, kudosCount, commentsCount, kudosedByMe, media
    case groupID, groupName, children, sealed

    /// The column's name in a row.
    public var name: String {
        switch self {
        case .id: "id"
        case .kind: "kind"
        case .text: "text"
        case .visibility: "visibility"
        case .workout: "workout"
        case .records: "records"
        case .hashtags: "hashtags"
        case .mentions: "mentions"
        case .createdAt: "created_at"
        case .editedAt: "edited_at"
        case .authorID: "author_id"
        case .username: "username"
        case .displayName: "display_name"
        case .avatarURL: "avatar_url"
        case .kudosCount: "kudos_count"
        case .commentsCount: "comments_count"
        case .kudosedByMe: "kudosed_by_me"
        case .media: "media"
        case .groupID: "group_id"
        case .groupName: "group_name"
        case .children: "children"
        case .sealed: "sealed"
        }
    }

    /// What the select list writes for it.
    public var sql: SQLText {
        switch self {
        case .id: "p.id"
        case .kind: "p.kind"
        case .text: "p.text"
        case .visibility: "p.visibility"
        case .workout: "p.workout"
        case .records: "p.records"
        case .hashtags: "p.hashtags"
        case .mentions: "p.mentions"
        case .createdAt: "p.created_at"
        case .editedAt: "p.edited_at"
        case .authorID: "u.id"
        case .username: "u.username"
        case .displayName: "u.display_name"
        case .avatarURL: "u.avatar_url"
        case .kudosCount: PostSQL.kudosCount
        case .commentsCount: PostSQL.commentsCount
        case .kudosedByMe: "EXISTS (SELECT 1 FROM kudos k WHERE k.post_id = p.id AND k.user_id = \(PostSQL.viewer))"
        case .media: "p.media"
        case .groupID: "p.group_id"
        case .groupName: "(SELECT g.name FROM groups g WHERE g.id = p.group_id)"
        // Only a group post can name a child: others skip the read.
        case .children: PostColumn.childrenJSON
        case .sealed: "p.sealed"
        }
    }

    /// A group post's children as a JSON array, as text; only a group post can name a child, so others skip
    /// the read.
    private static let childrenJSON: SQLText = """
        CASE WHEN p.group_id IS NULL THEN NULL ELSE
          (SELECT \(sqlite: "json_group_array(json_object('id', c.id, 'name', c.name))",
                    postgres: "json_agg(json_build_object('id', c.id, 'name', c.name))::text")
           FROM post_children pc JOIN children c ON c.id = pc.child_id WHERE pc.post_id = p.id) END
        """

    /// The select list, every column in order, each named.
    public static let selectList = SQLText.joined(allCases.map { "\($0.sql) AS \(raw: $0.name)" }, separator: ", ")
}
