import Foundation
import SpotterModels

/// Password resets and email changes, by a link mailed to the address.
///
/// A link's token is random, stored only as its SHA-256, used once and short-lived (a reset one hour, an
/// email confirmation one day). Asking for a reset answers the same whether or not the address has an
/// account, and mails nothing when it has none; asks are limited per address and per client.
public struct AccountLinkService: Sendable {
    public struct Lifetimes: Sendable {
        public var passwordReset: TimeInterval
        public var emailChange: TimeInterval

        public init(passwordReset: TimeInterval = 3600, emailChange: TimeInterval = 24 * 3600) {
            self.passwordReset = passwordReset
            self.emailChange = emailChange
        }
    }

    let storage: any SpotterStorage
    let hasher: any PasswordHasher
    let clock: any WallClock
    /// Limits asks for mail (per address asked for, per client), apart from sign-in failures.
    let throttle: SigninThrottle
    /// Checks the password of an email change, as wrong passwords at sign-in are counted.
    let signinThrottle: SigninThrottle
    /// `nil` when the server has no way to send mail: then nothing here can work, and says so.
    let mailer: (any AccountMailer)?
    /// Where links point: the site's address as people reach it, e.g. `https://spotter.example`.
    let siteURL: String
    let lifetimes: Lifetimes
    let notifier: Notifier?
    let events: (any EventBus)?

    public init(
        storage: any SpotterStorage, hasher: any PasswordHasher, clock: any WallClock, throttle: SigninThrottle,
        signinThrottle: SigninThrottle, mailer: (any AccountMailer)?, siteURL: String,
        lifetimes: Lifetimes = Lifetimes(), notifier: Notifier? = nil, events: (any EventBus)? = nil
    ) {
        self.storage = storage
        self.hasher = hasher
        self.clock = clock
        self.throttle = throttle
        self.signinThrottle = signinThrottle
        self.mailer = mailer
        self.siteURL = siteURL.hasSuffix("/") ? String(siteURL.dropLast()) : siteURL
        self.lifetimes = lifetimes
        self.notifier = notifier
        self.events = events
    }

    /// The limits on asking for mail: a few per address an hour, more per client.
    public static let askLimits = SigninThrottle.Limits(perAccount: 5, perAddress: 20, window: 3600)

    /// Whether links can be mailed at all on this server.
    public var canSendMail: Bool { mailer != nil }

    // MARK: Password reset

    /// Mails a reset link to `email` when an account has that address; otherwise sends nothing. Either way
    /// it returns the same, so the caller can't tell which.
    public func requestPasswordReset(_ request: PasswordResetRequest, clientAddress: String?) async throws {
        let email = request.email.trimmingCharacters(in: .whitespaces)
        if let problem = TextInput.problem(in: email, as: .line) ?? AccountRules.emailProblem(email) {
            throw SpotterError.validation([FieldError(field: "email", detail: problem)])
        }
        guard let mailer else { throw Self.noMail }
        // Every ask counts, found or not, so the limit itself tells nothing either.
        try await throttle.check(login: email, address: clientAddress)
        await throttle.recordFailure(login: email, address: clientAddress)
        guard let account = try await storage.accounts.find(login: email),
            account.email?.lowercased() == email.lowercased(), account.suspendedAt == nil
        else { return }
        let token = try await issue(.passwordReset, for: account.id, newEmail: nil, lifetime: lifetimes.passwordReset)
        let link = resetLink(token)
        let mail = AccountMail(
            to: email, subject: "Reset your Spotter password",
            text: """
                Someone asked to reset the password of the Spotter account \(account.username).

                To choose a new password, open this link within an hour:
                \(link)

                If it wasn't you, ignore this mail: your password stays as it is.
                """, link: link)
        // Sent after answering: how long the relay takes must not tell a known address from an unknown one.
        Task { await mailer.send(mail) }
    }

    /// Sets a new password with a reset link's token and signs out every login of the account.
    public func resetPassword(_ request: PasswordResetConfirmation) async throws {
        var problems: [FieldError] = []
        _ = TextInput.check(request.token, "token", into: &problems)
        if let problem = TextInput.problem(in: request.password, as: .line)
            ?? AccountRules.passwordProblem(request.password)
        {
            problems.append(FieldError(field: "password", detail: problem))
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        let hash = try await hasher.hash(request.password)
        let now = clock.now
        let user = try await storage.write { () async throws -> UserID in
            guard
                let link = try await storage.accountLinks.consume(
                    hash: OpaqueToken.hash(request.token), purpose: .passwordReset, at: now)
            else { throw Self.invalidLink }
            try await storage.accounts.setPasswordHash(link.userID, hash)
            return link.userID
        }
        // Every login ends: whoever knew the old password is out, and the owner signs in afresh.
        let revoked = try await storage.tokens.revokeFamilies(of: user, except: UUID(), at: now)
        await events?.publish(.loginsRevoked(user, .logins(revoked)))
        if let account = try await storage.accounts.find(id: user) {
            await signinThrottle.recordSuccess(login: account.username)
            if let email = account.email { await signinThrottle.recordSuccess(login: email) }
        }
        await notifier?.notify(.passwordChanged(user: user))
    }

    // MARK: Email change

    /// Mails a confirmation link to the new address and a notice to the old one; the account's email
    /// changes only when the link is opened.
    public func requestEmailChange(_ session: AuthenticatedSession, with request: EmailChangeRequest) async throws {
        let account = session.account
        let email = request.email.trimmingCharacters(in: .whitespaces)
        var problems: [FieldError] = []
        if let problem = TextInput.problem(in: email, as: .line) ?? AccountRules.emailProblem(email) {
            problems.append(FieldError(field: "email", detail: problem))
        } else if email.lowercased() == account.email?.lowercased() {
            problems.append(FieldError(field: "email", detail: "is already your email"))
        }
        _ = TextInput.check(request.password, "password", into: &problems)
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        guard let hash = account.passwordHash else {
            throw SpotterError.validation([
                FieldError(field: "password", detail: "this account signs in with Apple and has no password")
            ])
        }
        guard let mailer else { throw Self.noMail }
        try await signinThrottle.check(login: account.username, address: nil)
        guard try await hasher.verify(request.password, hash: hash) else {
            await signinThrottle.recordFailure(login: account.username, address: nil)
            throw SpotterError.validation([FieldError(field: "password", detail: "is not right")])
        }
        try await throttle.check(login: email, address: account.id.description)
        await throttle.recordFailure(login: email, address: account.id.description)
        if let other = try await storage.accounts.find(login: email), other.id != account.id {
            throw SpotterError.conflict(field: "email", detail: "This email is already taken.")
        }
        let token = try await issue(.emailChange, for: account.id, newEmail: email, lifetime: lifetimes.emailChange)
        let link = "\(siteURL)/confirm-email?token=\(token)"
        await mailer.send(
            AccountMail(
                to: email, subject: "Confirm your new email for Spotter",
                text: """
                    The Spotter account \(account.username) asked to use this address from now on.

                    To confirm, open this link within a day:
                    \(link)

                    If it wasn't you, ignore this mail: nothing changes.
                    """, link: link))
        if let old = account.email {
            await mailer.send(
                AccountMail(
                    to: old, subject: "Your Spotter email is about to change",
                    text: """
                        Someone signed in to your Spotter account \(account.username) asked to change its email \
                        to \(email). It changes only when that address confirms.

                        If it wasn't you, change your password now in Settings.
                        """))
        }
    }

    /// Changes the account's email to the address a confirmation link was mailed to. When `user` is given
    /// (the API, signed in) the link must be theirs.
    @discardableResult
    public func confirmEmailChange(_ request: EmailChangeConfirmation, by user: UserID? = nil) async throws -> Account {
        _ = try TextInput.checked(request.token, field: "token")
        let now = clock.now
        let (before, after) = try await storage.write { () async throws -> (AccountRecord, AccountRecord) in
            guard
                let link = try await storage.accountLinks.consume(
                    hash: OpaqueToken.hash(request.token), purpose: .emailChange, at: now),
                user == nil || user == link.userID, let email = link.newEmail,
                var account = try await storage.accounts.find(id: link.userID)
            else { throw Self.invalidLink }
            let before = account
            do {
                try await storage.accounts.setEmail(account.id, email)
            } catch StorageError.duplicate {
                throw SpotterError.conflict(
                    field: "email", detail: "This email was taken by another account meanwhile.")
            }
            account.email = email
            return (before, account)
        }
        if let old = before.email, let mailer, let new = after.email {
            let notice = AccountMail(
                to: old, subject: "Your Spotter email has changed",
                text: """
                    The email of your Spotter account \(after.username) is now \(new).

                    If it wasn't you, tell the server's operator at once: they can give the account back.
                    """)
            Task { await mailer.send(notice) }
        }
        return after.account
    }

    // MARK: Links

    /// Where a reset link's token is used: the web app's form (`spotter admin reset-password` prints it too).
    func resetLink(_ token: String) -> String { "\(siteURL)/reset-password?token=\(token)" }

    func issue(
        _ purpose: AccountLinkPurpose, for user: UserID, newEmail: String?, lifetime: TimeInterval
    ) async throws -> String {
        let now = clock.now
        let token = OpaqueToken.generateLink()
        try await storage.accountLinks.insert(
            AccountLinkRecord(
                hash: OpaqueToken.hash(token), userID: user, purpose: purpose, newEmail: newEmail, createdAt: now,
                expiresAt: now + lifetime))
        return token
    }

    static let invalidLink = SpotterError.validation([
        FieldError(field: "token", detail: "this link is not valid: it was used already, has expired, or is wrong")
    ])

    static let noMail = SpotterError.unavailable(
        "This server cannot send email, so it cannot mail links. Ask the person who runs it, or one of its admins: "
            + "they can make you a link to choose a new password, or set your email.")
}
