import Foundation
import SpotterE2E
import SpotterModels

extension SignedStatement {
    /// A statement as the server sent it, its base64url read strictly (the canonical form only), so two
    /// clients never read one statement's bytes differently.
    init(wire: E2EStatement) throws(EncryptedGroupsError) {
        guard let body = Base64URL.decode(wire.body), Base64URL.encode(body) == wire.body,
            let signature = Base64URL.decode(wire.signature), Base64URL.encode(signature) == wire.signature
        else { throw .malformed("a statement that is not canonical base64url") }
        self.init(body: body, signature: signature, signer: wire.signer)
    }

    /// As the wire carries it.
    var wire: E2EStatement {
        E2EStatement(body: Base64URL.encode(body), signature: Base64URL.encode(signature), signer: signer)
    }
}

extension Base64URL {
    /// The bytes of canonical base64url, else `nil`: a wrapped key or ciphertext in any other spelling is refused.
    static func strict(_ text: String) -> Data? {
        guard let data = decode(text), encode(data) == text else { return nil }
        return data
    }
}
