import ArgumentParser
import Foundation
import SpotterKit
import SpotterModels

/// `spotter groups requests <group>`: who asks to join (owner and admins).
struct GroupsRequests: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "requests", abstract: "List requests to join.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument

    func run() async throws {
        let client = try options.client()
        let id = try await target.resolve(client)
        let requests = try await client.joinRequests(of: id).items
        if requests.isEmpty { print("No one is waiting.") }
        for request in requests {
            print(
                "@\(request.person.username) · \(request.person.displayName) · asked "
                    + request.requestedAt.formatted(date: .abbreviated, time: .shortened))
        }
    }
}

/// Answers a request to join, named by username.
enum JoinRequestAnswer {
    static func answer(_ target: GroupArgument, _ username: String, approve: Bool, options: ClientOptions) async throws
    {
        let client = try options.client()
        let id = try await target.resolve(client)
        let name = username.hasPrefix("@") ? String(username.dropFirst()) : username
        guard
            let request = try await client.joinRequests(of: id).items.first(where: {
                $0.person.username.lowercased() == name.lowercased()
            })
        else { throw ValidationError("@\(name) has not asked to join.") }
        try await client.answerJoinRequest(in: id, from: request.person.id, approve: approve)
        print(approve ? "Let @\(request.person.username) in." : "Turned @\(request.person.username) away.")
    }
}

/// `spotter groups approve <group> <username>`.
struct GroupsApprove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "approve", abstract: "Let someone who asked in.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument
    @Argument(help: "Who asked.") var username: String

    func run() async throws { try await JoinRequestAnswer.answer(target, username, approve: true, options: options) }
}

/// `spotter groups deny <group> <username>`.
struct GroupsDeny: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "deny", abstract: "Turn away someone who asked.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument
    @Argument(help: "Who asked.") var username: String

    func run() async throws { try await JoinRequestAnswer.answer(target, username, approve: false, options: options) }
}

/// `spotter groups invite <group> [--username …] [--max-uses N] [--expires-in 7d]`: prints the link, which is
/// shown this once.
struct GroupsInvite: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite", abstract: "Make an invitation link, or invite someone by name.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument
    @Option(help: "Invite this person by name instead of making a link.") var username: String?
    @Option(help: "How many people the link lets in.") var maxUses: Int?
    @Option(help: "How long the link works: 90m, 24h, 7d, or seconds (default 7 days).") var expiresIn: String?

    func validate() throws {
        if let expiresIn, Self.seconds(expiresIn) == nil {
            throw ValidationError("--expires-in takes 90m, 24h, 7d or a number of seconds, not \(expiresIn).")
        }
    }

    func run() async throws {
        let client = try options.client()
        let id = try await target.resolve(client)
        let invitation = try await client.createInvitation(
            to: id,
            CreateInvitationRequest(
                username: username.map { $0.hasPrefix("@") ? String($0.dropFirst()) : $0 },
                expiresIn: expiresIn.flatMap(Self.seconds), maxUses: maxUses))
        if let invitee = invitation.invitee {
            print("Invited @\(invitee.username) to \(invitation.group.name).")
            return
        }
        print(Self.absolute(invitation.url ?? invitation.code ?? "", server: client.baseURL))
        print("  \(GroupText.limits(invitation)) Shown once: copy it now.")
    }

    /// "90m", "24h", "7d" or plain seconds.
    static func seconds(_ text: String) -> Int? {
        let units = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let unit = text.last.flatMap({ units[String($0)] }), let count = Int(text.dropLast()), count > 0 {
            return count * unit
        }
        return Int(text).flatMap { $0 > 0 ? $0 : nil }
    }

    /// The server gives a path when it does not know its public address; the link is then on this server.
    static func absolute(_ link: String, server: URL) -> String {
        link.hasPrefix("/")
            ? server.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + link : link
    }
}

/// `spotter groups invitations <group>`: the group's links and invitations by name.
struct GroupsInvitations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invitations", abstract: "List a group's invitations.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument

    func run() async throws {
        let client = try options.client()
        let invitations = try await client.invitations(of: try await target.resolve(client)).items
        if invitations.isEmpty { print("No invitations.") }
        for invitation in invitations {
            let what = invitation.invitee.map { "to @\($0.username)" } ?? "link"
            print(
                "\(invitation.id) · \(what) by @\(invitation.invitedBy.username) · \(GroupText.limits(invitation))"
                    + (invitation.revoked ? " · revoked" : ""))
        }
    }
}

/// `spotter groups revoke <group> <invitation id>`.
struct GroupsRevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Stop an invitation working.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument
    @Argument(help: "The invitation's id (`spotter groups invitations`).") var invitation: String

    func run() async throws {
        guard let invitationID = GroupInvitationID(invitation) else {
            throw ValidationError("\(invitation) is not an invitation id.")
        }
        let client = try options.client()
        try await client.revokeInvitation(invitationID, in: try await target.resolve(client))
        print("Revoked \(invitationID).")
    }
}

extension GroupText {
    /// "Used 1 of 10 times; works until 3 Dec 2026 at 09:00."
    static func limits(_ invitation: GroupInvitation) -> String {
        let uses =
            invitation.maxUses.map { "Used \(invitation.uses) of \($0) times" } ?? "Used \(invitation.uses) times"
        let until = invitation.expiresAt.map { "; works until \($0.formatted(date: .abbreviated, time: .shortened))" }
        return uses + (until ?? "") + "."
    }
}

/// `spotter groups photo <group> <file>` (or `--remove`): the group's photo, for its admins.
struct GroupsPhoto: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "photo", abstract: "Set or remove the group's photo.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument
    @Argument(help: "The photo (JPEG, PNG, WebP or HEIC).") var file: String?
    @Flag(help: "Remove the photo instead.") var remove = false

    func validate() throws {
        guard (file == nil) == remove else { throw ValidationError("Give a photo, or --remove.") }
    }

    func run() async throws {
        let client = try options.client()
        let id = try await target.resolve(client)
        let change =
            if let file { UpdateGroupRequest(avatarMediaID: try await Avatar.upload(file, client: client)) } else {
                UpdateGroupRequest(removeAvatar: true)
            }
        do {
            let group = try await client.updateGroup(id, change)
            print(group.avatarURL == nil ? "\(group.name) has no photo now." : "Photo set for \(group.name).")
        } catch let error as SpotterClientError {
            print("refused: \(error.problem?.explanation ?? error.description)")
            throw ExitCode.failure
        }
    }
}
