import Foundation
import SpotterE2E
import SpotterModels

/// End-to-end encrypted groups on this device (docs/encryption.md): its keys, the chains it verifies, the
/// epoch keys it holds, and sealing and opening posts, comments and photos.
///
/// Every chain is verified before anything it says is used, and must continue what this device saw before;
/// a key is wrapped only to a live device, by a verified chain, of a member, by the verified group chain
/// (`KeyRecipients`). Private keys stay in the `DeviceKeyStore`; plaintext stays in memory, and a deleted
/// post's is purged.
///
/// ```swift
/// let groups = EncryptedGroups(client: client, store: FileDeviceKeyStore(directory: folder))
/// try await groups.registerDevice(name: "Ana's phone")
/// let family = try await groups.createGroup(name: "Family", history: true)
/// // …after Ben accepts an invitation:
/// try await groups.reconcile(family.id)                       // adds him and wraps him the keys
/// let post = try await groups.post(text: "First swim!", photos: [photo], childIDs: [mia], to: family.id)
/// let body = try await groups.open(post)
/// ```
public actor EncryptedGroups {
    public let client: SpotterClient
    let store: any DeviceKeyStore
    /// The clock statements are dated by (the server refuses one more than five minutes off its own).
    let now: @Sendable () -> Date
    var seen = SeenChains()
    /// Where the chains seen are kept across launches; nil keeps them for this actor's life only.
    let database: AppDatabase?
    let mediaCacheLimit: Int
    private var seenLoaded = false
    var epochKeyCache: [GroupID: [Int: EpochKey]] = [:]
    /// Each group's current epoch when this device last sealed in it, for sealing offline (`queuePost`).
    var lastEpochs: [GroupID: Int] = [:]
    var openedPosts: [PostID: SealedPostBody] = [:]
    /// Opened comments, with the post each is on (so a deleted post's go with it). Photos are not kept: they
    /// are large, and an app caches what it shows.
    var openedComments: [CommentID: (post: PostID, body: SealedCommentBody)] = [:]
    /// Which group a post this device has seen belongs to, to open its comments.
    var postGroups: [PostID: GroupID] = [:]
    private var userID: UserID?
    private var cachedIdentity: DeviceIdentity?

    /// - Parameters:
    ///   - database: the client database, to keep the chains this device verified across launches (an app
    ///     passes its session's), and opened photos (`cachedPhoto`); without one a relaunch takes the server's
    ///     chains afresh, and photos are downloaded each time.
    ///   - mediaCacheLimit: how many bytes of opened photos are kept.
    public init(
        client: SpotterClient, store: any DeviceKeyStore, database: AppDatabase? = nil,
        mediaCacheLimit: Int = 200 * 1024 * 1024, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.store = store
        self.database = database
        self.mediaCacheLimit = mediaCacheLimit
        self.now = now
    }

    /// The chains seen on earlier launches, read once, before the first chain is checked.
    func loadSeenChains() async throws {
        guard !seenLoaded else { return }
        seenLoaded = true
        if let database { seen = SeenChains(heads: try await database.seenChainHeads()) }
    }

    /// Takes a verified chain as seen (refusing one that does not extend what was seen) and keeps it.
    func acceptSeen(_ chain: VerifiedDeviceChain) async throws {
        try await loadSeenChains()
        try seen.accept(chain)
        try await keepSeen(.device(user: chain.userID))
    }

    func acceptSeen(_ group: VerifiedGroup) async throws {
        try await loadSeenChains()
        try seen.accept(group)
        try await keepSeen(.group(group.groupID))
    }

    private func keepSeen(_ chain: ChainID) async throws {
        guard let database, let head = seen.head(of: chain) else { return }
        try await database.saveSeenChainHead(chain.description, length: head.length, head: head.head)
    }

    /// The person signed in.
    func me() async throws -> UserID {
        if let userID { return userID }
        let id: UserID
        do {
            id = try await client.me().id
        } catch let error as SpotterClientError where error.isTransient {
            // Offline at a cold start: who the session knows is signed in (`SpotterSession.maintain`).
            guard let kept = try? await database?.me()?.id else { throw error }
            id = kept
        }
        userID = id
        return id
    }

    /// This device's identity for the person signed in.
    public func identity() async throws -> DeviceIdentity {
        if let cachedIdentity { return cachedIdentity }
        guard let identity = try await store.load(for: try await me()) else { throw EncryptedGroupsError.notRegistered }
        cachedIdentity = identity
        return identity
    }

    /// Keeps this device's new identity in the store, and uses it from now on.
    func save(_ identity: DeviceIdentity) async throws {
        try await store.save(identity)
        cachedIdentity = identity
    }

    /// Seconds since 1970, as statements carry them.
    var at: Int64 { Int64(now().timeIntervalSince1970) }

    // MARK: Reading chains

    /// A person's device chain as the server has it, verified and checked against what was seen: `nil` when
    /// the person has no devices yet.
    func readDeviceChain(of user: UserID) async throws -> (chain: VerifiedDeviceChain, last: SignedStatement)? {
        let statements = try await client.deviceChain(of: user).statements.map { wire throws(EncryptedGroupsError) in
            try SignedStatement.read(wire)
        }
        let name = ChainID.device(user: user.rawValue).description
        try await loadSeenChains()
        guard let last = statements.last else {
            guard seen.length(of: .device(user: user.rawValue)) == 0 else {
                throw EncryptedGroupsError.chainRewritten(chain: name)
            }
            return nil
        }
        let chain: VerifiedDeviceChain
        do {
            chain = try DeviceChain.verify(statements, userID: user.rawValue)
        } catch {
            throw EncryptedGroupsError.chainRefused(chain: name, error)
        }
        try await acceptSeen(chain)
        return (chain, last)
    }

    /// This device's identity, checked live in the person's verified chain.
    func liveIdentity() async throws -> (identity: DeviceIdentity, chain: VerifiedDeviceChain, last: SignedStatement) {
        let identity = try await identity()
        guard let read = try await readDeviceChain(of: identity.userID),
            let device = read.chain.device(identity.deviceID), device.isLive,
            device.registration == identity.registration
        else { throw EncryptedGroupsError.deviceNotLive(identity.deviceID) }
        return (identity, read.chain, read.last)
    }

    /// A group chain and the device chains of everyone it names, all verified.
    struct GroupRead: Sendable {
        var group: VerifiedGroup
        var statements: [SignedStatement]
        var chains: [UUID: VerifiedDeviceChain]

        var recipients: KeyRecipients { KeyRecipients(group: group, deviceChains: Array(chains.values)) }
    }

    func readGroup(_ id: GroupID) async throws -> GroupRead {
        let statements = try await client.groupChain(of: id).statements.map { wire throws(EncryptedGroupsError) in
            try SignedStatement.read(wire)
        }
        let name = ChainID.group(id.rawValue).description
        guard !statements.isEmpty else { throw EncryptedGroupsError.notEncrypted(id) }
        var chains: [UUID: VerifiedDeviceChain] = [:]
        for user in try Self.people(named: statements, chain: name) {
            if let read = try await readDeviceChain(of: UserID(rawValue: user)) { chains[user] = read.chain }
        }
        let group = try Self.verify(statements, groupID: id, chains: chains)
        try await acceptSeen(group)
        return GroupRead(group: group, statements: statements, chains: chains)
    }

    static func verify(
        _ statements: [SignedStatement], groupID: GroupID, chains: [UUID: VerifiedDeviceChain]
    ) throws(EncryptedGroupsError) -> VerifiedGroup {
        do {
            return try GroupChain.verify(statements, groupID: groupID.rawValue, deviceChains: Array(chains.values))
        } catch {
            throw .chainRefused(chain: ChainID.group(groupID.rawValue).description, error)
        }
    }

    /// Everyone a group chain's statements name: whose device chains its signatures are checked against.
    static func people(named statements: [SignedStatement], chain: String) throws(EncryptedGroupsError) -> [UUID] {
        var people: [UUID] = []
        for (seq, statement) in statements.enumerated() {
            let body: StatementBody
            do {
                body = try statement.decodedBody()
            } catch {
                throw .chainRefused(chain: chain, ChainError(seq: seq, reason: .malformedBody("\(error)")))
            }
            switch body.kind {
            case .create(let user, _), .add(let user, _), .remove(let user), .role(let user, _):
                if !people.contains(user) { people.append(user) }
            case .addDevice, .revokeDevice:
                break
            }
        }
        return people
    }

    // MARK: Epoch keys

    /// The epoch keys this device holds in the group, opened with its HPKE key; a wrap that does not open
    /// (another device's, group's or epoch's, or changed) is left out.
    func epochKeys(_ group: GroupID, refresh: Bool = false) async throws -> [Int: EpochKey] {
        if !refresh, let keys = epochKeyCache[group] { return keys }
        let identity = try await identity()
        var keys = epochKeyCache[group] ?? [:]
        let delivered: [WrappedEpochKey]
        let device = UUIDText.format(identity.deviceID)
        do {
            delivered = try await client.epochKeys(in: group, device: identity.deviceID)
            try? await database?.saveWrappedEpochKeys(delivered, group: group, device: device)
        } catch let error as SpotterClientError where error.status == 404 {
            // The server knows no such device of mine: one registered here but not yet approved (or revoked)
            // is not in my chain, so nothing is wrapped to it. Say that, not the server's 404.
            throw EncryptedGroupsError.deviceNotLive(identity.deviceID)
        } catch let error as SpotterClientError where error.isTransient {
            // Offline: the keys delivered before, kept wrapped, open what the feeds kept.
            guard let kept = try? await database?.wrappedEpochKeys(group: group, device: device), !kept.isEmpty
            else { throw error }
            delivered = kept
        }
        for wrapped in delivered where keys[wrapped.epoch] == nil {
            guard wrapped.epoch >= 0, let bytes = Base64URL.strict(wrapped.key),
                let key = try? EpochKeyWrap.open(
                    bytes, with: identity.keys.hpke, groupID: group.rawValue, epoch: UInt32(wrapped.epoch))
            else { continue }
            keys[wrapped.epoch] = key
        }
        epochKeyCache[group] = keys
        return keys
    }

    /// The key of one epoch, asking the server again when this device does not hold it yet.
    func epochKey(_ group: GroupID, epoch: Int) async throws -> EpochKey {
        if let key = try await epochKeys(group)[epoch] { return key }
        guard let key = try await epochKeys(group, refresh: true)[epoch] else {
            throw EncryptedGroupsError.noKey(epoch: epoch)
        }
        return key
    }

    func remember(_ key: EpochKey, epoch: Int, in group: GroupID) {
        epochKeyCache[group, default: [:]][epoch] = key
    }

    /// The encrypted groups I belong to.
    func myEncryptedGroups() async throws -> [GroupID] {
        try await client.myGroups().items.filter(\.encrypted).map(\.id)
    }
}
