import Foundation
import SpotterCore
import SpotterImaging
import SpotterModels

/// The demo community's pictures: an avatar for everyone and a photo on some workouts, drawn in code
/// (`GeneratedPhoto`) and written through `MediaService` (stored, processed by libvips, attached), so they are
/// real photos with their renditions and BlurHash, exactly as an upload would leave them.
struct DemoPhotos: Sendable {
    let media: MediaService
    let storage: any SpotterStorage

    /// Palettes for gradients: dawn, dusk, a pool, a track, a forest, a gym's lights.
    static let palettes: [(GeneratedPhoto.Colour, GeneratedPhoto.Colour)] = [
        (.init(255, 153, 102), .init(102, 51, 153)), (.init(255, 94, 98), .init(255, 195, 113)),
        (.init(0, 180, 219), .init(0, 131, 176)), (.init(193, 72, 56), .init(244, 164, 96)),
        (.init(19, 78, 94), .init(113, 178, 128)), (.init(40, 40, 52), .init(255, 200, 55)),
    ]

    /// Gives a group (number `index`) a photo of its own, uploaded by its owner.
    func setAvatar(of group: GroupID, owner: AccountRecord, index: Int) async throws {
        let (from, to) = Self.palettes[(index + 3) % Self.palettes.count]
        let photo = try GeneratedPhoto.jpeg(width: 256, height: 256, from: from, to: to, sunX: 0.3, sunY: 0.6)
        let id = try await upload(photo, purpose: .avatar, description: nil, owner: owner)
        guard var record = try await storage.groups.find(group) else { return }
        record.avatarURL = MediaLinks.path(id, .small)
        try await storage.groups.update(record)
        try await storage.media.setAvatar(id, of: .group(group), at: Date())
    }

    /// Gives `person` (number `index`) an avatar: a small picture in their own colours.
    func setAvatar(of person: AccountRecord, index: Int) async throws {
        let (from, to) = Self.palettes[index % Self.palettes.count]
        let photo = try GeneratedPhoto.jpeg(
            width: 256, height: 256, from: from, to: to, sunX: 0.5, sunY: 0.4 + Double(index % 3) * 0.05)
        let id = try await upload(photo, purpose: .avatar, description: nil, owner: person)
        var profile = person.profile
        profile.avatarURL = MediaLinks.path(id, .small)
        try await storage.accounts.updateProfile(person.id, displayName: person.displayName, profile: profile)
        try await storage.media.setAvatar(id, of: .person(person.id), at: Date())
    }

    /// A processed photo for a workout post, ready to attach.
    func workoutPhoto(_ number: Int, description: String, owner: AccountRecord) async throws -> MediaID {
        let (from, to) = Self.palettes[(number * 7 + 3) % Self.palettes.count]
        let photo = try GeneratedPhoto.jpeg(
            width: 800, height: 533, from: from, to: to, sunX: 0.2 + Double(number % 5) * 0.15, sunY: 0.3)
        return try await upload(photo, purpose: .post, description: description, owner: owner)
    }

    /// Stores and processes one photo now (the processing queue's own step, run in place).
    private func upload(
        _ data: Data, purpose: MediaPurpose, description: String?, owner: AccountRecord
    ) async throws -> MediaID {
        let uploaded = try await media.upload(
            data, contentType: "image/jpeg", purpose: purpose, description: description, focus: nil, owner: owner)
        while try await media.get(uploaded.id, owner: owner).status == .processing {
            guard await media.processDue() > 0 else { break }
        }
        let processed = try await media.get(uploaded.id, owner: owner)
        guard processed.status == .ready else {
            throw SpotterError.invalid("photo", "the demo photo was not processed: \(processed.reason ?? "")")
        }
        return uploaded.id
    }
}
