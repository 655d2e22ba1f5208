import Foundation
import HTTPTypes
import HummingbirdTesting
import SpotterCore
import SpotterModels
import SpotterTestSupport
import Testing

/// Avatars of groups and of child profiles: each is its own subject, so changing one never sweeps another, and
/// who may fetch it follows the group's access or the child's guardians.
@Suite("Group and child avatars")
struct GroupAvatarTests {
    @Test(
        "an open group's avatar anyone may fetch; changing the owner's own avatar leaves it; replacing it stops the old",
        arguments: StorageBackend.available, BlobBackend.available)
    func openGroup(database: StorageBackend, blobs: BlobBackend) async throws {
        try await TestApp.run(database, configure: blobs.configure) { api in
            let ana = try await api.user("ana")
            let jpeg = try TestImages.encode(TestImages.cornered(width: 400, height: 400), as: ".jpg")
            let face = try await api.uploadPhoto(ana, jpeg, purpose: .avatar)
            let me = try await api.call(
                .patch, "/api/v1/me", token: ana, body: UpdateAccountRequest(avatarMediaID: face.id))
            let faceURL = try #require(try me.decode(Account.self).avatarURL)

            // A group made with an avatar upload of the owner's
            let badge = try await api.uploadPhoto(ana, jpeg, purpose: .avatar)
            let created = try await api.call(
                .post, "/api/v1/groups", token: ana,
                body: CreateGroupRequest(name: "Riverside Runners", access: .open, avatarMediaID: badge.id))
            #expect(created.status == .created)
            let group = try created.decode(Group.self)
            let url = try #require(group.avatarURL)
            #expect(url == MediaLinks.path(badge.id, .small))

            // Anyone, signed out too, may fetch it, and a shared cache may keep it
            let fetched = try await api.fetch(url)
            #expect(fetched.status == .ok)
            #expect(fetched.headers[.cacheControl]?.contains("public") == true)

            // The owner's own avatar changes: only the old face goes, the group's stays
            let newFace = try await api.uploadPhoto(ana, jpeg, purpose: .avatar)
            _ = try await api.call(
                .patch, "/api/v1/me", token: ana, body: UpdateAccountRequest(avatarMediaID: newFace.id))
            #expect(try await api.fetch(faceURL).status == .notFound)
            #expect(try await api.fetch(url).status == .ok)

            // An upload that is someone's avatar already cannot become the group's
            let taken = try await api.call(
                .patch, "/api/v1/groups/\(group.id)", token: ana, body: UpdateGroupRequest(avatarMediaID: newFace.id))
            #expect(taken.status == .unprocessableContent)
            #expect(try taken.problem().errors?.map(\.field) == ["avatar_media_id"])

            // Replaced, the old one stops; removed, the group has none
            let badge2 = try await api.uploadPhoto(ana, jpeg, purpose: .avatar)
            let replaced = try await api.call(
                .patch, "/api/v1/groups/\(group.id)", token: ana, body: UpdateGroupRequest(avatarMediaID: badge2.id))
            let url2 = try #require(try replaced.decode(Group.self).avatarURL)
            #expect(try await api.fetch(url).status == .notFound)
            #expect(try await api.fetch(url2).status == .ok)
            let removed = try await api.call(
                .patch, "/api/v1/groups/\(group.id)", token: ana, body: UpdateGroupRequest(removeAvatar: true))
            #expect(try removed.decode(Group.self).avatarURL == nil)
            #expect(try await api.fetch(url2).status == .notFound)
        }
    }

    @Test(
        "who may set a group's avatar: an admin with an upload of their own; a member, another's upload are refused",
        arguments: StorageBackend.available)
    func whoMaySet(database: StorageBackend) async throws {
        try await TestApp.run(database, configure: BlobBackend.local.configure) { api in
            let ana = try await api.user("ana")
            let ben = try await api.user("ben")
            let jpeg = try TestImages.encode(TestImages.cornered(width: 300, height: 300), as: ".jpg")
            let group = try await api.createGroup(ana, "Iron Hour", access: .open)
            try await api.joinGroup(ben, group)

            let bens = try await api.uploadPhoto(ben, jpeg, purpose: .avatar)
            let byMember = try await api.call(
                .patch, "/api/v1/groups/\(group.id)", token: ben, body: UpdateGroupRequest(avatarMediaID: bens.id))
            #expect(byMember.status == .forbidden)

            let othersUpload = try await api.call(
                .patch, "/api/v1/groups/\(group.id)", token: ana, body: UpdateGroupRequest(avatarMediaID: bens.id))
            #expect(othersUpload.status == .unprocessableContent)
            #expect(try othersUpload.problem().errors?.map(\.field) == ["avatar_media_id"])

            let postPhoto = try await api.uploadPhoto(ana, jpeg)
            let notAvatar = try await api.call(
                .patch, "/api/v1/groups/\(group.id)", token: ana, body: UpdateGroupRequest(avatarMediaID: postPhoto.id))
            #expect(notAvatar.status == .unprocessableContent)

            // Nothing refused changed the group
            let after = try await api.call(.get, "/api/v1/groups/\(group.id)", token: ana).decode(Group.self)
            #expect(after.avatarURL == nil)
        }
    }

    @Test(
        "a private group's avatar opens only through the signed URL its members get; deleting the group stops it",
        arguments: StorageBackend.available, BlobBackend.available)
    func privateGroup(database: StorageBackend, blobs: BlobBackend) async throws {
        try await TestApp.run(database, configure: blobs.configure) { api in
            let ana = try await api.user("ana")
            let ben = try await api.user("ben")
            let jpeg = try TestImages.encode(TestImages.cornered(width: 400, height: 400), as: ".jpg")
            let badge = try await api.uploadPhoto(ana, jpeg, purpose: .avatar)
            let created = try await api.call(
                .post, "/api/v1/groups", token: ana,
                body: CreateGroupRequest(name: "The Kellers", access: .private, avatarMediaID: badge.id))
            let group = try created.decode(Group.self)
            try await api.addMember(ben, username: "ben", to: group, admin: ana)

            // Members get a signed URL that works
            let seen = try await api.call(.get, "/api/v1/groups/\(group.id)", token: ben).decode(Group.self)
            let signed = try #require(seen.avatarURL)
            #expect(signed.contains("signature="))
            let fetched = try await api.fetch(signed)
            #expect(fetched.status == .ok)
            #expect(fetched.headers[.cacheControl]?.contains("public") != true)

            // The plain path opens for nobody, signed in or not
            let plain = MediaLinks.path(badge.id, .small)
            #expect(try await api.fetch(plain).status == .notFound)
            #expect(try await api.fetch(plain, token: ben).status == .notFound)

            // The group made open: the plain path works; private again: it stops
            _ = try await api.call(
                .patch, "/api/v1/groups/\(group.id)", token: ana, body: UpdateGroupRequest(access: .open))
            #expect(try await api.fetch(plain).status == .ok)
            _ = try await api.call(
                .patch, "/api/v1/groups/\(group.id)", token: ana, body: UpdateGroupRequest(access: .private))
            #expect(try await api.fetch(plain).status == .notFound)

            // Deleted, even the signed URL stops
            #expect(try await api.call(.delete, "/api/v1/groups/\(group.id)", token: ana).status == .noContent)
            #expect(try await api.fetch(signed).status == .notFound)
        }
    }

    @Test(
        "a child's avatar: only its guardians get a URL that opens it; a second guardian's upload replaces the first's",
        arguments: StorageBackend.available, BlobBackend.available)
    func childAvatar(database: StorageBackend, blobs: BlobBackend) async throws {
        try await TestApp.run(database, configure: blobs.configure) { api in
            let ana = try await api.user("ana")
            let ben = try await api.user("ben")
            let cy = try await api.user("cyd")
            let jpeg = try TestImages.encode(TestImages.cornered(width: 300, height: 300), as: ".jpg")
            let face = try await api.uploadPhoto(ana, jpeg, purpose: .avatar)
            let made = try await api.call(
                .post, "/api/v1/me/children", token: ana,
                body: CreateChildProfileRequest(name: "Mila", birthYear: 2019, avatarMediaID: face.id))
            #expect(made.status == .created)
            let child = try made.decode(ChildProfile.self)
            let signed = try #require(child.avatarURL)
            #expect(signed.contains("signature="))
            #expect(try await api.fetch(signed).status == .ok)
            // The plain path opens for nobody
            #expect(try await api.fetch(MediaLinks.path(face.id, .small), token: ana).status == .notFound)
            // Someone else cannot read the child, so never gets a URL
            #expect(try await api.call(.get, "/api/v1/me/children/\(child.id)", token: cy).status == .notFound)

            // A second guardian sets a new face: the first's upload is discarded
            let invited = try await api.call(
                .post, "/api/v1/me/children/\(child.id)/guardians", token: ana,
                body: InviteGuardianRequest(username: "ben"))
            #expect(invited.status == .ok)
            let accepted = try await api.call(.post, "/api/v1/me/guardian-invitations/\(child.id)/accept", token: ben)
            #expect(accepted.status == .noContent)
            let bens = try await api.uploadPhoto(ben, jpeg, purpose: .avatar)
            let updated = try await api.call(
                .patch, "/api/v1/me/children/\(child.id)", token: ben,
                body: UpdateChildProfileRequest(avatarMediaID: bens.id))
            #expect(updated.status == .ok)
            let newURL = try #require(try updated.decode(ChildProfile.self).avatarURL)
            #expect(try await api.fetch(newURL).status == .ok)
            #expect(try await api.fetch(signed).status == .notFound)

            // Deleting the child stops its avatar
            #expect(try await api.call(.delete, "/api/v1/me/children/\(child.id)", token: ana).status == .noContent)
            #expect(try await api.fetch(newURL).status == .notFound)
        }
    }
}
