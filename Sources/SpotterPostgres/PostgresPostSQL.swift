import Foundation
import PostgresNIO
import SpotterSQL

/// The post fragments (`PostSQL`, written once for both databases) as PostgreSQL writes them: the viewer is
/// always bind `$1` (NULL when nobody is signed in), so fragments can use it any number of times; each expects
/// `p` (posts) joined with `u`.
enum PostgresPostSQL {
    static let viewer = "$1::uuid"

    static let visible = PostSQL.visible.rendered(.postgres).text
    static let listed = PostSQL.listed.rendered(.postgres).text
    static let visibleTemplate = PostSQL.visibleTemplate.rendered(.postgres).text
    static let notMuted = PostSQL.notMuted.rendered(.postgres).text
    static let kudosCount = PostSQL.kudosCount.rendered(.postgres).text
    static let commentsCount = PostSQL.commentsCount.rendered(.postgres).text
    static let unlisted = PostSQL.unlisted.rendered(.postgres).text
    static let namesNoChild = PostSQL.namesNoChild.rendered(.postgres).text

    static func visible(post: String, author: String, groups: PostSQL.GroupReach = .readers) -> String {
        PostSQL.visible(post: post, author: author, groups: groups).rendered(.postgres).text
    }

    static func listable(_ alias: String) -> String { PostSQL.listable(alias).rendered(.postgres).text }

    static func visibleComment(_ c: String) -> String { PostSQL.visibleComment(c).rendered(.postgres).text }

    static func countedComment(_ c: String) -> String { PostSQL.countedComment(c).rendered(.postgres).text }

    /// The post columns, each named (`PostColumn`): rows are read by name, so a query's extra columns after
    /// them are named too.
    static let columns = PostColumn.selectList.rendered(.postgres).text

    /// A query whose SQL was assembled from the fragments above and whose binds start with the viewer.
    struct Builder {
        private(set) var binds = PostgresBindings()
        private var count = 1

        init(viewer: UUID?) {
            binds.append(viewer)
        }

        /// Adds a bind and returns its placeholder.
        mutating func bind(_ value: some PostgresThrowingDynamicTypeEncodable) throws -> String {
            try binds.append(value)
            count += 1
            return "$\(count)"
        }

        func query(_ sql: String) -> PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: binds) }
    }
}
