import Foundation

/// `POST /api/v1/auth/signup`.
public struct SignupRequest: Codable, Sendable, Equatable {
    public var email: String
    public var username: String
    public var password: String

    public init(email: String, username: String, password: String) {
        self.email = email
        self.username = username
        self.password = password
    }
}

/// `POST /api/v1/auth/signin`: `login` is the account's email or username, either case.
public struct SigninRequest: Codable, Sendable, Equatable {
    public var login: String
    public var password: String

    public init(login: String, password: String) {
        self.login = login
        self.password = password
    }
}

/// `POST /api/v1/auth/password`: the current password proves it is the owner, not someone at an unlocked
/// phone.
public struct ChangePasswordRequest: Codable, Sendable, Equatable {
    public var currentPassword: String
    public var newPassword: String

    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
        case newPassword = "new_password"
    }
}

/// `POST /api/v1/auth/refresh`.
public struct RefreshRequest: Codable, Sendable, Equatable {
    public var refreshToken: String

    public init(refreshToken: String) { self.refreshToken = refreshToken }

    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// `POST /api/v1/auth/apple`: the identity token from `ASAuthorizationAppleIDCredential`, and the raw nonce
/// whose SHA-256 (hex) the app put in the authorization request. `username` is used only when the sign-in
/// creates a new account.
public struct AppleSigninRequest: Codable, Sendable, Equatable {
    public var identityToken: String
    public var nonce: String
    public var username: String?

    public init(identityToken: String, nonce: String, username: String? = nil) {
        self.identityToken = identityToken
        self.nonce = nonce
        self.username = username
    }

    enum CodingKeys: String, CodingKey {
        case identityToken = "identity_token"
        case nonce, username
    }
}

/// What signup, signin, refresh and Apple sign-in return: a fresh token pair and the account.
public struct TokenResponse: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    public var tokenType: String
    /// Seconds until the access token expires.
    public var expiresIn: Int
    public var user: Account

    public init(accessToken: String, refreshToken: String, expiresIn: Int, user: Account) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = "Bearer"
        self.expiresIn = expiresIn
        self.user = user
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case user
    }
}

/// The signed-in user's own account, as `GET /api/v1/me` returns it. Unlike a public profile it carries the
/// email address.
public struct Account: Codable, Sendable, Equatable {
    public var id: UserID
    public var username: String
    public var email: String?
    public var displayName: String
    public var createdAt: Date
    public var bio: String
    public var avatarURL: String?
    public var units: Units
    public var timeZone: String
    public var privacy: Privacy
    public var role: Role

    public init(
        id: UserID, username: String, email: String?, displayName: String, createdAt: Date, bio: String = "",
        avatarURL: String? = nil, units: Units = .kg, timeZone: String = "UTC", privacy: Privacy = .public,
        role: Role = .member
    ) {
        self.id = id
        self.username = username
        self.email = email
        self.displayName = displayName
        self.createdAt = createdAt
        self.bio = bio
        self.avatarURL = avatarURL
        self.units = units
        self.timeZone = timeZone
        self.privacy = privacy
        self.role = role
    }

    enum CodingKeys: String, CodingKey {
        case id, username, email
        case displayName = "display_name"
        case createdAt = "created_at"
        case bio
        case avatarURL = "avatar_url"
        case units
        case timeZone = "time_zone"
        case privacy, role
    }

    /// Version 0.1 accounts had no profile fields: they decode with the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UserID.self, forKey: .id)
        username = try container.decode(String.self, forKey: .username)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        displayName = try container.decode(String.self, forKey: .displayName)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        bio = try container.decodeIfPresent(String.self, forKey: .bio) ?? ""
        avatarURL = try container.decodeIfPresent(String.self, forKey: .avatarURL)
        units = try container.decodeIfPresent(Units.self, forKey: .units) ?? .kg
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone) ?? "UTC"
        privacy = try container.decodeIfPresent(Privacy.self, forKey: .privacy) ?? .public
        role = try container.decodeIfPresent(Role.self, forKey: .role) ?? .member
    }
}

/// `PATCH /api/v1/me`: fields left out stay as they are; `avatar_url: ""` removes the avatar.
public struct UpdateAccountRequest: Codable, Sendable, Equatable {
    public var displayName: String?
    public var bio: String?
    public var avatarURL: String?
    public var units: Units?
    public var timeZone: String?
    public var privacy: Privacy?
    /// An avatar upload of the caller's own, ready: it becomes the avatar everywhere the person is shown.
    public var avatarMediaID: MediaID?

    public init(
        displayName: String? = nil, bio: String? = nil, avatarURL: String? = nil, units: Units? = nil,
        timeZone: String? = nil, privacy: Privacy? = nil, avatarMediaID: MediaID? = nil
    ) {
        self.avatarMediaID = avatarMediaID
        self.displayName = displayName
        self.bio = bio
        self.avatarURL = avatarURL
        self.units = units
        self.timeZone = timeZone
        self.privacy = privacy
    }

    enum CodingKeys: String, CodingKey {
        case displayName = "display_name"
        case bio
        case avatarURL = "avatar_url"
        case units
        case timeZone = "time_zone"
        case privacy
        case avatarMediaID = "avatar_media_id"
    }
}

/// `POST /api/v1/auth/password-reset`: mail a reset link to this address if an account has it. The answer
/// is the same either way, so nobody learns which addresses have accounts.
public struct PasswordResetRequest: Codable, Sendable, Equatable {
    public var email: String

    public init(email: String) { self.email = email }
}

/// `POST /api/v1/auth/password-reset/confirm`: the token from the mailed link and the new password.
public struct PasswordResetConfirmation: Codable, Sendable, Equatable {
    public var token: String
    public var password: String

    public init(token: String, password: String) {
        self.token = token
        self.password = password
    }
}

/// `POST /api/v1/me/email`: the new address gets a link; the account's email changes when it is opened.
/// The password proves it is the owner, not someone at an unlocked phone.
public struct EmailChangeRequest: Codable, Sendable, Equatable {
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// `POST /api/v1/me/email/confirm`: the token from the link mailed to the new address.
public struct EmailChangeConfirmation: Codable, Sendable, Equatable {
    public var token: String

    public init(token: String) { self.token = token }
}
