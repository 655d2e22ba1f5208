import Foundation
import Observation
import SpotterModels

/// The session's state for the app's chrome (issue 40, item 8): an offline banner with Retry, and the
/// sign-in state that decides between the sign-in screen and the app (`expired` asks to sign in again).
///
/// ```swift
/// if let banner = status.offlineBanner {
///     Banner(banner) { Button("Retry") { Task { await status.retry() } } }
/// }
/// switch status.auth {
/// case .signedOut, .signingIn, .expired: SignInScreen(expired: status.auth == .expired)
/// case .signedIn, .refreshing: MainTabs()
/// }
/// ```
@MainActor
@Observable
public final class SessionStatusViewModel {
    public private(set) var connectivity: Connectivity
    public private(set) var auth: AuthState
    public private(set) var account: Account?
    public private(set) var isRetrying = false

    private let session: SpotterSession
    @ObservationIgnored nonisolated(unsafe) private var watching: Task<Void, Never>?

    public init(session: SpotterSession) {
        self.session = session
        let now = session.status
        (connectivity, auth, account) = (now.connectivity, now.auth, now.account)
        let updates = session.statusUpdates()
        watching = Task { [weak self] in
            for await status in updates { self?.show(status) }
        }
    }

    deinit { watching?.cancel() }

    public var isOffline: Bool { connectivity == .offline }

    /// What the banner says while offline; nil when there is no banner.
    public var offlineBanner: String? {
        isOffline ? "You're offline. Changes you make are kept and sent when you're back." : nil
    }

    /// Tries the server now; the banner goes if it answers (and what waits is sent).
    public func retry() async {
        isRetrying = true
        defer { isRetrying = false }
        await session.retryNow()
        show(session.status)
    }

    private func show(_ status: SessionStatus) {
        (connectivity, auth, account) = (status.connectivity, status.auth, status.account)
    }
}
