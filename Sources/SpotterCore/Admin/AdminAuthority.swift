import Foundation
import SpotterModels

/// Who asks for something only admins may do.
public enum AdminAuthority: Sendable {
    /// The server's operator at its terminal (`spotter admin …`): whoever can run that can already read the
    /// database, so no account is asked for. No web request is ever this.
    case terminal
    /// A signed-in account, which must be an admin (`spotter admin grant` made it one).
    case account(AccountRecord)

    /// Whether it is the operator or an admin.
    public var isAllowed: Bool {
        switch self {
        case .terminal: true
        case .account(let account): account.role == .admin
        }
    }

    /// Refuses anyone who is not the operator or an admin.
    public func check() throws {
        guard isAllowed else { throw SpotterError.forbidden("Only admins can do this.") }
    }
}
