/// Hashes and checks passwords. The server's implementation is bcrypt, run off the event loop because one
/// hash costs a quarter of a second at the default cost on purpose.
public protocol PasswordHasher: Sendable {
    func hash(_ password: String) async throws -> String
    func verify(_ password: String, hash: String) async throws -> Bool
    /// Costs what a `verify` costs, for sign-ins to accounts that don't exist, so timing can't tell a
    /// missing account from a wrong password.
    func verifyUnknownAccount(_ password: String) async
}
