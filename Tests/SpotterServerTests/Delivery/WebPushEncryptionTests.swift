import Crypto
import Foundation
import SpotterModels
import SpotterServer
import Testing

@Suite("Web Push encryption")
struct WebPushEncryptionTests {
    @Test("RFC 8291 Appendix A: its keys, salt and message encrypt to its body, byte for byte")
    func rfcVector() throws {
        // Given the worked example's browser subscription, ephemeral server key and salt
        let subscription = WebPushSubscription(
            endpoint: URL(string: "https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV")!,
            p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
            auth: "BTBZMqHH6r4Tts7J_aSIgg")
        let serverKey = try P256.KeyAgreement.PrivateKey(
            rawRepresentation: Base64URL.decode("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")!)
        let salt = Base64URL.decode("DGv6ra1nlYgDCS1FRnbzlw")!

        // When the message is encrypted
        let body = try WebPushEncryption.encrypt(
            payload: Data("When I grow up, I want to be a watermelon".utf8), subscription: subscription, salt: salt,
            serverKey: serverKey)

        // Then it is the RFC's body
        #expect(
            Base64URL.encode(body)
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6Tlz"
                + "AC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
    }

    @Test("a message is read by the browser it was encrypted for, and by no other")
    func roundTrip() throws {
        // Given two browsers
        let browser = WebPushBrowser()
        let stranger = WebPushBrowser()
        let subscription = browser.subscription(endpoint: "https://push.example.net/push/1")

        // When the same message is encrypted twice for the first
        let first = try WebPushEncryption.encrypt(payload: Data("same".utf8), subscription: subscription)
        let second = try WebPushEncryption.encrypt(payload: Data("same".utf8), subscription: subscription)

        // Then it reads both, the two bodies share neither salt nor key, and the other browser reads neither
        #expect(try browser.decrypt(first) == Data("same".utf8))
        #expect(try browser.decrypt(second) == Data("same".utf8))
        #expect(first.prefix(86) != second.prefix(86))
        #expect(throws: (any Error).self) { try stranger.decrypt(first) }
    }

    @Test("3993 bytes fill the 4096-byte body a push service must take; one more byte is refused")
    func sizeLimit() throws {
        // Given a subscription
        let browser = WebPushBrowser()
        let subscription = browser.subscription(endpoint: "https://push.example.net/push/1")

        // When the largest payload and one byte more are encrypted
        let largest = try WebPushEncryption.encrypt(
            payload: Data(repeating: 0x61, count: 3993), subscription: subscription)

        // Then the first fills 4096 bytes exactly and the second is refused with its size
        #expect(largest.count == 4096)
        #expect(try browser.decrypt(largest).count == 3993)
        #expect(throws: WebPushEncryption.Error.payloadTooLarge(size: 3994, limit: 3993)) {
            try WebPushEncryption.encrypt(payload: Data(repeating: 0x61, count: 3994), subscription: subscription)
        }
    }
}
