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
    let services: AppServices

    init(configuration: AppConfiguration, services: AppServices) {
        self.services = services
        sessions = WebSessions(
            accounts: services.accounts, lifetimes: configuration.tokenLifetimes,
            secureCookies: configuration.secureCookies)
        pages = WebPages(sessions: sessions, notifications: services.notifications)
    }

    func addRoutes(to router: Router<AppRequestContext>, configuration: AppConfiguration) {
        let accounts = services.accounts
        router.add(middleware: WebNotFoundMiddleware(pages: pages))
        router.addRoutes(WebAssets().endpoints)
        let web = router.group().add(
            middleware: WebSessionMiddleware(sessions: sessions, pages: pages, storage: services.storage))
        web.addRoutes(
            WebAuthController(
                accounts: accounts, sessions: sessions, pages: pages,
                trustForwardedFor: configuration.trustForwardedFor,
                nostrSignInURL: services.nostrAccounts.url(of: WebNostrController.signInPath)
            ).endpoints)
        web.addRoutes(
            WebNostrController(
                nostr: services.nostrAccounts, sessions: sessions, trustForwardedFor: configuration.trustForwardedFor
            ).endpoints)
        web.addRoutes(WebFeedController(feeds: services.feeds, pages: pages, clock: services.clock).endpoints)
        web.addRoutes(
            WebComposeController(
                posts: services.posts, templates: services.templates, media: services.media,
                groups: services.groups, children: services.children, pages: pages, clock: services.clock
            ).endpoints)
        web.addRoutes(WebUploadsController(media: services.media).endpoints)
        web.addRoutes(WebPostsController(posts: services.posts, pages: pages, clock: services.clock).endpoints)
        web.addRoutes(WebPostEditController(posts: services.posts, pages: pages, clock: services.clock).endpoints)
        web.addRoutes(WebCommentEditController(posts: services.posts, pages: pages).endpoints)
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
            WebSettingsController(
                accounts: accounts, links: services.accountLinks, notifications: services.notifications,
                media: services.media, nostr: services.nostrAccounts, pages: pages,
                channels: WebChannels(configuration.delivery)
            ).endpoints)
        WebPushSubscriptionController(notifications: services.notifications).addRoutes(to: web)
        web.addRoutes(
            WebAccountLinksController(
                links: services.accountLinks, pages: pages, trustForwardedFor: configuration.trustForwardedFor
            ).endpoints)
        web.addRoutes(WebAdminController(links: services.accountLinks, pages: pages).endpoints)
        web.addRoutes(WebPeopleController(social: services.social, pages: pages).endpoints)
        web.addRoutes(WebGroupJoinController(groups: services.groups, pages: pages).endpoints)
        web.addRoutes(
            WebGroupsController(
                groups: services.groups, feeds: services.feeds, children: services.children, pages: pages,
                clock: services.clock
            ).endpoints)
        WebE2EController(
            e2e: E2EController(
                devices: services.devices, groups: services.encryptedGroups, blobs: services.sealedBlobs,
                posts: services.posts),
            posts: services.posts, groups: services.groups
        ).addRoutes(to: web)
        web.addRoutes(WebGroupSafetyController(groups: services.groups, pages: pages).endpoints)
        web.addRoutes(WebGroupMembersController(groups: services.groups, pages: pages, clock: services.clock).endpoints)
        web.addRoutes(
            WebGroupSettingsController(
                groups: services.groups, media: services.media, pages: pages, clock: services.clock
            ).endpoints)
        web.addRoutes(
            WebChildrenController(
                children: services.children, media: services.media, pages: pages, clock: services.clock
            ).endpoints)
        web.addRoutes(
            WebSecurityController(
                accounts: accounts, pages: pages, trustForwardedFor: configuration.trustForwardedFor,
                clock: services.clock
            ).endpoints)
    }
}
