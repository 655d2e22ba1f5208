import HTTPTypes
import SpotterCore
import SpotterModels

/// A refused form as the account pages show it: each field's problem as a sentence under its input, naming the
/// field as a person would ("The current password is not right."), and what concerns no input on the page (an
/// expired link, a sign-in limit) as sentences above the form.
///
/// The services name fields as the API does (`current_password`) and say what is wrong as a phrase that follows
/// the field's name ("is not right"); glued together as "Current Password: is not right" they read as
/// developer speak, and nothing on the page said which input was meant.
struct FormProblems {
    let status: HTTPResponse.Status
    /// Sentences under inputs, by the form field's name.
    private(set) var fields: [String: String] = [:]
    /// Sentences above the form.
    private(set) var messages: [String] = []

    /// Explains `error` for a page whose inputs are `inputs` (a form field's name, and what a sentence calls
    /// it: "The current password"); nil for errors that are our fault (500).
    init?(_ error: any Error, inputs: [String: String]) {
        guard let error = error as? SpotterError else {
            guard let (status, messages) = WebErrors.explain(error) else { return nil }
            self.status = status
            self.messages = messages
            return
        }
        var headers = HTTPFields()
        let problem = ProblemResponse.map(error, headers: &headers)
        status = HTTPResponse.Status(code: problem.status)
        guard let errors = problem.errors, !errors.isEmpty else {
            messages = [Self.sentence(problem.detail ?? problem.title, about: "It")]
            return
        }
        for error in errors {
            let field = error.field.split(separator: ".").last.map(String.init) ?? error.field
            if let subject = inputs[field] {
                if fields[field] == nil { fields[field] = Self.sentence(error.detail, about: subject) }
            } else {
                messages.append(Self.sentence(error.detail, about: Self.subject(of: field)))
            }
        }
    }

    var hasMessages: Bool { !messages.isEmpty }

    /// "is not right" about "The current password": "The current password is not right."; a detail that has
    /// its own subject ("this link is not valid: …", "This email is already taken.") is a sentence already.
    static func sentence(_ detail: String, about subject: String) -> String {
        let predicate = Self.predicates.contains { detail.hasPrefix($0) }
        let text = predicate ? "\(subject) \(detail)" : detail.prefix(1).uppercased() + detail.dropFirst()
        return text.hasSuffix(".") ? text : text + "."
    }

    /// How the services' details begin when they follow the field's name ("is required", "must be …").
    private static let predicates = ["is ", "are ", "must ", "may ", "has ", "was ", "does ", "can ", "cannot "]

    /// A field no input on the page stands for, named from its wire name: `time_zone` is "The time zone".
    static func subject(of field: String) -> String {
        "The " + field.replacingOccurrences(of: "_", with: " ")
    }
}
