import Foundation
import SpotterCore
import SpotterModels

/// The demo community's groups (issue 28): an open running club with its chatter, a strength team one asks to
/// join (with a request waiting for its coach), and a private family circle only its members see.
///
/// Everything goes through `GroupService` and `PostService` with the demo's clock, as the API would do it.
/// Its own random stream keeps the rest of the demo exactly as it was.
struct DemoGroups {
    let storage: any SpotterStorage
    let clock: ManualClock
    let people: [AccountRecord]
    /// Where the groups' photos go; nil: a community without pictures.
    var photos: DemoPhotos? = nil

    struct Plan {
        let name: String
        let description: String
        let access: GroupAccess
        let owner: String
        let admins: [String]
        let members: [String]
        /// Who asked to join and waits for an admin.
        let waiting: [String]
        let notes: [String]
    }

    static let plans = [
        Plan(
            name: "Riverside Runners",
            description: "Easy miles, Thursday hill sprints and a long run on Saturdays. All paces welcome.",
            access: .open, owner: "priya_runs", admins: ["nora_runs"],
            members: ["sam_endurance", "emma_trains", "jonas_k", "raj_lifts", "tom_beginner", "kira_b"], waiting: [],
            notes: [
                "Saturday long run: 16 km along the river, meeting at the boathouse at 8:00.",
                "Hill sprints Thursday at 7. Bring a headlamp, it's dark now.",
                "First 10 km without walking! Thanks for waiting at the bridge, everyone.",
                "Who's in for the Harbour Half in spring? Thinking of a club training plan.",
                "Lost a glove on the towpath, black with a reflective stripe. Anyone?",
                "Recovery jog and coffee on Sunday, 9:30, no watches allowed.",
                "New route idea: out to the weir and back is exactly 12 km.",
                "Great turnout today, 14 of us! Same time next week.",
            ]),
        Plan(
            name: "Iron Hour Strength Team",
            description: "Coach Ben's barbell group: three sessions a week, programme in the templates. Ask to join.",
            access: .request, owner: "coach_ben", admins: ["maya_lifts"],
            members: ["tariq_strong", "grace_moves", "olu_power", "lena_barbell", "nils_deadlifts"],
            waiting: ["liam_gains"],
            notes: [
                "This block: squat 3x5 at 80%, add 2.5 kg a week. Log every set.",
                "Deload week starts Monday. Yes, you have to.",
                "Mock meet on the 14th: openers you could hit on a bad day.",
                "Chalk is back in stock. Please put the plates away.",
            ]),
        Plan(
            name: "The Keller Family",
            description: "Just us: weekend walks, swim lessons and who's cooking after training.",
            access: .private, owner: "jonas_k", admins: [], members: ["ines_fit", "rosa_pr"], waiting: [],
            notes: [
                "Swim lesson went great, four widths without the float!",
                "Family walk up the hill on Sunday, picnic at the top.",
                "New deadlift record tonight, at 52. Cake is allowed.",
            ]),
    ]

    /// The Kellers' children: profiles Jonas manages with Inês as co-guardian, and posts a parent makes for a
    /// child, in the family circle and nowhere else (`ChildSafetyPolicy`).
    struct ChildPlan {
        let name: String
        let age: Int
        let parent: String
        let post: String
    }

    static let family = "The Keller Family"
    static let children = [
        ChildPlan(name: "Mila", age: 9, parent: "jonas_k", post: "Mila ran her first 5k at the Saturday parkrun!"),
        ChildPlan(name: "Theo", age: 6, parent: "ines_fit", post: "Theo got his first swimming badge today."),
    ]

    /// Makes the groups over the last `weeks` before `end`, with their members, requests and posts; returns
    /// how many groups.
    @discardableResult
    func load(end: Date, weeks: Int, seed: UInt64) async throws -> Int {
        var random = SeededGenerator(seed: seed, stream: 28)
        let groups = GroupService(storage: storage, clock: clock)
        let posts = PostService(storage: storage, clock: clock)
        let start = end - Double(weeks) * 7 * 86_400
        var made: [String: GroupID] = [:]
        for (number, plan) in Self.plans.enumerated() {
            clock.move(to: start + Double(number) * 3600)
            let owner = try person(plan.owner)
            let group = try await groups.create(
                CreateGroupRequest(name: plan.name, description: plan.description, access: plan.access), by: owner)
            made[plan.name] = group.id
            try await photos?.setAvatar(of: group.id, owner: owner, index: number)
            for username in plan.admins + plan.members {
                clock.advance(by: Double.random(in: 600...86_400, using: &random))
                let member = try person(username)
                switch plan.access {
                case .open:
                    _ = try await groups.join(group.id, by: member)
                case .request:
                    _ = try await groups.join(group.id, by: member)
                    try await groups.answerRequest(group.id, from: member.id, approve: true, by: owner)
                case .private:
                    // A family joins by invitation by name, accepted.
                    _ = try await groups.invite(group.id, CreateInvitationRequest(username: username), by: owner)
                    _ = try await groups.join(group.id, by: member)
                }
            }
            for username in plan.admins {
                try await groups.setRole(group.id, of: try person(username).id, to: .admin, by: owner)
            }
            let everyone = [plan.owner] + plan.admins + plan.members
            let spacing = (end.timeIntervalSince(clock.now) - 3600) / Double(plan.notes.count)
            for (index, text) in plan.notes.enumerated() {
                clock.advance(by: spacing * Double.random(in: 0.6...1, using: &random))
                let author = try person(
                    index == 0 ? plan.owner : everyone[Int.random(in: 0..<everyone.count, using: &random)])
                let post = try await posts.create(
                    CreatePostRequest(kind: .note, text: text, groupID: group.id), author: author)
                for username in everyone where username != author.username && random.chance(0.5) {
                    _ = try await posts.setKudos(post.id, on: true, viewer: try person(username))
                }
            }
            for username in plan.waiting {
                _ = try await groups.join(group.id, by: try person(username))
            }
        }
        if let family = made[Self.family] { try await loadChildren(in: family, end: end) }
        return Self.plans.count
    }

    /// Jonas adds the children and invites Inês, who accepts; each posts for a child to the family.
    private func loadChildren(in family: GroupID, end: Date) async throws {
        let children = ChildProfileService(storage: storage, clock: clock)
        let posts = PostService(storage: storage, clock: clock)
        let (jonas, ines) = (try person("jonas_k"), try person("ines_fit"))
        let year = Calendar(identifier: .gregorian).component(.year, from: end)
        clock.move(to: end - 5 * 86_400)
        var made: [String: ChildProfileID] = [:]
        for child in Self.children {
            let profile = try await children.create(
                CreateChildProfileRequest(name: child.name, birthYear: year - child.age), by: jonas)
            _ = try await children.inviteGuardian(profile.id, username: ines.username, by: jonas)
            try await children.answerInvitation(profile.id, accept: true, by: ines)
            made[child.name] = profile.id
        }
        for child in Self.children {
            clock.advance(by: 86_400)
            _ = try await posts.create(
                CreatePostRequest(
                    kind: .note, text: child.post, groupID: family, childIDs: made[child.name].map { [$0] }),
                author: try person(child.parent))
        }
    }

    private func person(_ username: String) throws -> AccountRecord {
        guard let person = people.first(where: { $0.username == username }) else {
            throw DemoGroupsError(description: "the demo has no @\(username)")
        }
        return person
    }

    struct DemoGroupsError: Error, CustomStringConvertible {
        let description: String
    }
}
