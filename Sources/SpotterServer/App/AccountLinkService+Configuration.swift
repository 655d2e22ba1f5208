import Foundation
import Logging
import SpotterCore

extension AccountLinkService {
    /// Password resets and email changes as `configuration` sets them up: its mail relay (or none), its public
    /// address for links. `spotter serve` shares the sign-in throttle and notifier with the rest of the app;
    /// `spotter admin reset-password` and `set-email` make their own, beside no running server.
    public static func configured(
        _ configuration: AppConfiguration, storage: any SpotterStorage, clock: any WallClock = SystemClock(),
        signinThrottle: SigninThrottle? = nil, notifier: Notifier? = nil, events: (any EventBus)? = nil,
        logger: Logger
    ) -> AccountLinkService {
        AccountLinkService(
            storage: storage, hasher: BcryptPasswordHasher(cost: configuration.bcryptCost), clock: clock,
            throttle: SigninThrottle(
                limits: AccountLinkService.askLimits, clock: clock,
                refusal: "Too many requests for mail; try again later."),
            signinThrottle: signinThrottle ?? SigninThrottle(limits: configuration.throttle, clock: clock),
            mailer: configuration.delivery.accountMail, siteURL: configuration.siteURL,
            notifier: notifier ?? Notifier(storage: storage, clock: clock, events: events, logger: logger),
            events: events)
    }
}
