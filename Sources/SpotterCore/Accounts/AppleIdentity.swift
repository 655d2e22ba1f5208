/// What a verified Sign in with Apple identity token says about its holder.
public struct AppleIdentity: Sendable, Equatable {
    /// Apple's stable user identifier for this app (`sub`).
    public var subject: String
    public var email: String?
    /// Whether Apple vouches for the email, which is what makes linking by email safe.
    public var emailVerified: Bool

    public init(subject: String, email: String?, emailVerified: Bool) {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
    }
}

/// Verifies an Apple identity token: signature against Apple's key set, `iss`, `aud` (our client id), `exp`,
/// and that its `nonce` is the SHA-256 of the raw nonce the app sent. Throws `SpotterError.unauthorized` for a
/// token that fails any check.
public protocol AppleIdentityVerifier: Sendable {
    func verify(identityToken: String, rawNonce: String) async throws -> AppleIdentity
}
