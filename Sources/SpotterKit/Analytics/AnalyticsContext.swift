import Foundation

/// What every analytics event says of where it came from (the Nova seed's device context): the platform, the
/// app's version and the device's model, with the install's own random id added by the tracker. Never a name,
/// an email or anything else that says who someone is.
public struct AnalyticsContext: Sendable, Equatable {
    public var platform: String
    /// The app's marketing version (`CFBundleShortVersionString`), empty when unknown.
    public var appVersion: String
    /// The device's model identifier (`iPhone15,2`), empty when unknown.
    public var device: String

    public init(platform: String = AnalyticsContext.currentPlatform, appVersion: String = "", device: String = "") {
        self.platform = platform
        self.appVersion = appVersion
        self.device = device
    }

    /// The platform this build runs on.
    public static var currentPlatform: String {
        #if os(iOS)
        "ios"
        #elseif os(macOS)
        "macos"
        #elseif os(Linux)
        "linux"
        #else
        "other"
        #endif
    }

    /// The context's properties for an event, beside `installID`; empty values are left out.
    func properties(installID: String) -> [String: String] {
        var properties = ["install_id": installID, "platform": platform]
        if !appVersion.isEmpty { properties["app_version"] = String(appVersion.prefix(64)) }
        if !device.isEmpty { properties["device"] = String(device.prefix(64)) }
        return properties
    }
}
