import Foundation
import SpotterModels
import SpotterNostr

extension NostrIngestService {
    /// Follows the Spotter accounts whose keys the newest contact list (kind 3) of the person's linked keys
    /// lists, through `SocialService` as if the person asked for each: people hidden from them (blocked either
    /// way, suspended) are left out, private accounts get a follow request.
    public func importContacts(for account: AccountRecord) async throws -> NostrContactsImport {
        guard let list = try await newest(.contacts, of: account) else {
            throw SpotterError.notFound("No contact list (kind 3) of your linked keys is on this relay.")
        }
        var listed = Set<NostrPublicKey>()
        let keys = list.tagValues("p").compactMap(NostrPublicKey.init(rawValue:)).filter { listed.insert($0).inserted }
        var followed: [AuthorSummary] = []
        var seen = Set<UserID>()
        for key in keys.prefix(5000) {
            guard let user = try await storage.nostr.owner(of: key), user != account.id, seen.insert(user).inserted,
                let person = try await storage.accounts.find(id: user)
            else { continue }
            do {
                let relationship = try await social.follow(person.username, viewer: account)
                if relationship.following != .none { followed.append(person.summary) }
            } catch SpotterError.notFound {
                continue  // hidden from them: as if not on Spotter
            }
        }
        return NostrContactsImport(listed: keys.count, followed: followed)
    }

    /// Sets the account's display name and bio from the newest profile (kind 0) of its linked keys, by the
    /// rules an edit of the profile follows. The picture is not taken: an avatar is an upload of the person's
    /// own, served by Spotter, since an address elsewhere would tell another site who looked at a profile.
    public func importProfile(for session: AuthenticatedSession) async throws -> Account {
        guard let accounts else { throw SpotterError.unavailable("Profiles cannot be imported here.") }
        guard let event = try await newest(.metadata, of: session.account) else {
            throw SpotterError.notFound("No profile (kind 0) of your linked keys is on this relay.")
        }
        guard let metadata = try? JSONDecoder().decode(Metadata.self, from: Data(event.content.utf8)) else {
            throw SpotterError.invalid("content", "the profile event's content is not a NIP-01 profile")
        }
        let name = [metadata.displayName, metadata.name].compactMap {
            $0?.trimmingCharacters(in: .whitespacesAndNewlines)
        }.first { !$0.isEmpty }
        return try await accounts.update(session, with: UpdateAccountRequest(displayName: name, bio: metadata.about))
    }

    /// NIP-01's kind 0 content (and NIP-24's `display_name`).
    private struct Metadata: Decodable {
        var name: String?
        var displayName: String?
        var about: String?

        enum CodingKeys: String, CodingKey {
            case name, about
            case displayName = "display_name"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // Clients write numbers or nulls where strings belong; those are simply absent.
            name = try? container.decodeIfPresent(String.self, forKey: .name)
            displayName = try? container.decodeIfPresent(String.self, forKey: .displayName)
            about = try? container.decodeIfPresent(String.self, forKey: .about)
        }
    }

    /// The newest event of a replaceable `kind` of any of the account's linked keys.
    private func newest(_ kind: NostrKind, of account: AccountRecord) async throws -> NostrEvent? {
        let keys = try await storage.nostr.keys(of: account.id).map(\.pubkey)
        guard !keys.isEmpty else { return nil }
        let filter = NostrFilter(authors: keys, kinds: [kind], limit: 1)
        return try await storage.nostr.query([filter], reader: NostrReader(user: account.id), limitCap: 1).first
    }
}
