import Hummingbird
import NIOCore
import SpotterModels

extension KudosState: ResponseGenerator {
    /// The answer to every kudos given or taken back, written directly: `JSONEncoder` spent about 24,000
    /// instructions on its three fields, a tenth of a keyed kudos' own work (callgrind). The text is byte for
    /// byte what the wire encoder writes (`WireJSON`: keys sorted; a post id is hex and dashes, nothing to
    /// escape), which a test holds it to.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = json
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(body.utf8.count)],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// The JSON text of this state.
    var json: String {
        #"{"kudos_count":\#(kudosCount),"kudosed_by_me":\#(kudosedByMe),"post_id":"\#(postID.description)"}"#
    }
}
