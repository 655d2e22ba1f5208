import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

extension AppRequestContext {
    /// A typed id from the path, or a 400 naming the parameter.
    func id<ID: TypedID>(_ name: String, as type: ID.Type = ID.self) throws -> ID {
        guard let text = parameters.get(name), let id = ID(text) else {
            throw SpotterError.malformed(detail: "\(name) is not an id.", field: name)
        }
        return id
    }

    /// A path segment such as a username or a tag, percent-decoded as clients escape it (`%C3%A9` is `é`) and
    /// judged as one line of text (`TextInput`): a 422 naming the parameter for a control character.
    func text(_ name: String) throws -> String {
        guard let escaped = parameters.get(name), let text = escaped.removingPercentEncoding, !text.isEmpty,
            text.count <= 100
        else {
            throw SpotterError.malformed(
                detail: "\(name) is missing or not a percent-encoded path segment.", field: name)
        }
        return try TextInput.checked(text, field: name)
    }

    /// The signed-in account, if any (routes that also serve anonymous readers).
    var viewer: AccountRecord? { identity?.account }

    /// The signed-in account, for routes behind `RequireSignedIn`.
    func requireViewer() throws -> AccountRecord { try requireIdentity().account }
}

extension Request {
    /// `limit`, `cursor` and `since` from the query string.
    var pageRequest: PageRequest {
        get throws {
            let query = uri.queryParameters
            return try PageRequest(
                limit: query["limit"].map(String.init), cursor: query["cursor"].map(String.init),
                since: query["since"].map(String.init))
        }
    }

    var followPage: FollowPage {
        get throws {
            let query = uri.queryParameters
            return try FollowPage(limit: query["limit"].map(String.init), cursor: query["cursor"].map(String.init))
        }
    }
}

extension Profile: ResponseEncodable {}
extension Post: ResponseEncodable {}
extension Comment: ResponseEncodable {}
extension KudosState: ResponseEncodable {}
extension Relationship: ResponseEncodable {}
extension Page: ResponseEncodable {}
extension ProgressReport: ResponseEncodable {}
