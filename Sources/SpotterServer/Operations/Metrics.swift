import Foundation
import Metrics
import Prometheus
import Synchronization

/// The process-wide Prometheus registry behind swift-metrics.
///
/// swift-metrics has one global backend per process, so it is bootstrapped once, the first time any app is
/// built (tests build many apps in one process).
enum SpotterMetrics {
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Prometheus names allow [a-zA-Z0-9_:]; Hummingbird's labels use dots.
        factory.nameAndLabelSanitizer = { label, dimensions in
            (sanitize(label), dimensions.map { (sanitize($0.0), $0.1) })
        }
        MetricsSystem.bootstrap(factory)
        return registry
    }()

    /// A metric's constructor sanitizes its label and dimension names on every call, so each name is mapped
    /// once and remembered (a few dozen labels and label names in all).
    private static func sanitize(_ name: String) -> String {
        if let known = sanitized.withLock({ $0[name] }) { return known }
        let clean = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" ? $0 : "_" })
        sanitized.withLock { $0[name] = clean }
        return clean
    }

    private static let sanitized = Mutex<[String: String]>([:])
}
