import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore
import SpotterCore
import SpotterModels

/// Renders the web app's Mustache templates into HTML responses.
///
/// Templates are bundle resources (`Resources/web/templates/*.mustache`), parsed once at start-up. Every value
/// reaches the HTML through `{{ }}`, which escapes it; no template uses `{{{ }}}` for anything a user wrote.
struct WebPages: Sendable {
    let library: MustacheLibrary
    let sessions: WebSessions
    /// For the unread badge every signed-in page shows.
    let notifications: NotificationService

    init(sessions: WebSessions, notifications: NotificationService) {
        self.sessions = sessions
        self.notifications = notifications
        self.library = Self.loadLibrary()
    }

    /// A full page inside the site's layout. Signed in, the page also carries a fresh socket token (see
    /// `WebSessions`).
    func page(
        _ template: String, title: String, content: Any, context: AppRequestContext, nav: WebNav = .none,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var layout = WebLayout(
            title: title, csrf: context.web.csrfToken, viewer: context.identity.map { ViewerView($0.account) },
            socketToken: nil, nav: nav, page: content)
        if let session = context.identity {
            layout.socketToken = try await sessions.socketToken(for: session)
            // The badge counts what the person has not seen yet; opening the inbox sees it all, as on
            // Mastodon and Knock. Read or unread stays a mark on each notification in the inbox.
            let unseen = try await notifications.counts(session.account).unseen
            layout.unreadCount = NotificationCounts.badge(unseen)
            layout.hasUnread = unseen > 0
        }
        return html(library.render(layout, withTemplate: template) ?? "", status: status)
    }

    /// A page without a socket token, for errors (which must not fail in turn); `back` is the way back a page
    /// offers beside the feed's (the post a refusal is about, say).
    func error(
        status: HTTPResponse.Status, title: String, detail: String?, context: AppRequestContext,
        back: (href: String, label: String)? = nil
    ) -> Response {
        let content = ErrorView(
            title: title, detail: detail, status: Int(status.code),
            back: back.map { ErrorView.Link(href: $0.href, label: $0.label) })
        let layout = WebLayout(
            title: title, csrf: context.web.csrfToken, viewer: context.identity.map { ViewerView($0.account) },
            socketToken: nil, nav: .none, page: content)
        var response = html(library.render(layout, withTemplate: "error") ?? "", status: status)
        WebSessionMiddleware.addSecurityHeaders(to: &response.headers)
        return response
    }

    /// A piece of a page (more feed items for "load more"), without the layout.
    func fragment(_ template: String, content: Any) -> Response {
        html(library.render(content, withTemplate: template) ?? "", status: .ok)
    }

    private func html(_ text: String, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A redirect after a successful form (POST/redirect/GET), so reloading doesn't post twice.
    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    private static func loadLibrary() -> MustacheLibrary {
        guard
            let folder = Bundle.module.url(forResource: "web", withExtension: nil)?.appendingPathComponent("templates"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { preconditionFailure("the web templates are missing from the SpotterServer bundle") }
        var library = MustacheLibrary()
        for name in names where name.hasSuffix(".mustache") {
            let url = folder.appendingPathComponent(name)
            do {
                let text = try String(contentsOf: url, encoding: .utf8)
                try library.register(text, named: String(name.dropLast(".mustache".count)))
            } catch {
                // Templates ship with the binary; one that doesn't parse is a bug the tests catch at once.
                preconditionFailure("web template \(name) does not parse: \(error)")
            }
        }
        return library
    }
}

/// Which tab of the top bar is lit.
enum WebNav: String, Sendable {
    case none, feed, compose, profile, notifications, search, groups
}

/// What every page template sees: its own content as `page`, and around it what the `header` and `footer`
/// partials need. Pages include those partials rather than being pasted into a layout, so no template ever
/// needs `{{{ }}}`.
struct WebLayout {
    let title: String
    let csrf: String
    let viewer: ViewerView?
    var socketToken: String?
    /// As the badge writes it: "99+" once the count stops (`NotificationCounts.limit`).
    var unreadCount = "0"
    var hasUnread = false
    let page: Any
    // Stored, not computed: Mustache reads values through `Mirror`, which sees stored properties only.
    let navFeed: Bool
    let navCompose: Bool
    let navProfile: Bool
    let navNotifications: Bool
    let navSearch: Bool
    let navGroups: Bool

    init(title: String, csrf: String, viewer: ViewerView?, socketToken: String?, nav: WebNav, page: Any) {
        self.title = title
        self.csrf = csrf
        self.viewer = viewer
        self.socketToken = socketToken
        self.page = page
        navFeed = nav == .feed
        navCompose = nav == .compose
        navProfile = nav == .profile
        navNotifications = nav == .notifications
        navSearch = nav == .search
        navGroups = nav == .groups
    }
}

/// The signed-in person, as the top bar and templates show them.
struct ViewerView {
    let id: String
    let username: String
    let displayName: String
    let initials: String
    /// Their avatar in the top bar; without one, the initials show.
    let avatarURL: String?
    /// The top bar's is tiny; in lists of people, small.
    var avatarSize = "tiny"

    init(_ account: AccountRecord) {
        id = account.id.description
        username = account.username
        displayName = account.displayName
        initials = Self.initials(of: account.displayName)
        avatarURL = account.profile.avatarURL
    }

    static func initials(of name: String) -> String {
        let letters = name.split(separator: " ").prefix(2).compactMap(\.first)
        return letters.isEmpty ? "?" : String(letters).uppercased()
    }
}

struct ErrorView {
    struct Link {
        let href: String
        let label: String
    }

    let title: String
    let detail: String?
    let status: Int
    var back: Link? = nil
}
