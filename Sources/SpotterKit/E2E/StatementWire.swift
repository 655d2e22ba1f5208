import Foundation
import SpotterE2E
import SpotterModels

extension SignedStatement {
    /// A statement as the server sent it, or `malformed` when its base64url is not the canonical spelling.
    static func read(_ wire: E2EStatement) throws(EncryptedGroupsError) -> SignedStatement {
        guard let statement = SignedStatement(wire: wire) else {
            throw .malformed("a statement that is not canonical base64url")
        }
        return statement
    }
}

extension Base64URL {
    /// The bytes of canonical base64url, else `nil`: a wrapped key or ciphertext in any other spelling is refused.
    static func strict(_ text: String) -> Data? {
        guard let data = decode(text), encode(data) == text else { return nil }
        return data
    }
}
