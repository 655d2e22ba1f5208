import Crypto
import Foundation
import SpotterModels

/// Bearer tokens are random strings that mean nothing by themselves; the database holds only their SHA-256.
///
/// A leaked database therefore leaks no usable token. The prefix (`spa_` access, `spr_` refresh) lets secret
/// scanners and people tell them apart.
public enum OpaqueToken {
    /// 32 random bytes from the system's CSPRNG, base64url without padding.
    public static func generate(_ kind: TokenKind) -> String {
        generate(prefix: kind == .access ? "spa_" : "spr_")
    }

    /// A token for a mailed link (`spl_`): a password reset or an email confirmation.
    public static func generateLink() -> String {
        generate(prefix: "spl_")
    }

    /// A challenge for a Nostr key to sign (`spn_`): one-time, kept only as its hash like the others.
    public static func generateChallenge() -> String {
        generate(prefix: "spn_")
    }

    /// A group invitation's code (`spg_`), for a link anyone holding it may use; kept only as its hash.
    public static func generateInvitation() -> String {
        generate(prefix: "spg_")
    }

    private static func generate(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let text = Base64URL.encode(Data(bytes))
        return prefix + text
    }

    /// The hex SHA-256 under which a token is stored and looked up.
    public static func hash(_ token: String) -> String {
        Hex.encode(SHA256.hash(data: Data(token.utf8)))
    }
}
