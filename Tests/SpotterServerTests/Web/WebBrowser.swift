import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore

/// A browser in miniature over the router test client: it keeps cookies, follows nothing by itself, and
/// reads the CSRF token out of the last page, so tests drive the web app as a person's browser would.
struct WebBrowser {
    let api: APIClient
    var cookies: [String: String] = [:]
    var lastPage = ""

    init(_ api: APIClient) { self.api = api }

    /// The `_csrf` value of the last page's forms.
    var csrf: String {
        guard let range = lastPage.range(of: #"name="_csrf" value=""#) else { return "" }
        return String(lastPage[range.upperBound...].prefix { $0 != "\"" })
    }

    @discardableResult
    mutating func get(_ path: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        let response = try await send(.get, path, body: nil, headers: headers)
        if response.headers[.contentType]?.hasPrefix("text/html") == true { lastPage = response.text }
        return response
    }

    /// Posts a form; `csrf: false` leaves the token out, as a forged cross-site form would.
    @discardableResult
    mutating func post(
        _ path: String, _ fields: [(String, String)] = [], csrf: Bool = true, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var fields = fields
        if csrf { fields.insert(("_csrf", self.csrf), at: 0) }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map {
            "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed)!)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        }.joined(separator: "&")
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        let response = try await send(.post, path, body: ByteBuffer(string: body), headers: headers)
        if response.headers[.contentType]?.hasPrefix("text/html") == true { lastPage = response.text }
        return response
    }

    /// Signs up through the form (loading it first, for its CSRF token).
    mutating func signUp(_ username: String) async throws {
        try await get("/signup")
        let response = try await post(
            "/signup",
            [("username", username), ("email", "\(username)@example.com"), ("password", "correct horse battery")])
        guard response.status == .seeOther else { throw UnexpectedStatus(response: response) }
        try await get("/")
    }

    mutating func send(
        _ method: HTTPRequest.Method, _ path: String, body: ByteBuffer?, headers: HTTPFields
    ) async throws -> TestResponse {
        var headers = headers
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: "; ")
        }
        let response = try await api.client.execute(
            uri: path, method: method, headers: headers, body: body)
        for line in response.headers[values: .setCookie] {
            let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            let name = String(pair[0])
            let value = pair.count > 1 ? String(pair[1]) : ""
            if value.isEmpty || line.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        return response
    }
}

extension TestResponse {
    /// The `Set-Cookie` line for a cookie name.
    func setCookie(_ name: String) -> String? {
        headers[values: .setCookie].first { $0.hasPrefix("\(name)=") }
    }
}
