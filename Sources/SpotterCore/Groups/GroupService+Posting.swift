import SpotterModels

extension GroupService {
    /// The groups `author` may post to now, by the one rule (`GroupPolicy.allows(.post)`, which `postable` asks of
    /// every post): the composer's group picker. An encrypted group's posts are sealed on the device, so a plain
    /// form offers those to the sealed builder instead (`Group.encrypted`).
    public func postingTargets(for author: AccountRecord) async throws -> [Group] {
        try await mine(author).filter {
            GroupPolicy.allows(.post, standing: $0.standing, access: $0.access, suspended: author.suspendedAt != nil)
        }
    }

    /// The group a new post is meant for (the web's `/compose?group=`), when `viewer` may post to it now; else a
    /// refusal saying why (404 for a group they may not see, 403 for one they are not a member of). Whoever asks
    /// gets that group or nothing: never a wider audience in its place.
    public func postingTarget(_ id: GroupID, viewer: AccountRecord) async throws -> Group {
        let group = try await get(id, viewer: viewer)
        guard
            GroupPolicy.allows(
                .post, standing: group.standing, access: group.access, suspended: viewer.suspendedAt != nil)
        else { throw SpotterError.forbidden("Only members post to \(group.name). Join it first, then post.") }
        return group
    }
}
