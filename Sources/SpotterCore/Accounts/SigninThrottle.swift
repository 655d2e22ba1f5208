import Foundation

/// Limits failed sign-ins per account and per client address, in a sliding window.
///
/// Counting failures per account stops password guessing against one person from many addresses; counting per
/// address stops one client from walking through many accounts. A success clears the account's count. The
/// state lives in this process: behind a load balancer each node enforces its own limit, which still bounds an
/// attacker to nodes × limit attempts per window.
public actor SigninThrottle {
    public struct Limits: Sendable {
        public var perAccount: Int
        public var perAddress: Int
        public var window: TimeInterval

        public init(perAccount: Int = 10, perAddress: Int = 50, window: TimeInterval = 15 * 60) {
            self.perAccount = perAccount
            self.perAddress = perAddress
            self.window = window
        }
    }

    private let limits: Limits
    private let clock: any WallClock
    /// What a refused caller is told.
    private let refusal: String
    private var failures: [String: [Date]] = [:]
    /// Bounds memory under a flood of distinct keys: past this many, expired entries are swept.
    private let sweepThreshold = 10_000

    public init(
        limits: Limits = Limits(), clock: any WallClock,
        refusal: String = "Too many failed sign-in attempts; try again later."
    ) {
        self.limits = limits
        self.clock = clock
        self.refusal = refusal
    }

    /// Throws `SpotterError.rateLimited` when either key is over its limit.
    public func check(login: String, address: String?) throws {
        let now = clock.now
        for (key, limit) in keys(login: login, address: address) {
            let recent = prune(key, now: now)
            if recent.count >= limit, let oldest = recent.first {
                let retryAfter = max(
                    1, Int(oldest.addingTimeInterval(limits.window).timeIntervalSince(now).rounded(.up)))
                throw SpotterError.rateLimited(
                    retryAfter: retryAfter, detail: refusal)
            }
        }
    }

    public func recordFailure(login: String, address: String?) {
        let now = clock.now
        for (key, _) in keys(login: login, address: address) {
            failures[key, default: []].append(now)
        }
        if failures.count > sweepThreshold {
            for key in Array(failures.keys) { _ = prune(key, now: now) }
        }
    }

    public func recordSuccess(login: String) {
        failures["account:\(login.lowercased())"] = nil
    }

    private func keys(login: String, address: String?) -> [(String, Int)] {
        var keys = [("account:\(login.lowercased())", limits.perAccount)]
        if let address { keys.append(("address:\(address)", limits.perAddress)) }
        return keys
    }

    private func prune(_ key: String, now: Date) -> [Date] {
        let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < limits.window }
        failures[key] = recent.isEmpty ? nil : recent
        return recent
    }
}
