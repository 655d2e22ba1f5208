import Crypto
import Foundation
import SpotterE2E
import Testing

@Suite("Content keys and post bodies")
struct ContentTests {
    @Test("the wrapping key is HKDF-SHA256 of the epoch key with info 'spotter-e2e-v1 wrap'")
    func wrappingKey() throws {
        let epochKey = try EpochKey(rawValue: Data(repeating: 7, count: 32))
        let expected = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(repeating: 7, count: 32)), salt: Data(),
            info: Data("spotter-e2e-v1 wrap".utf8), outputByteCount: 32)
        #expect(epochKey.wrappingKey == expected)
    }

    @Test("a wrapped content key is 60 bytes and opens only for its group, epoch, item and epoch key")
    func contentKeyWrap() throws {
        // Given a content key wrapped for an item of group 1, epoch 2
        let epochKey = EpochKey()
        let contentKey = ContentKey()
        let wrapped = try ContentKeyWrap.seal(
            contentKey, with: epochKey, groupID: IDs.group, epoch: 2, itemID: IDs.item)
        // Then it opens where it belongs
        #expect(wrapped.count == 60)
        let opened = try ContentKeyWrap.open(wrapped, with: epochKey, groupID: IDs.group, epoch: 2, itemID: IDs.item)
        #expect(opened.rawValue == contentKey.rawValue)
        // And nowhere else
        let elsewhere: [(EpochKey, UUID, UInt32, UUID)] = [
            (EpochKey(), IDs.group, 2, IDs.item), (epochKey, IDs.otherGroup, 2, IDs.item),
            (epochKey, IDs.group, 3, IDs.item), (epochKey, IDs.group, 2, IDs.otherItem),
        ]
        for (key, group, epoch, item) in elsewhere {
            #expect(throws: E2EError.authenticationFailed) {
                try ContentKeyWrap.open(wrapped, with: key, groupID: group, epoch: epoch, itemID: item)
            }
        }
        var changed = wrapped
        changed[30] ^= 0x80
        #expect(throws: E2EError.authenticationFailed) {
            try ContentKeyWrap.open(changed, with: epochKey, groupID: IDs.group, epoch: 2, itemID: IDs.item)
        }
        #expect(throws: E2EError.self) {
            try ContentKeyWrap.open(wrapped + [0], with: epochKey, groupID: IDs.group, epoch: 2, itemID: IDs.item)
        }
    }

    @Test("a post body opens to its JSON for its post and group, with a fresh nonce each time")
    func postBody() throws {
        // Given a post's JSON sealed twice with its content key
        let key = ContentKey()
        let body = Data(#"{"v":1,"text":"5 km with Lou","children":[{"id":"c1","name":"Lou"}],"media":[]}"#.utf8)
        let sealed = try PostBodyCipher.seal(body, with: key, groupID: IDs.group, postID: IDs.item)
        let again = try PostBodyCipher.seal(body, with: key, groupID: IDs.group, postID: IDs.item)
        // Then both open, differ (random nonces), and are nonce ‖ ct ‖ tag
        #expect(sealed != again)
        #expect(sealed.count == 12 + body.count + 16)
        #expect(try PostBodyCipher.open(sealed, with: key, groupID: IDs.group, postID: IDs.item) == body)
        // And a body moved to another post, group or key does not open
        #expect(throws: E2EError.authenticationFailed) {
            try PostBodyCipher.open(sealed, with: key, groupID: IDs.group, postID: IDs.otherItem)
        }
        #expect(throws: E2EError.authenticationFailed) {
            try PostBodyCipher.open(sealed, with: key, groupID: IDs.otherGroup, postID: IDs.item)
        }
        #expect(throws: E2EError.authenticationFailed) {
            try PostBodyCipher.open(sealed, with: ContentKey(), groupID: IDs.group, postID: IDs.item)
        }
        #expect(throws: E2EError.malformed("shorter than nonce and tag")) {
            try PostBodyCipher.open(sealed.prefix(27), with: key, groupID: IDs.group, postID: IDs.item)
        }
    }
}
