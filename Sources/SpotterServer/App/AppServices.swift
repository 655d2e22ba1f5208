import Foundation
import Logging
import SpotterCore

/// Every SpotterCore service the server runs, built once: the composition root. The API controllers, the web
/// pages, the realtime socket and the background services all share these, so each rule and each event
/// source exists once per process.
struct AppServices {
    /// The storage port, for what runs a unit of work around services (`UnitOfWorkMiddleware`, the web's
    /// forms, the socket).
    let storage: any SpotterStorage
    let clock: any WallClock
    let events: (any EventBus)?
    let notifier: Notifier
    let accounts: AccountService
    let accountLinks: AccountLinkService
    let nostrAccounts: NostrAccountService
    let admin: AdminService
    let social: SocialService
    let groups: GroupService
    let children: ChildProfileService
    let feeds: FeedService
    let progress: ProgressService
    let posts: PostService
    let notifications: NotificationService
    let search: SearchService
    let templates: TemplateService
    let analytics: AnalyticsService
    /// Makes Spotter posts and templates of the events linked keys publish to the relay.
    let nostrIngest: NostrIngestService
    let media: MediaService
    /// The Nostr relay's rules (`/relay`).
    let relay: NostrRelayService
    /// Rung when an upload is completed, so the processing loop starts on it at once.
    let mediaWake: MediaWake
    /// Encrypted groups: people's devices, each group's chain and keys, and their encrypted photos.
    let devices: E2EDeviceService
    let encryptedGroups: E2EGroupService
    let sealedBlobs: E2EBlobService

    init(
        configuration: AppConfiguration, storage: any SpotterStorage, clock: any WallClock, events: (any EventBus)?,
        blobs: any BlobStore, logger: Logger
    ) {
        let apple: (any AppleIdentityVerifier)? = configuration.appleClientID.map {
            AppleJWKSVerifier(clientID: $0, jwksURL: configuration.appleJWKSURL)
        }
        let notifier = Notifier(storage: storage, clock: clock, events: events, logger: logger)
        let wake = MediaWake()
        mediaWake = wake
        media = MediaService.configured(
            configuration, storage: storage, blobs: blobs, clock: clock, logger: logger, wake: { wake.ring() })
        let links = media.links
        self.storage = storage
        self.clock = clock
        self.events = events
        self.notifier = notifier
        let hasher = BcryptPasswordHasher(cost: configuration.bcryptCost)
        let signinThrottle = SigninThrottle(limits: configuration.throttle, clock: clock)
        accounts = AccountService(
            storage: storage, hasher: hasher, clock: clock, throttle: signinThrottle, apple: apple,
            lifetimes: configuration.tokenLifetimes, notifier: notifier, events: events, mediaLinks: links)
        accountLinks = AccountLinkService.configured(
            configuration, storage: storage, clock: clock, signinThrottle: signinThrottle, notifier: notifier,
            events: events, logger: logger)
        nostrAccounts = NostrAccountService(
            storage: storage, accounts: accounts, clock: clock, siteURL: configuration.siteURL,
            signup: configuration.nostr.signup)
        admin = AdminService(storage: storage, clock: clock, events: events)
        social = SocialService(storage: storage, clock: clock, notifier: notifier, events: events)
        groups = GroupService(
            storage: storage, clock: clock, events: events, siteURL: configuration.siteURL, notifier: notifier,
            mediaLinks: links, social: social)
        children = ChildProfileService(
            storage: storage, clock: clock, mediaLinks: links, notifier: notifier, social: social)
        devices = E2EDeviceService(storage: storage, clock: clock, notifier: notifier)
        encryptedGroups = E2EGroupService(storage: storage, clock: clock, events: events)
        sealedBlobs = E2EBlobService(storage: storage, blobs: blobs, clock: clock, logger: logger)
        feeds = FeedService(storage: storage, clock: clock, links: links, social: social, groups: groups)
        progress = ProgressService(storage: storage, clock: clock, social: social)
        posts = PostService(
            storage: storage, clock: clock, configuration: configuration.postRules, events: events, notifier: notifier,
            media: media, social: social, groups: groups, children: children)
        notifications = NotificationService(storage: storage, clock: clock, events: events)
        search = SearchService(storage: storage, links: links, groups: groups)
        templates = TemplateService(storage: storage, clock: clock, social: social)
        analytics = AnalyticsService(storage: storage, clock: clock)
        let ingest = NostrIngestService(
            storage: storage, clock: clock, posts: posts, templates: templates, social: social, accounts: accounts)
        nostrIngest = ingest
        relay = NostrRelayService(
            storage: storage, clock: clock, policy: configuration.nostr.writePolicy,
            limits: configuration.nostr.limits, events: events,
            ingest: { event, author in _ = try await ingest.handle(event, author: author) }, logger: logger)
    }
}
