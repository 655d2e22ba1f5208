import Foundation
import NIOConcurrencyHelpers
import SpotterCore

/// A delivery provider for tests that keeps every message it is handed, answering each target as told
/// (delivered unless a test scripts otherwise). It stands where APNs, Web Push and SMTP stand, so tests of the
/// queue see exactly what left the server; the real providers have their own tests against local servers.
final class RecordingTransport: DeliveryTransport {
    struct Sent: Equatable {
        var message: OutgoingMessage
        var target: DeliveryTarget
    }

    private let state = NIOLockedValueBox<(sent: [Sent], answers: [String: [DeliveryOutcome]])>(([], [:]))

    var sent: [Sent] { state.withLockedValue { $0.sent } }

    /// The next answers for `target`, in order; after them it is delivered.
    func script(_ target: DeliveryTarget, _ outcomes: [DeliveryOutcome]) {
        state.withLockedValue { $0.answers[target.key] = outcomes }
    }

    func supports(_ target: DeliveryTarget) -> Bool { true }

    func deliver(_ message: OutgoingMessage, to target: DeliveryTarget) async -> DeliveryOutcome {
        state.withLockedValue { state in
            let outcome =
                state.answers[target.key]?.isEmpty == false ? state.answers[target.key]!.removeFirst() : .delivered
            if outcome == .delivered { state.sent.append(Sent(message: message, target: target)) }
            return outcome
        }
    }
}
