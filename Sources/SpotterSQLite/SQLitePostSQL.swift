import SpotterSQL

/// The post fragments (`PostSQL`, written once for both databases) as SQLite writes them: the viewer is the
/// named argument `:viewer`. Each expects `p` (posts) joined with `u` (its author).
enum SQLitePostSQL {
    static let visible = PostSQL.visible.rendered(.sqlite).text
    static let listed = PostSQL.listed.rendered(.sqlite).text
    static let visibleTemplate = PostSQL.visibleTemplate.rendered(.sqlite).text
    /// Takes `:viewer` and `:author`.
    static let visiblePostsCount = PostSQL.visiblePostsCount.rendered(.sqlite).text
    static let namesNoChild = PostSQL.namesNoChild.rendered(.sqlite).text
    static let notMuted = PostSQL.notMuted.rendered(.sqlite).text
    static let kudosCount = PostSQL.kudosCount.rendered(.sqlite).text
    static let commentsCount = PostSQL.commentsCount.rendered(.sqlite).text
    static let unlisted = PostSQL.unlisted.rendered(.sqlite).text

    static func visible(post: String, author: String, groups: PostSQL.GroupReach = .readers) -> String {
        PostSQL.visible(post: post, author: author, groups: groups).rendered(.sqlite).text
    }

    static func listable(_ alias: String) -> String { PostSQL.listable(alias).rendered(.sqlite).text }

    static func visibleComment(_ c: String) -> String { PostSQL.visibleComment(c).rendered(.sqlite).text }

    static func countedComment(_ c: String) -> String { PostSQL.countedComment(c).rendered(.sqlite).text }

    /// A post row's columns, read by position (`row[Column.id.index]`).
    typealias Column = PostColumn

    static let columns = PostColumn.selectList.rendered(.sqlite).text
}

extension PostColumn {
    /// Where the column stands in a row that starts with the post columns (GRDB reads rows by position).
    var index: Int { rawValue }
}
