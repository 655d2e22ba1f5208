import Foundation
import SpotterModels

/// The rest of the REST API: Sign in with Apple, follower lists and requests, progress, comment editing and
/// template deletion, exercise templates, and moderation.
extension SpotterClient {
    // MARK: Sign in with Apple

    /// Signs in with the identity token from `ASAuthorizationAppleIDCredential` and the raw nonce whose
    /// SHA-256 was in the request; creates the account the first time (`username` picks its name).
    @discardableResult
    public func signInWithApple(identityToken: String, nonce: String, username: String? = nil) async throws -> Account {
        return try await signingIn {
            try await self.call(
                Call(
                    method: "POST", path: "/api/v1/auth/apple",
                    body: try Self.encoder.encode(
                        AppleSigninRequest(identityToken: identityToken, nonce: nonce, username: username)),
                    authenticated: false))
        }
    }

    // MARK: Password reset and email change

    /// Asks for a password-reset link by email. The server answers the same whether or not the address has an
    /// account, so this returning tells nothing about it.
    ///
    /// ```swift
    /// try await client.requestPasswordReset(email: "ana@example.com")
    /// // …later, with the token from the mailed link:
    /// try await client.resetPassword(token: token, newPassword: "a new long one")
    /// ```
    public func requestPasswordReset(email: String) async throws {
        _ = try await send(
            Call(
                method: "POST", path: "/api/v1/auth/password-reset",
                body: try Self.encoder.encode(PasswordResetRequest(email: email)), authenticated: false))
    }

    /// Sets a new password with the token of a reset link. Every login of the account is signed out, this
    /// client's too: sign in again with the new password.
    public func resetPassword(token: String, newPassword: String) async throws {
        _ = try await send(
            Call(
                method: "POST", path: "/api/v1/auth/password-reset/confirm",
                body: try Self.encoder.encode(PasswordResetConfirmation(token: token, password: newPassword)),
                authenticated: false))
    }

    /// Changes the password, proven by the current one. Every other login of the account is signed out; this
    /// one stays. A wrong current password is refused naming `current_password`.
    public func changePassword(current: String, new: String, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change(
                "POST", "/api/v1/auth/password",
                body: try Self.encoder.encode(ChangePasswordRequest(currentPassword: current, newPassword: new)),
                key: idempotencyKey))
    }

    /// Asks to change the account's email: the new address gets a confirmation link, and the email changes
    /// when ``confirmEmailChange(token:idempotencyKey:)`` is called with its token.
    public func requestEmailChange(to email: String, password: String, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change(
                "POST", "/api/v1/me/email",
                body: try Self.encoder.encode(EmailChangeRequest(email: email, password: password)),
                key: idempotencyKey))
    }

    /// Confirms the new email with the token of the link mailed to it; returns the account as it now is.
    @discardableResult
    public func confirmEmailChange(token: String, idempotencyKey: String? = nil) async throws -> Account {
        try await call(
            .change(
                "POST", "/api/v1/me/email/confirm",
                body: try Self.encoder.encode(EmailChangeConfirmation(token: token)),
                key: idempotencyKey))
    }

    // MARK: People

    public func followers(of username: String, cursor: String? = nil) async throws -> Page<AuthorSummary> {
        try await page("/api/v1/users/\(username.pathEscaped)/followers", cursor: cursor)
    }

    public func following(of username: String, cursor: String? = nil) async throws -> Page<AuthorSummary> {
        try await page("/api/v1/users/\(username.pathEscaped)/following", cursor: cursor)
    }

    /// People asking to follow my private account.
    public func followRequests(cursor: String? = nil) async throws -> Page<AuthorSummary> {
        try await page("/api/v1/me/follow-requests", cursor: cursor, authenticated: true)
    }

    /// People I block, most recently blocked first.
    ///
    /// ```swift
    /// for person in try await client.blocks().items { _ = try await client.setBlocked(false, person.username) }
    /// ```
    public func blocks(cursor: String? = nil) async throws -> Page<AuthorSummary> {
        try await page("/api/v1/me/blocks", cursor: cursor, authenticated: true)
    }

    /// People I mute, most recently muted first.
    public func mutes(cursor: String? = nil) async throws -> Page<AuthorSummary> {
        try await page("/api/v1/me/mutes", cursor: cursor, authenticated: true)
    }

    /// Approves (`true`) or denies a follow request.
    public func answerFollowRequest(from username: String, approve: Bool, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change(
                "POST", "/api/v1/me/follow-requests/\(username.pathEscaped)/\(approve ? "approve" : "deny")",
                key: idempotencyKey))
    }

    /// Workouts and volume per week, streaks and personal records, from what the viewer may see.
    public func progress(of username: String) async throws -> ProgressReport {
        try await call(
            Call(
                method: "GET", path: "/api/v1/users/\(username.pathEscaped)/progress",
                authenticated: await isSignedIn))
    }

    // MARK: Kudos, comments and templates

    /// Who gave a post kudos (people hidden from me left out), a page at a time.
    public func kudosGivers(of post: PostID, cursor: String? = nil) async throws -> Page<AuthorSummary> {
        try await page("/api/v1/posts/\(post)/kudos", cursor: cursor)
    }

    public func deleteComment(_ comment: CommentID, on post: PostID, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change("DELETE", "/api/v1/posts/\(post)/comments/\(comment)", key: idempotencyKey))
    }

    /// Changes the text of one's own comment; the server answers with it as it now is, `editedAt` set.
    ///
    /// ```swift
    /// let fixed = try await client.editComment(comment.id, on: post.id, text: "Great squat!")
    /// ```
    public func editComment(
        _ comment: CommentID, on post: PostID, text: String, idempotencyKey: String? = nil
    ) async throws -> Comment {
        try await call(
            .change(
                "PATCH", "/api/v1/posts/\(post)/comments/\(comment)",
                body: try Self.encoder.encode(UpdateCommentRequest(text: text)), key: idempotencyKey))
    }

    public func exerciseTemplates(author: String? = nil, cursor: String? = nil) async throws -> Page<ExerciseTemplate> {
        let query = Self.query(["author": author, "cursor": cursor])
        return try await call(
            Call(method: "GET", path: "/api/v1/exercises", query: query, authenticated: await isSignedIn))
    }

    public func exerciseTemplate(_ id: ExerciseTemplateID) async throws -> ExerciseTemplate {
        try await call(Call(method: "GET", path: "/api/v1/exercises/\(id)", authenticated: await isSignedIn))
    }

    public func createExerciseTemplate(
        _ request: CreateExerciseTemplateRequest, idempotencyKey: String? = nil
    )
        async throws -> ExerciseTemplate
    {
        try await call(
            .change("POST", "/api/v1/exercises", body: try Self.encoder.encode(request), key: idempotencyKey))
    }

    public func deleteExerciseTemplate(_ id: ExerciseTemplateID, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change("DELETE", "/api/v1/exercises/\(id)", key: idempotencyKey))
    }

    public func deleteWorkoutTemplate(_ id: WorkoutTemplateID, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change("DELETE", "/api/v1/workout-templates/\(id)", key: idempotencyKey))
    }

    // MARK: Moderation (admins)

    /// Suspends (`true`) or reinstates an account.
    public func setSuspended(_ suspended: Bool, _ username: String, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change(
                suspended ? "POST" : "DELETE", "/api/v1/admin/users/\(username.pathEscaped)/suspend",
                key: idempotencyKey))
    }

    /// Features (`true`) or unfeatures an account in the Featured feed.
    public func setFeatured(_ featured: Bool, _ username: String, idempotencyKey: String? = nil) async throws {
        _ = try await send(
            .change(
                featured ? "POST" : "DELETE", "/api/v1/admin/users/\(username.pathEscaped)/feature", key: idempotencyKey
            ))
    }

    private func page<Item: Codable & Sendable>(
        _ path: String, cursor: String?, authenticated: Bool? = nil
    ) async throws -> Page<Item> {
        var signedIn = authenticated ?? false
        if authenticated == nil { signedIn = await isSignedIn }
        return try await call(
            Call(
                method: "GET", path: path, query: Self.query(["cursor": cursor]),
                authenticated: signedIn))
    }
}
