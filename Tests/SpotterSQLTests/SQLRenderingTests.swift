import SpotterSQL
import Testing

@Suite("SQL written once, rendered in each database's placeholders")
struct SQLRenderingTests {
    @Test("PostgreSQL numbers binds in the order they first appear, and a name used twice keeps its number")
    func numbersInOrder() {
        // Given a statement that uses one bind twice, and a cast
        let sql: SQLText = """
            SELECT 1 FROM follows WHERE follower_id = \(bind: "a", as: "uuid") AND state = \(bind: "state")
            AND (followee_id = \(bind: "b") OR followee_id = \(bind: "a"))
            """

        // When it is rendered for PostgreSQL
        let rendered = sql.rendered(.postgres)

        // Then each name has one number, in order (its cast where it is written), and the binds list them in order
        #expect(
            rendered.text == """
                SELECT 1 FROM follows WHERE follower_id = $1::uuid AND state = $2
                AND (followee_id = $3 OR followee_id = $1)
                """)
        #expect(rendered.binds == ["a", "state", "b"])
    }

    @Test("SQLite names every bind, and a name used twice is one argument")
    func namesForSQLite() {
        // Given the same kind of statement
        let sql: SQLText = "SELECT \(bind: "a", as: "uuid"), \(bind: "b"), \(bind: "a")"

        // When it is rendered for SQLite
        let rendered = sql.rendered(.sqlite)

        // Then the placeholders are named, with no PostgreSQL cast
        #expect(rendered.text == "SELECT :a, :b, :a")
        #expect(rendered.binds == ["a", "b"])
    }

    @Test("the viewer is always PostgreSQL's $1, wherever it first appears")
    func viewerFirst() {
        // Given a statement whose first bind is not the viewer
        let sql: SQLText = "SELECT \(bind: "id") WHERE x = \(bind: SQLText.viewer, as: "uuid") AND y = \(bind: "after")"

        // When it is rendered for PostgreSQL
        let rendered = sql.rendered(.postgres)

        // Then the viewer takes $1 and the others follow
        #expect(rendered.text == "SELECT $2 WHERE x = $1::uuid AND y = $3")
        #expect(rendered.binds == ["viewer", "id", "after"])
    }

    @Test("a fragment brings its binds, and dialect choices and raw text go in as written")
    func fragments() {
        // Given a fragment with a bind inside a statement with its own
        let fragment: SQLText = "\(raw: "p").author_id = \(bind: "author")"
        let sql: SQLText = """
            SELECT \(sqlite: "json_group_array(x)", postgres: "json_agg(x)::text") FROM posts p
            WHERE \(SQLText.joined([fragment, "p.id > \(bind: "after")"], separator: " AND "))
            """

        // When it is rendered for each database
        let postgres = sql.rendered(.postgres)
        let sqlite = sql.rendered(.sqlite)

        // Then both hold the fragment's bind, numbered or named
        #expect(postgres.text == "SELECT json_agg(x)::text FROM posts p\nWHERE p.author_id = $1 AND p.id > $2")
        #expect(postgres.binds == ["author", "after"])
        #expect(sqlite.text == "SELECT json_group_array(x) FROM posts p\nWHERE p.author_id = :author AND p.id > :after")
    }
}
