import Foundation

/// A secret key prints as its public key only, so `print(key)`, string interpolation and a debugger's summary
/// never show the secret (Swift's default description of a struct lists every stored property).
extension NostrSecretKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "NostrSecretKey(public: \(publicKey.rawValue), secret redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey]) }
}
