import Foundation

#if canImport(Network)
import Network

/// The device's network path (NWPathMonitor), fed to the session's connectivity; Apple platforms only.
/// Elsewhere requests and the socket alone say whether the server is reachable.
/// `@unchecked`: NWPathMonitor is thread-safe, started once and only cancelled after.
final class PathMonitor: @unchecked Sendable {
    private let monitor = NWPathMonitor()

    init(_ report: @escaping @Sendable (Bool) -> Void) {
        monitor.pathUpdateHandler = { path in report(path.status == .satisfied) }
        monitor.start(queue: DispatchQueue(label: "spotter.path-monitor"))
    }

    deinit { monitor.cancel() }
}
#endif
