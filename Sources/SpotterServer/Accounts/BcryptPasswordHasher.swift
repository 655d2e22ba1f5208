import Foundation
import HummingbirdBcrypt
import NIOPosix
import SpotterCore

/// bcrypt (HummingbirdBcrypt) on NIO's blocking thread pool, so a hash never stalls an event loop.
struct BcryptPasswordHasher: PasswordHasher {
    let cost: UInt8
    /// A hash of nothing anyone knows, checked against when the account doesn't exist.
    private let decoy: String

    init(cost: UInt8) {
        self.cost = cost
        self.decoy = Bcrypt.hash("spotter decoy password \(UInt64.random(in: 0...UInt64.max))", cost: cost)
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }

    func verifyUnknownAccount(_ password: String) async {
        _ = try? await verify(password, hash: decoy)
    }
}
