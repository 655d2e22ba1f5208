import Foundation
import SpotterModels

/// What makes an email, username or password acceptable. Pure functions: each returns the problems it finds,
/// so a signup with three bad fields hears about all three at once.
public enum AccountRules {
    public static let usernameLength = 3...30
    /// At least 8 characters, as the document's `minLength` counts them (Unicode code points); at most 72 bytes
    /// in UTF-8, because bcrypt reads no further and anything longer would be silently cut.
    public static let passwordMinCharacters = 8
    public static let passwordMaxBytes = 72
    public static let emailMaxLength = 254

    public static func problems(in request: SignupRequest) -> [FieldError] {
        [
            (TextInput.problem(in: request.email, as: .line) ?? emailProblem(request.email))
                .map { FieldError(field: "email", detail: $0) },
            usernameProblem(request.username).map { FieldError(field: "username", detail: $0) },
            (TextInput.problem(in: request.password, as: .line) ?? passwordProblem(request.password))
                .map { FieldError(field: "password", detail: $0) },
        ].compactMap { $0 }
    }

    /// A sign-in's login and password are one line each. Judged before any lookup, so what could never be a
    /// login never reaches the database (PostgreSQL refuses a NUL in text).
    public static func problems(in request: SigninRequest) -> [FieldError] {
        [
            TextInput.problem(in: request.login, as: .line).map { FieldError(field: "login", detail: $0) },
            TextInput.problem(in: request.password, as: .line).map { FieldError(field: "password", detail: $0) },
        ].compactMap { $0 }
    }

    /// A deliberately plain check: one `@`, a dotted domain, no spaces or control characters. Whether the
    /// mailbox exists is for a confirmation email to find out, not for a pattern.
    public static func emailProblem(_ email: String) -> String? {
        if email.isEmpty { return "is required" }
        if email.utf8.count > emailMaxLength { return "must be at most \(emailMaxLength) characters" }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            email.unicodeScalars.allSatisfy({ !CharacterSet.whitespacesAndNewlines.contains($0) && $0.value >= 0x20 }),
            parts[1].split(separator: ".", omittingEmptySubsequences: false).allSatisfy(isDomainLabel)
        else { return "is not an email address" }
        return nil
    }

    /// A domain's label as mail can reach it: letters (of any script, for internationalised names), digits and
    /// hyphens, not at either end. (schemathesis found `a@b.com*` taken, which the document's `format: email`
    /// refuses.)
    static func isDomainLabel(_ label: Substring) -> Bool {
        !label.isEmpty && label.first != "-" && label.last != "-"
            && label.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" }
    }

    /// Letters, digits and underscores, 3 to 30 of them; compared without regard to case.
    public static func usernameProblem(_ username: String) -> String? {
        guard usernameLength.contains(username.count) else {
            return "must be \(usernameLength.lowerBound) to \(usernameLength.upperBound) characters"
        }
        guard username.unicodeScalars.allSatisfy(isUsernameCharacter) else {
            return "may contain only letters, digits and underscores"
        }
        return nil
    }

    /// ASCII letters, digits and the underscore: what a username and a mention (`@name`) are made of.
    public static func isUsernameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }

    public static let displayNameLength = 1...50

    /// Any printable text on one line: something besides whitespace, 50 characters at most (as sent; it is
    /// stored trimmed).
    public static func displayNameProblem(_ name: String) -> String? {
        guard TextLength.isName(name, maxLength: displayNameLength.upperBound) else {
            return "must be \(displayNameLength.lowerBound) to \(displayNameLength.upperBound) characters"
        }
        return TextInput.problem(in: name, as: .line)
    }

    /// 8 to 72: JSON Schema counts a string's length in code points, so the minimum does too (seven accented
    /// letters are seven characters however many bytes they take; `String.count` would count "e" and a
    /// combining accent as one, and refuse what the document allows); bcrypt's maximum is in bytes. A control
    /// character is refused with the other text rules (`TextInput`): besides meaning nothing in a password, a
    /// NUL would end it early for bcrypt, which reads a C string.
    public static func passwordProblem(_ password: String) -> String? {
        if password.unicodeScalars.count < passwordMinCharacters {
            return "must be at least \(passwordMinCharacters) characters"
        }
        if password.utf8.count > passwordMaxBytes { return "must be at most \(passwordMaxBytes) bytes in UTF-8" }
        return nil
    }

    public static let bioMaxLength = 300

    /// Checks a profile change and returns the resulting display name and fields; throws naming every bad
    /// field.
    public static func apply(
        _ request: UpdateAccountRequest, to account: AccountRecord
    ) throws -> (String, ProfileFields) {
        var problems: [FieldError] = []
        var displayName = account.displayName
        var profile = account.profile
        if let name = request.displayName {
            if let problem = displayNameProblem(name) {
                problems.append(FieldError(field: "display_name", detail: problem))
            }
            displayName = name.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let bio = request.bio.map({ TextInput.check($0, "bio", as: .lines, into: &problems) }) {
            if bio.textLength > bioMaxLength {
                problems.append(FieldError(field: "bio", detail: "must be at most \(bioMaxLength) characters"))
            }
            profile.bio = bio.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let avatar = request.avatarURL {
            if avatar.isEmpty {
                profile.avatarURL = nil
            } else if let problem = TextInput.problem(in: avatar, as: .line) ?? avatarProblem(avatar) {
                problems.append(FieldError(field: "avatar_url", detail: problem))
            } else {
                profile.avatarURL = avatar
            }
        }
        if let zone = request.timeZone {
            if !isTimeZone(zone) {
                problems.append(
                    FieldError(field: "time_zone", detail: "is not an IANA time zone such as Europe/Berlin"))
            }
            profile.timeZone = zone
        }
        if let units = request.units { profile.units = units }
        if let privacy = request.privacy { profile.privacy = privacy }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        return (displayName, profile)
    }

    /// An IANA time zone name (`Europe/Berlin`, `UTC`), 64 characters at most: the profile's and quiet hours'.
    /// The document lists the names of the IANA database, each of which this takes (OpenAPIContractTests).
    public static func isTimeZone(_ zone: String) -> Bool {
        zone.textLength <= 64 && TimeZone(identifier: zone) != nil
    }

    /// An absolute http(s) URL of at most 2048 characters (uploads come later; until then avatars are links).
    public static func avatarProblem(_ url: String) -> String? {
        guard url.textLength <= 2048, let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            ["http", "https"].contains(scheme), parsed.host?.isEmpty == false
        else { return "must be an http or https URL" }
        return nil
    }
}
