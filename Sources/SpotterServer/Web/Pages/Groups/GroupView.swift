import Foundation
import SpotterCore
import SpotterModels

/// A group as the web pages show it, with what the viewer may do there (every "may" is `GroupPolicy`'s).
struct GroupView {
    let id: String
    let name: String
    let description: String
    let hasDescription: Bool
    let href: String
    let initials: String
    let avatarURL: String?
    let avatarSize = "large"
    /// "Open", "Ask to join" or "Private".
    let accessLabel: String
    /// One sentence on who may read and join.
    let accessHelp: String
    let membersLabel: String
    /// "Owner", "Admin", "Member", "Invited", "Asked to join"; `nil` for strangers.
    let standingLabel: String?
    let isMember: Bool
    let isAdmin: Bool
    let isOwner: Bool
    let isPrivate: Bool
    /// Posts and photos sealed on members' devices (docs/encryption.md): the page's script posts and reads them.
    let encrypted: Bool
    let canJoin: Bool
    let canAsk: Bool
    let hasRequested: Bool
    let isInvited: Bool
    let canLeave: Bool
    let canReadPosts: Bool
    let canSeeMembers: Bool
    /// "2 people asking to join", for admins when someone waits.
    let pendingLabel: String?
    /// "3 new": others' posts since the member last looked (`GroupService.markSeen`); `nil` when none.
    let newLabel: String?

    init(_ group: Group, viewer: AccountRecord?) {
        let signedIn = viewer != nil
        let suspended = viewer?.suspendedAt != nil
        func may(_ action: GroupPolicy.Action) -> Bool {
            GroupPolicy.allows(
                action, standing: group.standing, access: group.access, signedIn: signedIn, suspended: suspended)
        }
        id = group.id.description
        name = group.name
        description = group.description
        hasDescription = !group.description.isEmpty
        href = "/groups/\(group.id)"
        initials = ViewerView.initials(of: group.name)
        avatarURL = group.avatarURL
        accessLabel = Self.label(group.access)
        accessHelp = Self.help(group.access)
        membersLabel = WebFormat.count(group.memberCount, "member")
        standingLabel =
            switch group.standing {
            case .owner: "Owner"
            case .admin: "Admin"
            case .member: "Member"
            case .invited: "Invited"
            case .requested: "Asked to join"
            case .banned, .none: nil
            }
        isMember = group.standing.role != nil
        isAdmin = group.standing.role.map { $0 >= .admin } ?? false
        isOwner = group.standing == .owner
        isPrivate = group.access == .private
        encrypted = group.encrypted
        isInvited = group.standing == .invited
        // An invitation by name is accepted with the same Join button.
        canJoin = may(.join) || (signedIn && isInvited)
        canAsk = may(.askToJoin) && !isInvited
        hasRequested = group.standing == .requested
        canLeave = may(.leave)
        canReadPosts = may(.readPosts)
        canSeeMembers = may(.seeMembers)
        pendingLabel = group.pendingRequests.flatMap {
            $0 == 0 ? nil : $0 == 1 ? "1 person asking to join" : "\($0) people asking to join"
        }
        newLabel = group.newPosts.flatMap {
            $0 == 0 ? nil : $0 >= GroupService.newPostsCap ? "\(GroupService.newPostsCap)+ new" : "\($0) new"
        }
    }

    static func label(_ access: GroupAccess) -> String {
        switch access {
        case .open: "Open"
        case .request: "Ask to join"
        case .private: "Private"
        }
    }

    static func help(_ access: GroupAccess) -> String {
        switch access {
        case .open: "Anyone can join and read its posts."
        case .request: "Anyone can find it and ask to join; an admin lets people in. Only members read its posts."
        case .private: "By invitation only. Only members know it exists and read its posts."
        }
    }
}

/// The create and settings form of a group: every field as typed, with what is wrong with it.
struct GroupFormView {
    struct AccessChoice {
        let value: String
        let label: String
        let help: String
        let checked: Bool
    }

    let name: WorkoutBuilderView.Field
    let description: WorkoutBuilderView.Field
    let accesses: [AccessChoice]
    /// What is wrong with "Who can join" (an encrypted group that is not private), beside it.
    let accessMessage: String?
    let timeZones: [WebSettingsController.Choice]
    let timeZone: WorkoutBuilderView.Field
    /// Refusals about no one field (a rate limit, say).
    let errors: [String]
    let hasErrors: Bool

    init(
        name: String = "", description: String = "", access: GroupAccess = .open, timeZone: String,
        problems: [FieldError] = [], errors: [String] = []
    ) {
        func message(_ field: String) -> String? {
            problems.first { $0.field == field }.map { Self.sentence($0.detail) }
        }
        self.name = .init(id: "group-name", value: name, message: message("name"))
        self.description = .init(id: "group-description", value: description, message: message("description"))
        self.timeZone = .init(id: "group-time-zone", value: timeZone, message: message("time_zone"))
        accessMessage = message("access")
        accesses = GroupAccess.allCases.map {
            AccessChoice(
                value: $0.rawValue, label: GroupView.label($0), help: GroupView.help($0), checked: $0 == access)
        }
        timeZones = WebSettingsController.zoneChoices(
            TimeZone.knownTimeZoneIdentifiers.sorted(), selected: timeZone)
        let known = Set(["name", "description", "time_zone", "access"])
        self.errors = errors + problems.filter { !known.contains($0.field) }.map { Self.sentence($0.detail) }
        hasErrors = !self.errors.isEmpty
    }

    /// The form as posted, for a group's fields.
    init(form: WebForm, defaultTimeZone: String, problems: [FieldError] = [], errors: [String] = []) {
        self.init(
            name: form.all("name").first ?? "", description: form.all("description").first ?? "",
            access: form["access"].flatMap(GroupAccess.init(rawValue:)) ?? .open,
            timeZone: form["time_zone"] ?? defaultTimeZone, problems: problems, errors: errors)
    }

    /// "must be 1 to 80 characters" → "Must be 1 to 80 characters."
    static func sentence(_ detail: String) -> String {
        let text = detail.prefix(1).uppercased() + detail.dropFirst()
        return text.hasSuffix(".") ? text : text + "."
    }
}

extension WebForm {
    /// A group's access as a form sends it; one that is none of the three is a field error, not a silent default.
    func groupAccess() throws -> GroupAccess {
        guard let access = self["access"].flatMap(GroupAccess.init(rawValue:)) else {
            throw SpotterError.validation([FieldError(field: "access", detail: "choose who can join")])
        }
        return access
    }
}
