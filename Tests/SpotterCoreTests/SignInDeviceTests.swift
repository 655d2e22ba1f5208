import SpotterCore
import Testing

/// The device and place a new-sign-in alert names, from real `User-Agent` headers and addresses.
@Suite("Sign-in device names and places")
struct SignInDeviceTests {
    @Test(
        "a User-Agent becomes a device name a person recognises",
        arguments: [
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
                "Chrome on Linux"
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
                "Edge on Windows"
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
                "Safari on Mac"
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
                "Safari on iPhone"
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1",
                "Chrome on iPhone"
            ),
            (
                "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
                "Safari on iPad"
            ),
            ("Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Linux"),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.39 Mobile Safari/537.36",
                "Chrome on Android"
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
                "Samsung Internet on Android"
            ),
            (
                "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
                "Chrome on ChromeOS"
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0",
                "Opera on Windows"
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
                "Chrome on Linux"
            ),
            ("spotter (unknown version) curl/7.88.1", "the spotter command-line tool"),
            ("spotter/1 CFNetwork/1568.100.1 Darwin/24.0.0", "the spotter command-line tool"),
            ("Spotter/1.0 CFNetwork/1568.100.1 Darwin/24.0.0", "Spotter for iOS"),
            ("SpotterApp/1.0 (iPhone)", "Spotter for iOS"),
            ("curl/8.5.0", "curl"),
            ("Wget/1.21.4", "Wget"),
            ("python-requests/2.32.3", "a Python script"),
            ("Go-http-client/1.1", "a Go program"),
            ("HTTPie/3.2.4", "HTTPie"),
            ("okhttp/4.12.0", "an Android app"),
            ("Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP2A)", "an app on Android"),
            ("SomeBot/0.1 (+https://example.com/bot)", "SomeBot"),
            ("", "an unknown device"),
            ("   ", "an unknown device"),
        ])
    func deviceName(agent: String, expected: String) {
        #expect(SignInDevice.name(userAgent: agent) == expected)
    }

    @Test("no User-Agent at all is an unknown device, and control characters never reach the name")
    func oddAgents() {
        #expect(SignInDevice.name(userAgent: nil) == "an unknown device")
        let name = SignInDevice.name(userAgent: "Evil\u{1B}[2J\nTool/1.0")
        #expect(!name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(name.count <= 40)
    }

    @Test(
        "an address becomes a place: this computer, the local network, or the address",
        arguments: [
            ("127.0.0.1", "on this computer (127.0.0.1)"),
            ("127.8.9.10", "on this computer (127.8.9.10)"),
            ("::1", "on this computer (::1)"),
            ("::ffff:127.0.0.1", "on this computer (::ffff:127.0.0.1)"),
            ("10.1.2.3", "on your local network (10.1.2.3)"),
            ("172.16.0.9", "on your local network (172.16.0.9)"),
            ("172.31.255.1", "on your local network (172.31.255.1)"),
            ("192.168.1.20", "on your local network (192.168.1.20)"),
            ("169.254.10.1", "on your local network (169.254.10.1)"),
            ("fd12:3456:789a::1", "on your local network (fd12:3456:789a::1)"),
            ("fc00::5", "on your local network (fc00::5)"),
            ("fe80::1c2b:3aff:fe4d:5e6f", "on your local network (fe80::1c2b:3aff:fe4d:5e6f)"),
            ("::ffff:192.168.0.4", "on your local network (::ffff:192.168.0.4)"),
            ("172.32.0.1", "from 172.32.0.1"),
            ("203.0.113.9", "from 203.0.113.9"),
            ("8.8.8.8", "from 8.8.8.8"),
            ("2001:db8::1", "from 2001:db8::1"),
            ("fe00::1", "from fe00::1"),
        ])
    func place(address: String, expected: String) {
        #expect(SignInDevice.place(address: address) == expected)
    }

    @Test("an unknown address names no place, and the alert's words join the two")
    func describe() {
        #expect(SignInDevice.place(address: nil) == nil)
        #expect(SignInDevice.place(address: "") == nil)
        #expect(SignInDevice.describe(userAgent: "curl/8.5.0", address: nil) == "curl")
        #expect(
            SignInDevice.describe(userAgent: "spotter (unknown version) curl/7.88.1", address: "127.0.0.1")
                == "the spotter command-line tool on this computer (127.0.0.1)")
    }
}
