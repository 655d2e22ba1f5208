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

    /// A path segment such as a username, a tag or a device token, percent-decoded (the router hands it over
    /// as the URL spells it: `stra%C3%9Fe`, not `straße`), and judged as one line of text (`TextInput`): a 422
    /// naming the parameter for a control character, such as the NUL PostgreSQL refuses in text.
    ///
    /// Its length is for the rule of what it names to judge: a 150-digit device token is a token, a 150-letter
    /// username names nobody (404). Bytes that aren't UTF-8 name nothing either (404).
    func text(_ name: String) throws -> String {
        guard let raw = parameters.get(name), let text = raw.removingPercentEncoding, !text.isEmpty else {
            throw SpotterError.notFound("No such \(name).")
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
extension Relationship: ResponseEncodable {}
extension Page: ResponseEncodable {}
extension ProgressReport: ResponseEncodable {}
