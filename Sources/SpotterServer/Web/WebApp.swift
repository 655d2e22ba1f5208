import Foundation
import Hummingbird
import SpotterCore

/// The web app's routes, mounted at `/` beside the JSON API: pages under the session middleware, static
/// files without it (they need no session, and skip its database lookup).
///
/// Controllers only read forms, call the same SpotterCore services the API uses, and render.
struct WebApp {
    let sessions: WebSessions
    let pages: WebPages

    init(
        configuration: AppConfiguration, accounts: AccountService, notifications: NotificationService
    ) {
        sessions = WebSessions(
            accounts: accounts, lifetimes: configuration.tokenLifetimes, secureCookies: configuration.secureCookies)
        pages = WebPages(sessions: sessions, notifications: notifications)
    }

    func addRoutes(
        to router: Router<AppRequestContext>, configuration: AppConfiguration, accounts: AccountService,
        services: Services
    ) {
        router.add(middleware: WebNotFoundMiddleware(pages: pages))
        router.addRoutes(WebAssets().endpoints)
        let web = router.group().add(middleware: WebSessionMiddleware(sessions: sessions, pages: pages))
        web.addRoutes(
            WebAuthController(
                accounts: accounts, sessions: sessions, pages: pages, trustForwardedFor: configuration.trustForwardedFor
            ).endpoints)
        web.addRoutes(WebFeedController(feeds: services.feeds, pages: pages, clock: services.clock).endpoints)
        web.addRoutes(
            WebPostsController(
                posts: services.posts, templates: services.templates, pages: pages, clock: services.clock
            ).endpoints)
        web.addRoutes(
            WebProfileController(
                social: services.social, feeds: services.feeds, progress: services.progress, pages: pages,
                clock: services.clock
            ).endpoints)
        web.addRoutes(
            WebNotificationsController(notifications: services.notifications, pages: pages, clock: services.clock)
                .endpoints)
        web.addRoutes(WebSearchController(search: services.search, pages: pages, clock: services.clock).endpoints)
        web.addRoutes(
            WebSettingsController(accounts: accounts, notifications: services.notifications, pages: pages).endpoints)
    }

    /// The core services the pages call, built once by `buildRouter` and shared with the API controllers.
    struct Services {
        let clock: any WallClock
        let posts: PostService
        let feeds: FeedService
        let social: SocialService
        let progress: ProgressService
        let notifications: NotificationService
        let search: SearchService
        let templates: TemplateService
    }
}
