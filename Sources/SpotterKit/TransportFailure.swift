import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension SpotterClientError {
    /// No response from `url`'s server, in words a person reads: "cannot reach http://localhost:8080:
    /// connection refused", never a raw `NSURLErrorDomain` dump.
    static func unreachable(_ url: URL, _ error: any Error) -> SpotterClientError {
        .transport("cannot reach \(origin(of: url)): \(reason(error))")
    }

    /// "http://localhost:8080": where the request went, without its path.
    static func origin(of url: URL) -> String {
        guard let scheme = url.scheme, let host = url.host else { return url.absoluteString }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// What kind of network failure `error` was, as a short phrase.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? URLError else {
            let posix = (error as NSError).domain == NSPOSIXErrorDomain ? (error as NSError).code : 0
            return posix == Int(ECONNREFUSED) ? "connection refused" : "\(error.localizedDescription)"
        }
        switch error.code {
        case .cannotConnectToHost: return "connection refused"
        case .timedOut: return "no answer (timed out)"
        case .cannotFindHost, .dnsLookupFailed: return "no such host"
        case .notConnectedToInternet: return "not connected to the internet"
        case .networkConnectionLost: return "the connection was lost"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return "the secure connection failed (TLS)"
        case .badServerResponse, .cannotParseResponse: return "the server's answer could not be read"
        case .badURL, .unsupportedURL: return "not a URL it can connect to"
        case .cancelled: return "cancelled"
        default: return error.localizedDescription
        }
    }
}
