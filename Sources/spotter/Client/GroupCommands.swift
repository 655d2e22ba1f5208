import ArgumentParser
import Foundation
import SpotterKit
import SpotterModels

/// `spotter groups …`: clubs, teams and family circles from the terminal (issue 28).
struct Groups: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Your groups: find, make and join them, post to them, and run them.",
        subcommands: [
            GroupsList.self, GroupsDiscover.self, GroupsShow.self, GroupsCreate.self, GroupsJoin.self,
            GroupsJoinLink.self, GroupsLeave.self, GroupsMembers.self, GroupsPost.self, GroupsFeed.self,
            GroupsRequests.self, GroupsApprove.self, GroupsDeny.self, GroupsInvite.self, GroupsInvitations.self,
            GroupsRevoke.self, GroupsPhoto.self,
        ],
        defaultSubcommand: GroupsList.self)
}

/// A group named on the command line: its id, or the name of one of my groups (or one discovery finds).
struct GroupArgument: ParsableArguments {
    @Argument(help: "The group's id, or its name.") var group: String

    func resolve(_ client: SpotterClient) async throws -> GroupID {
        if let id = GroupID(group) { return id }
        let folded = group.lowercased()
        for candidates in [try await client.myGroups().items, try await client.groups(matching: group).items] {
            let named = candidates.filter { $0.name.lowercased() == folded }
            if named.count == 1 { return named[0].id }
            if named.count > 1 {
                throw GroupNotFound(
                    description: "Several groups are called \(group); give its id (`spotter groups list`).")
            }
        }
        throw GroupNotFound(description: "No group called \(group) that you can see; give its id.")
    }
}

/// A group name that names no group, or several: said in a line, without the usage text of a wrong argument.
struct GroupNotFound: Error, CustomStringConvertible {
    let description: String
}

/// `spotter groups list`: my groups, and the invitations by name waiting for me.
struct GroupsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List your groups.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let client = try options.client()
        let groups = try await client.myGroups().items
        if groups.isEmpty { print("You are in no group yet: `spotter groups discover`, or ask for a link.") }
        for group in groups { print(GroupText.line(group)) }
        for invitation in try await client.myGroupInvitations().items {
            print(
                "Invited to \(invitation.group.name) by @\(invitation.invitedBy.username): "
                    + "`spotter groups join \(invitation.group.id)` accepts, `leave` declines.")
        }
    }
}

/// `spotter groups discover [query]`: groups anyone may find (never a private one).
struct GroupsDiscover: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "discover", abstract: "Find groups to join.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "A part of the name (leave out for the biggest groups).") var query = ""

    func run() async throws {
        let found = try await options.client().groups(matching: query).items
        if found.isEmpty { print("No group found.") }
        for group in found { print(GroupText.line(group)) }
    }
}

/// `spotter groups show <group>`: the about page, with where I stand.
struct GroupsShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a group's about page.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument

    func run() async throws {
        let client = try options.client()
        print(GroupText.about(try await client.group(try await target.resolve(client))))
    }
}

/// `spotter groups create --name … --access open|request|private`.
struct GroupsCreate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Make a group; you own it.")
    @OptionGroup var options: ClientOptions
    @Option(help: "Its name.") var name: String
    @Option(help: "open (anyone joins), request (an admin approves) or private (invitation only).")
    var access: GroupAccess
    @Option(help: "What it is about.") var description: String?
    @Option(help: "An IANA time zone, such as Europe/Paris (default: yours).") var timeZone: String?

    func run() async throws {
        let group = try await options.client().createGroup(
            CreateGroupRequest(name: name, description: description, access: access, timeZone: timeZone))
        print("Created \(group.name) (\(group.access.rawValue)): \(group.id)")
    }
}

/// `spotter groups join <group>`: joins, asks to join, or accepts an invitation by name.
struct GroupsJoin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join", abstract: "Join a group, ask to join it, or accept its invitation.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument

    func run() async throws {
        let client = try options.client()
        print(GroupText.joined(try await client.joinGroup(try await target.resolve(client))))
    }
}

/// `spotter groups join-link <code or link>`: joins through an invitation link someone shared.
struct GroupsJoinLink: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join-link", abstract: "Join a group through an invitation link or its code.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The link (…/groups/join/<code>) or the code.") var link: String

    func run() async throws {
        print(GroupText.joined(try await options.client().joinGroup(code: InvitationLink.code(from: link))))
    }
}

/// `spotter groups leave <group>`: leaves, withdraws a request, or declines an invitation.
struct GroupsLeave: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave", abstract: "Leave a group (or withdraw a request, or decline an invitation).")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument

    func run() async throws {
        let client = try options.client()
        try await client.leaveGroup(try await target.resolve(client))
        print("Left \(target.group).")
    }
}

/// `spotter groups members <group>`: everyone in it, owner and admins marked.
struct GroupsMembers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "members", abstract: "List a group's members.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument

    func run() async throws {
        let client = try options.client()
        let id = try await target.resolve(client)
        var cursor: String?
        repeat {
            let page = try await client.groupMembers(id, cursor: cursor)
            for member in page.items {
                let role = member.role == .member ? "" : " (\(member.role.rawValue))"
                print("@\(member.person.username) · \(member.person.displayName)\(role)")
            }
            cursor = page.nextCursor
        } while cursor != nil
    }
}

/// `spotter groups post <group> <text>`: a note only the group's members see, through the outbox.
struct GroupsPost: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "post", abstract: "Post a note to a group.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument
    @Argument(help: "The text; #tags and @mentions are linked.") var text: String

    func run() async throws {
        let outbox = try options.outbox()
        let id = try await target.resolve(outbox.client)
        let queued = try await outbox.enqueue(.createPost(CreatePostRequest(kind: .note, text: text, groupID: id)))
        try await OutboxReport.drainAndReport(outbox, sending: queued)
    }
}

/// `spotter groups feed <group>`: the group's newest posts.
struct GroupsFeed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "feed", abstract: "Show a group's posts.")
    @OptionGroup var options: ClientOptions
    @OptionGroup var target: GroupArgument
    @Option(help: "Posts to show (1 to 50).") var limit = 20
    @Option(help: "newest, or top: ranked by members' kudos and comments, what you have not seen first.")
    var order: GroupFeedOrder = .newest

    func run() async throws {
        let client = try options.client()
        let page = try await client.groupPosts(try await target.resolve(client), order: order, limit: limit)
        if page.items.isEmpty { print("Nothing here yet.") }
        let groups = page.items.contains { $0.sealed != nil } ? try? options.encryptedGroups() : nil
        for post in page.items { print(await SealedPostText.render(post, opening: groups)) }
    }
}

/// How the terminal shows groups.
enum GroupText {
    /// "Riverside Runners · open · 12 members · owner · <id>".
    static func line(_ group: Group) -> String {
        var parts = [group.name, group.access.rawValue, Plural.count(group.memberCount, "member")]
        if group.standing != .none { parts.append(group.standing.rawValue) }
        if let pending = group.pendingRequests, pending > 0 { parts.append(Plural.count(pending, "request")) }
        if let new = group.newPosts, new > 0 { parts.append("\(new) new") }
        parts.append(group.id.description)
        return parts.joined(separator: " · ")
    }

    static func about(_ group: Group) -> String {
        var lines = [line(group)]
        if !group.description.isEmpty { lines.append("  \(group.description)") }
        lines.append(
            "  Time zone \(group.timeZone); since \(group.createdAt.formatted(date: .abbreviated, time: .omitted))")
        return lines.joined(separator: "\n")
    }

    static func joined(_ group: Group) -> String {
        switch group.standing {
        case .requested: "Asked to join \(group.name); an admin will answer."
        case .owner, .admin, .member: "You are a member of \(group.name): \(group.id)"
        default: "\(group.name): \(group.standing.rawValue)"
        }
    }
}

extension GroupAccess: ExpressibleByArgument {}
extension GroupFeedOrder: ExpressibleByArgument {}
