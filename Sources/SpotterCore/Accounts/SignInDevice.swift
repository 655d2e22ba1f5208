import Foundation

/// What a new-sign-in alert says about where it came from: a device name a person recognises ("Chrome on
/// Linux", "Safari on iPhone", "the spotter command-line tool") from the `User-Agent`, and a place from the
/// client's address.
///
/// ```swift
/// SignInDevice.describe(userAgent: "curl/8.5.0", address: "192.168.1.20")
/// // "curl on your local network (192.168.1.20)"
/// ```
public enum SignInDevice {
    /// The device a `User-Agent` names, for people: a browser and its system, one of our own clients, a
    /// known tool, or else the agent's own product name. Never the raw header: it reads like noise and can
    /// carry anything.
    public static func name(userAgent: String?) -> String {
        let agent = printable(userAgent ?? "")
        guard !agent.isEmpty else { return "an unknown device" }
        let lower = agent.lowercased()
        // Our own clients first: the terminal client is the `spotter` process, whose Foundation names it
        // "spotter (unknown version) curl/…" on Linux and "spotter/… CFNetwork/…" on a Mac.
        if lower.hasPrefix("spotter (") || lower.hasPrefix("spotter/") && !agent.hasPrefix("Spotter/") {
            return "the spotter command-line tool"
        }
        if agent.hasPrefix("Spotter/") || agent.hasPrefix("SpotterApp/") || agent.hasPrefix("Spotter%20") {
            return lower.contains("ipad") ? "Spotter for iPad" : "Spotter for iOS"
        }
        for (prefix, tool) in tools where lower.hasPrefix(prefix) { return tool }
        let system = system(in: agent)
        if let browser = browser(in: agent) {
            return system.map { "\(browser) on \($0)" } ?? browser
        }
        if let system { return "an app on \(system)" }
        // Whatever else calls itself something: its product name, without the version.
        let product = agent.split(separator: " ").first.map { String($0.split(separator: "/").first ?? $0) }
        return String((product ?? agent).prefix(40))
    }

    /// Where a sign-in came from. There is no GeoIP database here to turn an address into a town, and an
    /// address alone means little to most people; but two kinds of address do say something plain: a
    /// loopback address is this very computer (127.0.0.0/8, ::1), and a private one (RFC 1918, fc00::/7
    /// unique local, 169.254.0.0/16 and fe80::/10 link-local) is the person's own local network. Those get
    /// words, with the address beside them; any other address is shown as it is. `nil` when unknown.
    public static func place(address: String?) -> String? {
        let address = printable(address ?? "")
        guard !address.isEmpty, address.count <= 64 else { return nil }
        switch scope(of: address) {
        case .loopback: return "on this computer (\(address))"
        case .local: return "on your local network (\(address))"
        case .elsewhere: return "from \(address)"
        }
    }

    /// "Chrome on Linux on this computer (127.0.0.1)": the alert's detail.
    public static func describe(userAgent: String?, address: String?) -> String {
        let name = name(userAgent: userAgent)
        return place(address: address).map { "\(name) \($0)" } ?? name
    }

    enum Scope { case loopback, local, elsewhere }

    static func scope(of address: String) -> Scope {
        if let octets = ipv4(address) { return scope(ipv4: octets) }
        let lower = address.lowercased()
        guard lower.contains(":") else { return .elsewhere }
        if let mapped = lower.split(separator: ":").last, lower.hasPrefix("::ffff:"), let octets = ipv4(String(mapped))
        {
            return scope(ipv4: octets)
        }
        if lower == "::1" || lower == "0:0:0:0:0:0:0:1" { return .loopback }
        let first = lower.hasPrefix("::") ? 0 : UInt16(lower.split(separator: ":").first ?? "", radix: 16)
        guard let first else { return .elsewhere }
        if first & 0xFE00 == 0xFC00 || first & 0xFFC0 == 0xFE80 { return .local }
        return .elsewhere
    }

    private static func scope(ipv4 octets: [UInt8]) -> Scope {
        switch (octets[0], octets[1]) {
        case (127, _): .loopback
        case (10, _), (172, 16...31), (192, 168), (169, 254): .local
        default: .elsewhere
        }
    }

    private static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let octets = parts.compactMap { $0.count <= 3 ? UInt8($0) : nil }
        return parts.count == 4 && octets.count == 4 ? octets : nil
    }

    private static let tools: [(String, String)] = [
        ("curl/", "curl"), ("wget/", "Wget"), ("httpie/", "HTTPie"), ("python-requests/", "a Python script"),
        ("python-urllib/", "a Python script"), ("python-httpx/", "a Python script"),
        ("go-http-client/", "a Go program"),
        ("okhttp/", "an Android app"), ("postmanruntime/", "Postman"), ("insomnia/", "Insomnia"),
    ]

    /// The browser, most specific first: Edge, Opera and Samsung Internet also say "Chrome", Chrome says
    /// "Safari", and every iPhone browser is Safari underneath with its own token.
    private static func browser(in agent: String) -> String? {
        let order: [(String, String)] = [
            ("Edg", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser/", "Samsung Internet"), ("Firefox/", "Firefox"),
            ("FxiOS/", "Firefox"), ("CriOS/", "Chrome"), ("EdgiOS/", "Edge"), ("HeadlessChrome/", "Chrome"),
            ("Chromium/", "Chromium"), ("Chrome/", "Chrome"),
        ]
        for (token, name) in order where agent.contains(token) {
            // "Edg" alone would match anything with "Edge": Edge's token is "Edg/" or the old "Edge/".
            if token == "Edg", !agent.contains("Edg/") && !agent.contains("Edge/") { continue }
            return name
        }
        if agent.contains("Safari/") && agent.contains("Version/") { return "Safari" }
        if agent.hasPrefix("Mozilla/") && (agent.contains("iPhone") || agent.contains("iPad")) { return "Safari" }
        return nil
    }

    private static func system(in agent: String) -> String? {
        let order: [(String, String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"),
            ("Windows", "Windows"), ("Macintosh", "Mac"), ("Mac OS X", "Mac"), ("Linux", "Linux"),
        ]
        return order.first { agent.contains($0.0) }?.1
    }

    /// Printable characters only, trimmed and cut short: headers can carry anything.
    private static func printable(_ text: String) -> String {
        let kept = text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(512)
        return String(String.UnicodeScalarView(kept)).trimmingCharacters(in: .whitespaces)
    }
}
