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

    @Test("a push about a post naming a child says only where it is")
    func pushText() {
        let text = ChildSafetyPolicy.pushText(groupName: "Family", namesChild: true, summary: "Ana: Lou's first 5k!")
        #expect(text == "A new post in Family")
        #expect(!text.contains("Lou"))
        #expect(
            ChildSafetyPolicy.pushText(groupName: "Club", namesChild: false, summary: "Ana: tempo run")
                == "Ana: tempo run")
    }

    @Test("search and hashtag feeds never list a post naming a child")
    func notListedBeyondGroup() {
        #expect(!ChildSafetyPolicy.mayListBeyondGroup(naming: 1))
        #expect(ChildSafetyPolicy.mayListBeyondGroup(naming: 0))
    }
}
