import HTTPTypes
import Hummingbird
import SpotterCore
import SpotterModels

/// Turns what services throw into what a person reads on a page.
enum WebErrors {
    /// The status and the sentences to show for an error, or `nil` for errors that are our fault (500).
    static func explain(_ error: any Error) -> (status: HTTPResponse.Status, messages: [String])? {
        guard let error = error as? SpotterError else {
            if let error = error as? any HTTPResponseError { return (error.status, [error.status.reasonPhrase]) }
            return nil
        }
        var headers = HTTPFields()
        let problem = ProblemResponse.map(error, headers: &headers)
        let messages =
            problem.errors.map { $0.map { "\(Self.label($0.field)): \($0.detail)" } } ?? [
                problem.detail ?? problem.title
            ]
        return (HTTPResponse.Status(code: problem.status), messages)
    }

    /// A refusal page's title, in words: a status made from a problem's code has no reason phrase of its own,
    /// and the protocol's names ("Unprocessable Content") are not a person's.
    static func title(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "That did not work"
        case 403: "Not allowed"
        case 404: "Not found"
        case 409: "That can't be done now"
        case 413: "That is too large"
        case 422: "Please check what you sent"
        case 429: "Too many tries"
        default: status.code >= 500 ? "Something went wrong" : "That did not work"
        }
    }

    /// Field names as the forms label them.
    private static func label(_ field: String) -> String {
        let name = field.split(separator: ".").last.map(String.init) ?? field
        return name.replacingOccurrences(of: "_", with: " ").capitalized
    }
}

extension AppRequestContext {
    /// The signed-in account, or a 401 that the web middleware turns into a trip to the sign-in page.
    func requireWebViewer() throws -> AccountRecord {
        guard let account = identity?.account else { throw SpotterError.unauthorized("Sign in first.") }
        return account
    }
}

extension AppRequestContext {
    /// A typed id from a web page's path. A malformed one names nothing, so a person gets the 404 page rather
    /// than the API's "id is not an id." (`id(_:)`, a 400 naming the parameter, is for API clients).
    func webID<ID: TypedID>(_ name: String, as type: ID.Type = ID.self) throws -> ID {
        guard let text = parameters.get(name), let id = ID(text) else {
            throw SpotterError.notFound("There is nothing at this address.")
        }
        return id
    }
}
