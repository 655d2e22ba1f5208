import Foundation
import Hummingbird
import SpotterCore
import SpotterModels
import Synchronization

/// How the API writes its JSON responses: with `JSONCoding.encoder`, except that a page of posts is put
/// together from each post's remembered JSON (`PostJSON`). The feeds are most of the API's reads.
public struct APIResponseEncoder: ResponseEncoder {
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response
    {
        guard let page = value as? Page<Post> else {
            return try JSONCoding.encoder.encode(value, from: request, context: context)
        }
        let body = try PostJSON.page(page)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(body.readableBytes)],
            body: .init(byteBuffer: body))
    }
}

/// The wire JSON of posts, remembered post by post. The feeds hand the same posts to every follower on every
/// refresh, and encoding them afresh each time was the dearest part of a Following page. A remembered
/// encoding is used only when the post just read equals the post it was written from, so a new kudos, an
/// edit or a renamed author simply miss it: nothing needs invalidating, and nothing can be served stale.
enum PostJSON {
    /// 2 × 10,000 posts at most: the memory it holds stays bounded however many posts the feeds serve.
    static let capacity = 10_000

    private struct Key: Hashable {
        let id: PostID
        // Whether the viewer gave kudos splits a post's viewers in two, so both versions are kept. What else
        // differs by viewer (counts and previews leave out people they blocked) is rare, and simply misses.
        let kudosedByMe: Bool
    }

    private struct Remembered: Sendable {
        let post: Post
        let json: Data
    }

    private static let remembered = Mutex(RecentValues<Key, Remembered>(capacity: capacity))

    /// `post` as `JSONCoding.encoder` writes it.
    static func encoded(_ post: Post) throws -> Data {
        let key = Key(id: post.id, kudosedByMe: post.kudosedByMe)
        if let known = remembered.withLock({ $0.value(for: key) }), known.post == post { return known.json }
        let json = try JSONCoding.encoder.encode(post)
        remembered.withLock { $0.store(Remembered(post: post, json: json), for: key) }
        return json
    }

    /// `page` as `JSONCoding.encoder` writes it, up to the order of keys (which that encoder does not fix
    /// either). The envelope is the encoder's own, written with no items, so `Page`'s keys are spelled in one
    /// place: the posts go between the brackets of its `"items":[]`, which nothing else in it can contain (the
    /// cursor is base64url).
    static func page(_ page: Page<Post>) throws -> ByteBuffer {
        let envelope = try JSONCoding.encoder.encode(Page<Post>(items: [], nextCursor: page.nextCursor))
        guard let items = envelope.range(of: emptyItems) else {
            return ByteBuffer(data: try JSONCoding.encoder.encode(page))
        }
        let posts = try page.items.map(encoded)
        var buffer = ByteBuffer()
        buffer.reserveCapacity(envelope.count + posts.reduce(posts.count) { $0 + $1.count })
        buffer.writeBytes(envelope[..<(items.upperBound - 1)])
        for (index, post) in posts.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            buffer.writeBytes(post)
        }
        buffer.writeBytes(envelope[(items.upperBound - 1)...])
        return buffer
    }

    private static let emptyItems = Data(#""items":[]"#.utf8)
}
