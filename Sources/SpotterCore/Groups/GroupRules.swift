import Foundation
import SpotterModels

/// What a group's fields may hold, checked before anything is written; every bad field is named.
public enum GroupRules {
    public static let maxName = 80
    public static let maxDescription = 2_000
    /// How long an invitation link lasts unless its maker says otherwise, and at most.
    public static let defaultLinkLifetime: TimeInterval = 7 * 86_400
    public static let maxLinkLifetime: TimeInterval = 90 * 86_400
    /// How long an invitation to a named person waits for them.
    public static let namedInvitationLifetime: TimeInterval = 30 * 86_400
    public static let maxUses = 10_000
    /// Groups up to this size tell every member of a new post (`group_post`); bigger ones tell nobody, and their
    /// members see what is new on the group itself (`Group.newPosts`).
    public static let maxNotifiedMembers = 500

    /// The fields of a new group, normalised, or a 422 naming every bad one.
    public static func checked(
        _ request: CreateGroupRequest, defaultTimeZone: String
    ) throws -> (
        name: String, description: String, timeZone: String
    ) {
        var problems: [FieldError] = []
        let name = checkName(request.name, into: &problems)
        let description = checkDescription(request.description ?? "", into: &problems)
        let zone = request.timeZone ?? defaultTimeZone
        if !AccountRules.isTimeZone(zone) {
            problems.append(FieldError(field: "time_zone", detail: "is not an IANA time zone name"))
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        return (name, description, zone)
    }

    /// `group` with `request`'s fields applied, or a 422 naming every bad one.
    public static func applied(_ request: UpdateGroupRequest, to group: GroupRecord) throws -> GroupRecord {
        var problems: [FieldError] = []
        var group = group
        if let name = request.name { group.name = checkName(name, into: &problems) }
        if let description = request.description {
            group.description = checkDescription(description, into: &problems)
        }
        if let zone = request.timeZone {
            if AccountRules.isTimeZone(zone) {
                group.timeZone = zone
            } else {
                problems.append(FieldError(field: "time_zone", detail: "is not an IANA time zone name"))
            }
        }
        if let access = request.access { group.access = access }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        return group
    }

    /// An invitation's expiry and use limit from a request, or a 422 naming the bad field.
    public static func invitationLimits(
        _ request: CreateInvitationRequest, now: Date
    ) throws -> (expiresAt: Date, maxUses: Int?) {
        var problems: [FieldError] = []
        if let username = request.username { _ = TextInput.check(username, "username", into: &problems) }
        if request.username != nil, request.maxUses != nil {
            problems.append(FieldError(field: "max_uses", detail: "is for links; an invitation by name is used once"))
        }
        if let uses = request.maxUses, !(1...maxUses).contains(uses) {
            problems.append(FieldError(field: "max_uses", detail: "must be between 1 and \(maxUses)"))
        }
        var lifetime = request.username == nil ? defaultLinkLifetime : namedInvitationLifetime
        if let seconds = request.expiresIn {
            if (60...Int(maxLinkLifetime)).contains(seconds) {
                lifetime = TimeInterval(seconds)
            } else {
                problems.append(
                    FieldError(field: "expires_in", detail: "must be between 60 and \(Int(maxLinkLifetime)) seconds"))
            }
        }
        guard problems.isEmpty else { throw SpotterError.validation(problems) }
        return (now.addingTimeInterval(lifetime), request.username == nil ? request.maxUses : 1)
    }

    private static func checkName(_ name: String, into problems: inout [FieldError]) -> String {
        let name = TextInput.check(name, "name", as: .line, into: &problems)
        if !TextLength.isName(name, maxLength: maxName) {
            problems.append(FieldError(field: "name", detail: "must be 1 to \(maxName) characters, not all spaces"))
        }
        return name
    }

    private static func checkDescription(_ text: String, into problems: inout [FieldError]) -> String {
        let text = TextInput.check(text, "description", as: .lines, into: &problems)
        if text.textLength > maxDescription {
            problems.append(FieldError(field: "description", detail: "must be at most \(maxDescription) characters"))
        }
        return text
    }
}
