import Foundation

/// What one attempt to hand a notification to a delivery channel (APNs, Web Push, email) came to.
///
/// The delivery job runner records every attempt with its outcome and decides from it alone what happens
/// next: done, prune the address, try again with backoff, or stop.
public enum DeliveryOutcome: Sendable, Equatable {
    /// The provider accepted it.
    case delivered
    /// The address is gone for good (an app uninstalled, a subscription expired, a bad device token): remove
    /// it and never retry.
    case gone(reason: String)
    /// Worth trying again later; `after` is the provider's `Retry-After` in seconds when it gave one.
    case retry(reason: String, after: TimeInterval?)
    /// Refused for good for this message (a bad payload, bad credentials): retrying would not help.
    case failed(reason: String)
}
