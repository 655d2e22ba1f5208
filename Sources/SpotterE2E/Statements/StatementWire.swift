// SpotterE2E composes swift-crypto's primitives; no cryptography is written by hand here.
import Foundation
import SpotterModels

extension SignedStatement {
    /// A statement as the wire carries it (`E2EStatement`), its base64url read strictly: only the canonical
    /// spelling, so no two readers take one statement's bytes differently. `nil` for anything else.
    public init?(wire: E2EStatement) {
        guard let body = WireCoding.bytes(wire.body), let signature = WireCoding.bytes(wire.signature) else {
            return nil
        }
        self.init(body: body, signature: signature, signer: wire.signer)
    }

    /// As the wire carries it.
    public var wire: E2EStatement {
        E2EStatement(body: Base64URL.encode(body), signature: Base64URL.encode(signature), signer: signer)
    }
}
