import Foundation
import SpotterModels

/// Signs people up and in, and issues, rotates and revokes their tokens.
///
/// Token rules (Nova seed): access tokens live 15 minutes, refresh tokens 30 days. A refresh rotates the
/// pair. A refresh token presented a second time means two parties hold it, so the whole login (its token
/// family) is revoked: a stolen token cannot outlive its owner's next refresh.
public struct AccountService: Sendable {
    public struct Lifetimes: Sendable {
        public var accessToken: TimeInterval
        public var refreshToken: TimeInterval

        public init(accessToken: TimeInterval = 15 * 60, refreshToken: TimeInterval = 30 * 24 * 3600) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
        }
    }

    let storage: any SpotterStorage
    let hasher: any PasswordHasher
    let clock: any WallClock
    let throttle: SigninThrottle
    let apple: (any AppleIdentityVerifier)?
    let lifetimes: Lifetimes
    /// Sends security alerts (a sign-in from a new device); `nil` in tools.
    let notifier: Notifier?
    /// Hears of revoked logins, so their sockets close on every node.
    let events: (any EventBus)?
    /// The URLs of avatars; `nil` where uploads are not set up (tools): `avatar_media_id` is then refused.
    let mediaLinks: MediaLinks?

    public init(
        storage: any SpotterStorage, hasher: any PasswordHasher, clock: any WallClock, throttle: SigninThrottle,
        apple: (any AppleIdentityVerifier)?, lifetimes: Lifetimes = Lifetimes(), notifier: Notifier? = nil,
        events: (any EventBus)? = nil, mediaLinks: MediaLinks? = nil
    ) {
        self.mediaLinks = mediaLinks
        self.notifier = notifier
        self.events = events
        self.storage = storage
        self.hasher = hasher
        self.clock = clock
        self.throttle = throttle
        self.apple = apple
        self.lifetimes = lifetimes
    }

    // MARK: Email and password

    /// - Parameter device: what the client says it is (its `User-Agent`); sign-ins from another one alert.
    /// - Parameter clientAddress: where it calls from; kept with the login for the account's security page.
    public func signup(
        _ request: SignupRequest, device: String? = nil, clientAddress: String? = nil
    ) async throws -> TokenResponse {
        let problems = AccountRules.problems(in: request)
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        let now = clock.now
        let account = AccountRecord(
            id: .generate(at: now), username: request.username, email: request.email,
            passwordHash: try await hasher.hash(request.password), displayName: request.username,
            appleSubject: nil, createdAt: now)
        do {
            try await storage.accounts.create(account)
        } catch StorageError.duplicate(let field) {
            throw SpotterError.conflict(field: field, detail: "This \(field) is already taken.")
        }
        _ = try await storage.pushAddresses.rememberDevice(Self.deviceKey(device), of: account.id, at: now)
        return try await startLogin(for: account, device: device, address: clientAddress)
    }

    public func signin(
        _ request: SigninRequest, clientAddress: String?, device: String? = nil
    ) async throws
        -> TokenResponse
    {
        let problems = AccountRules.problems(in: request)
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        let login = request.login.trimmingCharacters(in: .whitespaces)
        try await throttle.check(login: login, address: clientAddress)
        let account = try await storage.accounts.find(login: login)
        guard let account, let passwordHash = account.passwordHash else {
            // Spend a bcrypt's worth of time anyway, so a missing account can't be told from a wrong password.
            await hasher.verifyUnknownAccount(request.password)
            await throttle.recordFailure(login: login, address: clientAddress)
            throw SpotterError.unauthorized("Wrong login or password.")
        }
        guard try await hasher.verify(request.password, hash: passwordHash) else {
            await throttle.recordFailure(login: login, address: clientAddress)
            throw SpotterError.unauthorized("Wrong login or password.")
        }
        await throttle.recordSuccess(login: login)
        if try await storage.pushAddresses.rememberDevice(Self.deviceKey(device), of: account.id, at: clock.now) {
            let detail = SignInDevice.describe(userAgent: device, address: clientAddress)
            await notifier?.notify(.signedIn(user: account.id, device: detail))
        }
        return try await startLogin(for: account, device: device, address: clientAddress)
    }

    /// Changes the password when the current one is right, signs out every other login (a thief holding
    /// one loses it with the old password) and alerts the owner on their other channels. The caller's own
    /// login stays signed in.
    public func changePassword(_ session: AuthenticatedSession, with request: ChangePasswordRequest) async throws {
        let account = session.account
        var problems: [FieldError] = []
        _ = TextInput.check(request.currentPassword, "current_password", into: &problems)
        _ = TextInput.check(request.newPassword, "new_password", into: &problems)
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        guard let hash = account.passwordHash else {
            throw SpotterError.validation([
                FieldError(field: "current_password", detail: "this account signs in with Apple and has no password")
            ])
        }
        if let problem = AccountRules.passwordProblem(request.newPassword) {
            throw SpotterError.validation([FieldError(field: "new_password", detail: problem)])
        }
        // A wrong current password is a field error, not 401: the caller is signed in, only the proof is wrong.
        // It counts against the sign-in throttle like a wrong password at sign-in, so it can't be guessed here.
        try await throttle.check(login: account.username, address: nil)
        guard try await hasher.verify(request.currentPassword, hash: hash) else {
            await throttle.recordFailure(login: account.username, address: nil)
            throw SpotterError.validation([FieldError(field: "current_password", detail: "is not right")])
        }
        let now = clock.now
        try await storage.accounts.setPasswordHash(account.id, try await hasher.hash(request.newPassword))
        let revoked = try await storage.tokens.revokeFamilies(of: account.id, except: session.token.family, at: now)
        await events?.publish(.loginsRevoked(account.id, .logins(revoked)))
        await notifier?.notify(.passwordChanged(user: account.id))
    }

    /// Signs out every login of the account but the caller's own (a lost phone, a shared computer), and
    /// tells the live sockets of those logins. Returns how many logins ended.
    @discardableResult
    public func signOutOthers(_ session: AuthenticatedSession) async throws -> Int {
        let revoked = try await storage.tokens.revokeFamilies(
            of: session.account.id, except: session.token.family, at: clock.now)
        await events?.publish(.loginsRevoked(session.account.id, .logins(revoked)))
        return revoked.count
    }

    /// The account's logins in use, the caller's own among them (`LoginRecord.family` is
    /// `session.token.family`), most recently active first.
    public func logins(_ session: AuthenticatedSession) async throws -> [LoginRecord] {
        try await storage.tokens.activeLogins(of: session.account.id, at: clock.now, limit: 50)
    }

    /// Signs out one of the account's other logins. A login that isn't the caller's, or is gone, is not found.
    public func signOut(login family: UUID, _ session: AuthenticatedSession) async throws {
        guard family != session.token.family, try await logins(session).contains(where: { $0.family == family })
        else { throw SpotterError.notFound("No such login.") }
        try await storage.tokens.revokeFamily(family, at: clock.now)
        await events?.publish(.loginsRevoked(session.account.id, .logins([family])))
    }

    // MARK: Tokens

    /// Resolves a bearer access token to its account. Throws `unauthorized` for unknown, expired or revoked
    /// tokens, and for refresh tokens presented as access tokens.
    public func authenticate(accessToken: String) async throws -> AuthenticatedSession {
        let now = clock.now
        // Every authenticated request comes through here, so the token and its account are one read.
        guard let (token, account) = try await storage.tokens.findWithAccount(hash: OpaqueToken.hash(accessToken)),
            token.kind == .access, token.revokedAt == nil
        else { throw SpotterError.unauthorized("The access token is not valid.") }
        guard token.expiresAt > now else { throw SpotterError.unauthorized("The access token has expired.") }
        guard let account else { throw SpotterError.unauthorized("The access token is not valid.") }
        try Self.refuseSuspended(account)
        return AuthenticatedSession(account: account, token: token)
    }

    /// Rotates a refresh token into a new pair of the same login.
    public func refresh(refreshToken: String) async throws -> TokenResponse {
        _ = try TextInput.checked(refreshToken, field: "refresh_token")
        let now = clock.now
        guard let token = try await storage.tokens.find(hash: OpaqueToken.hash(refreshToken)), token.kind == .refresh,
            token.revokedAt == nil
        else { throw SpotterError.unauthorized("The refresh token is not valid.") }
        guard token.usedAt == nil, try await storage.tokens.markUsed(hash: token.hash, at: now) else {
            // The revocation stands although the request fails: the unit commits it, then the error goes out.
            return try await storage.keepingWrites { () async throws -> TokenResponse in
                try await storage.tokens.revokeFamily(token.family, at: now)
                await events?.publish(.loginsRevoked(token.userID, .logins([token.family])))
                throw SpotterError.unauthorized("The refresh token was already used; this login has been signed out.")
            }
        }
        guard token.expiresAt > now else { throw SpotterError.unauthorized("The refresh token has expired.") }
        guard let account = try await storage.accounts.find(id: token.userID) else {
            throw SpotterError.unauthorized("The refresh token is not valid.")
        }
        return try await issuePair(for: account, family: token.family)
    }

    /// The login a refresh token stands for, without rotating it; `nil` when it is unknown, used, revoked,
    /// expired, or its account suspended. A browser's session cookie is its login's refresh token, which the
    /// web never rotates: a page and its `fetch` calls arrive at once, and rotation's reuse detection would
    /// read them as theft.
    public func session(refreshToken: String) async throws -> AuthenticatedSession? {
        guard !refreshToken.isEmpty, refreshToken.count < 200,
            let token = try await storage.tokens.find(hash: OpaqueToken.hash(refreshToken)),
            token.kind == .refresh, token.revokedAt == nil, token.usedAt == nil, token.expiresAt > clock.now,
            let account = try await storage.accounts.find(id: token.userID), account.suspendedAt == nil
        else { return nil }
        return AuthenticatedSession(account: account, token: token)
    }

    /// A new access token of the session's login, with the usual short lifetime: what a web page's script
    /// holds for the realtime socket, while the long-lived session stays in an HttpOnly cookie.
    public func issueAccessToken(for session: AuthenticatedSession) async throws -> String {
        try Self.refuseSuspended(session.account)
        let now = clock.now
        let token = OpaqueToken.generate(.access)
        try await storage.tokens.insert(
            TokenRecord(
                hash: OpaqueToken.hash(token), userID: session.account.id, family: session.token.family,
                kind: .access, createdAt: now, expiresAt: now + lifetimes.accessToken))
        return token
    }

    /// Ends the login the session's token belongs to; other logins of the same account stay.
    public func signout(_ session: AuthenticatedSession) async throws {
        try await storage.tokens.revokeFamily(session.token.family, at: clock.now)
        await events?.publish(.loginsRevoked(session.account.id, .logins([session.token.family])))
    }

    /// Changes what the caller's account shows; returns the account as it now is. Every field is checked
    /// before anything is written, so a request with one bad field changes nothing.
    public func update(_ session: AuthenticatedSession, with request: UpdateAccountRequest) async throws -> Account {
        var account = session.account
        var (displayName, profile) = try AccountRules.apply(request, to: account)
        // An avatar is an upload of the person's own, served at a URL of this site: a URL from elsewhere could
        // tell another site who looked at a profile.
        var avatar: MediaID??
        if let id = request.avatarMediaID {
            profile.avatarURL = try await AvatarChoice(storage: storage, links: mediaLinks).path(
                of: id, for: .person(account.id), uploader: account.id)
            avatar = .some(id)
        } else if request.avatarURL != nil {
            avatar = .some(nil)  // a URL given, or the avatar removed: no upload is the avatar any more
        }
        account.displayName = displayName
        account.profile = profile
        try await storage.write {
            try await storage.accounts.updateProfile(account.id, displayName: displayName, profile: profile)
            if let avatar { try await storage.media.setAvatar(avatar, of: .person(account.id), at: clock.now) }
        }
        if session.account.profile.privacy == .private, profile.privacy != .private {
            // Opening a private account lets in the people who were waiting.
            try await storage.graph.acceptPendingFollows(of: account.id)
        }
        return account.account
    }

    // MARK: Sign in with Apple

    /// Signs in with an Apple identity token: to the account already linked to this Apple ID, else to the
    /// account with Apple's verified email (linking it), else to a new account.
    public func signInWithApple(
        _ request: AppleSigninRequest, device: String? = nil, clientAddress: String? = nil
    ) async throws -> TokenResponse {
        guard let apple else { throw SpotterError.notFound("Sign in with Apple is not enabled on this server.") }
        var problems: [FieldError] = []
        _ = TextInput.check(request.identityToken, "identity_token", into: &problems)
        _ = TextInput.check(request.nonce, "nonce", into: &problems)
        if let username = request.username, let problem = AccountRules.usernameProblem(username) {
            problems.append(FieldError(field: "username", detail: problem))
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        let identity = try await apple.verify(identityToken: request.identityToken, rawNonce: request.nonce)
        if let linked = try await storage.accounts.find(appleSubject: identity.subject) {
            return try await startLogin(for: linked, device: device, address: clientAddress)
        }
        if let email = identity.email, identity.emailVerified,
            let existing = try await storage.accounts.find(login: email),
            existing.email?.lowercased() == email.lowercased()
        {
            try await storage.accounts.setAppleSubject(identity.subject, for: existing.id)
            return try await startLogin(for: existing, device: device, address: clientAddress)
        }
        let account = try await createAppleAccount(identity, username: request.username)
        return try await startLogin(for: account, device: device, address: clientAddress)
    }

    private func createAppleAccount(
        _ identity: AppleIdentity, username requested: String?
    ) async throws
        -> AccountRecord
    {
        var email = identity.email
        var username = requested ?? Self.username(suggestedBy: identity.email)
        for attempt in 0..<6 {
            let now = clock.now
            let account = AccountRecord(
                id: .generate(at: now), username: username, email: email, passwordHash: nil, displayName: username,
                appleSubject: identity.subject, createdAt: now)
            do {
                try await storage.accounts.create(account)
                return account
            } catch StorageError.duplicate(let field) {
                switch field {
                case "username" where requested != nil:
                    throw SpotterError.conflict(field: "username", detail: "This username is already taken.")
                case "username":
                    let base = Self.username(suggestedBy: identity.email).prefix(24)
                    username = "\(base)\(Int.random(in: 10...99_999))"
                case "email":
                    email = nil  // an unverified address someone else owns: keep the account, drop the email
                default:
                    if attempt > 0 { throw StorageError.duplicate(field: field) }
                    // The Apple ID was linked concurrently: sign in to that account instead.
                    if let linked = try await storage.accounts.find(appleSubject: identity.subject) { return linked }
                }
            }
        }
        throw SpotterError.conflict(field: "username", detail: "Could not find a free username; choose one.")
    }

    /// A username from the email's local part, letters, digits and underscores only.
    static func username(suggestedBy email: String?) -> String {
        let local = email?.split(separator: "@").first.map(String.init) ?? ""
        let cleaned = String(String.UnicodeScalarView(local.unicodeScalars.filter(AccountRules.isUsernameCharacter)))
        return cleaned.count >= AccountRules.usernameLength.lowerBound ? String(cleaned.prefix(24)) : "athlete"
    }

    /// A suspended account keeps its data but can do nothing until an admin lifts the suspension.
    /// Devices are told apart by what the client says it is; only a hash is kept.
    static func deviceKey(_ device: String?) -> String {
        OpaqueToken.hash(deviceName(device))
    }

    /// A short, printable form of the `User-Agent`: what tells devices apart (the alert itself names the
    /// device with `SignInDevice`).
    static func deviceName(_ device: String?) -> String {
        let trimmed = (device ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return "an unknown device" }
        return String(trimmed.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(120))
    }

    static func refuseSuspended(_ account: AccountRecord) throws {
        if account.suspendedAt != nil { throw SpotterError.forbidden("This account is suspended.") }
    }

    // MARK: Issuing

    /// Signs in to an account that another proof already identified (a Nostr key's signed event): the same
    /// new-device alert, login record and token pair as a password sign-in. A new account alerts nobody.
    func signIn(
        identified account: AccountRecord, isNew: Bool, device: String?, address: String?
    ) async throws
        -> TokenResponse
    {
        try Self.refuseSuspended(account)
        let firstTime = try await storage.pushAddresses.rememberDevice(
            Self.deviceKey(device), of: account.id, at: clock.now)
        if firstTime, !isNew {
            let detail = SignInDevice.describe(userAgent: device, address: address)
            await notifier?.notify(.signedIn(user: account.id, device: detail))
        }
        return try await startLogin(for: account, device: device, address: address)
    }

    /// A new login, remembering what it signed in from so the security page can name it among the others.
    private func startLogin(
        for account: AccountRecord, device: String?, address: String?
    ) async throws
        -> TokenResponse
    {
        let family = UUIDv7.make(at: clock.now)
        let tokens = try await issuePair(for: account, family: family)
        // After the tokens: a sweep of expired logins between the two would otherwise drop the record.
        try await storage.tokens.recordLogin(
            family, of: account.id, userAgent: Self.kept(device, limit: 512), address: Self.kept(address, limit: 64),
            at: clock.now)
        return tokens
    }

    /// Printable and cut short, or `nil` when empty: a header can carry anything, and only what names the
    /// device is worth keeping.
    static func kept(_ text: String?, limit: Int) -> String? {
        let printable = (text ?? "").unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(limit)
        let kept = String(String.UnicodeScalarView(printable)).trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? nil : kept
    }

    private func issuePair(for account: AccountRecord, family: UUID) async throws -> TokenResponse {
        try Self.refuseSuspended(account)
        let now = clock.now
        let access = OpaqueToken.generate(.access)
        let refresh = OpaqueToken.generate(.refresh)
        for (text, kind, lifetime) in [
            (access, TokenKind.access, lifetimes.accessToken), (refresh, .refresh, lifetimes.refreshToken),
        ] {
            try await storage.tokens.insert(
                TokenRecord(
                    hash: OpaqueToken.hash(text), userID: account.id, family: family, kind: kind, createdAt: now,
                    expiresAt: now + lifetime))
        }
        return TokenResponse(
            accessToken: access, refreshToken: refresh, expiresIn: Int(lifetimes.accessToken), user: account.account)
    }
}

/// Who is calling, as proved by their access token.
public struct AuthenticatedSession: Sendable {
    public var account: AccountRecord
    public var token: TokenRecord

    public init(account: AccountRecord, token: TokenRecord) {
        self.account = account
        self.token = token
    }
}
