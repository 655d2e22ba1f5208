import SpotterCore
import SpotterModels
import Testing

@Suite("Child safety rule")
struct ChildSafetyPolicyTests {
    static let audiences: [ChildSafetyPolicy.Audience] =
        Visibility.allCases.map { .personal($0) } + GroupAccess.allCases.map { .group($0) }

    @Test("content naming a child goes only to a private group", arguments: audiences)
    func onlyPrivateGroups(audience: ChildSafetyPolicy.Audience) {
        #expect(ChildSafetyPolicy.mayPublish(naming: 1, to: audience) == (audience == .group(.private)))
        #expect(ChildSafetyPolicy.mayPublish(naming: 3, to: audience) == (audience == .group(.private)))
        // Naming nobody, a post goes anywhere its author may send it.
        #expect(ChildSafetyPolicy.mayPublish(naming: 0, to: audience))
    }

    @Test("a group holding a child's posts stays private", arguments: GroupAccess.allCases)
    func staysPrivate(access: GroupAccess) {
        #expect(ChildSafetyPolicy.mayChangeAccess(to: access, holdsChildContent: true) == (access == .private))
        #expect(ChildSafetyPolicy.mayChangeAccess(to: access, holdsChildContent: false))
    }

    @Test("a group post's notification says who posted where, never the words that may name a child")
    func notificationText() {
        let text = NotificationText.sentence(
            type: .groupPost, who: "Ana", count: 1, subject: .membersOnly(group: "Family"), detail: "Family")
        #expect(text == "Ana posted in Family")
    }
}
