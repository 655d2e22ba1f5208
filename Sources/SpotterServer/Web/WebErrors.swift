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
