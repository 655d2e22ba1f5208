import Foundation
import SpotterCore
import SpotterModels
import Testing

@Suite("What a notification may say of a post")
struct NotificationSubjectTests {
    static let now = Date(timeIntervalSince1970: 1_795_376_353)

    static func post(in group: GroupRecord?, title: String? = "Leg Day") -> PostRecord {
        var post = PostRecord(
            id: .generate(at: now), authorID: .generate(at: now), kind: .workout, text: "Maya swam",
            visibility: .public,
            workout: title.map {
                WorkoutRecord(title: $0, type: .strength, startTime: now, endTime: now, exercises: [])
            },
            records: [],
            hashtags: [], mentions: [], textHash: "", inGlobal: false, performedAt: now, createdAt: now)
        post.groupID = group?.id
        if group != nil { post.visibility = Visibility.group }
        return post
    }

    static func group(_ access: GroupAccess, encrypted: Bool = false) -> GroupRecord {
        GroupRecord(
            id: .generate(at: now), name: "Family", description: "", avatarURL: nil, timeZone: "UTC", access: access,
            ownerID: .generate(at: now), createdAt: now, encrypted: encrypted)
    }

    @Test("a post anyone it reaches may read is quoted; one only members may read is named by its group")
    func byAudience() {
        #expect(NotificationSubject.of(Self.post(in: nil), in: nil) == .quotable(title: "Leg Day"))
        let open = Self.group(.open)
        #expect(NotificationSubject.of(Self.post(in: open), in: open) == .quotable(title: "Leg Day"))
        for group in [Self.group(.request), Self.group(.private), Self.group(.private, encrypted: true)] {
            let subject = NotificationSubject.of(Self.post(in: group), in: group)
            #expect(subject == .membersOnly(group: "Family"), "\(group.access)")
            #expect(subject.detail("Maya swam") == "")
        }
    }

    @Test("a post naming a child, or of a group gone, says nothing of itself")
    func childAndGone() {
        let family = Self.group(.private)
        var named = Self.post(in: family)
        named.childIDs = [.generate(at: Self.now)]
        #expect(NotificationSubject.of(named, in: family) == .membersOnly(group: "Family"))
        #expect(!NotificationSubject.of(Self.post(in: family), in: nil).quotes)
        let texts = NotificationText.sentence(
            type: .mention, who: "Ana", count: 1, subject: .membersOnly(group: "Family"), detail: "Maya swam")
        #expect(texts == "Ana mentioned you in Family", "a detail stored before the rule is never shown")
    }
}
