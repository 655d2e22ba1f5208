import Foundation

/// `dump(key)` and debuggers walk a value's mirror, which would list the secret's bytes: the mirror shows the
/// public key only, as `description` does.
extension NostrSecretKey: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey]) }
}
