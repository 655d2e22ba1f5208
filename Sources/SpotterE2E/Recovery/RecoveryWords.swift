// SpotterE2E composes swift-crypto's primitives (SHA-256 for BIP-39's checksum); no cryptography is written by
// hand here.
import Crypto
import Foundation

/// A recovery key's 32 random bytes as the 24 words a person writes down: BIP-39's English list and checksum
/// (https://github.com/bitcoin/bips/blob/master/bip-0039.mediawiki), 256 bits and 8 checksum bits in 24
/// groups of 11.
///
/// The word list is `Resources/bip39-english.txt`, the 2,048 words of PyPI's `mnemonic` 0.21
/// (`mnemonic/wordlist/english.txt`, MIT licence, Trezor), unchanged.
///
/// ```swift
/// let secret = RecoverySecret()
/// show(secret.words.joined(separator: " "))
/// let typed = try RecoverySecret(words: "legal winner thank year …")
/// ```
public struct RecoverySecret: Sendable, Equatable {
    /// Why typed words were refused.
    public enum WordsError: Error, Equatable, Sendable {
        case wrongCount(Int)
        case unknownWord(String)
        case badChecksum
    }

    /// The 32 bytes; never sent anywhere.
    public let entropy: Data

    /// New random bytes.
    public init() {
        entropy = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
    }

    public init(entropy: some DataProtocol) throws {
        guard entropy.count == 32 else { throw E2EError.invalidKey("recovery entropy is 32 bytes") }
        self.entropy = Data(entropy)
    }

    /// From the words as typed: any spacing or case.
    public init(words text: String) throws(WordsError) {
        let words = text.lowercased().split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard words.count == 24 else { throw .wrongCount(words.count) }
        var bits: [Bool] = []
        for word in words {
            guard let index = WordList.index[word] else { throw .unknownWord(word) }
            for shift in (0..<11).reversed() { bits.append((index >> shift) & 1 == 1) }
        }
        let entropy = Data(stride(from: 0, to: 256, by: 8).map { Self.byte(bits[$0..<$0 + 8]) })
        guard Self.byte(bits[256..<264]) == Self.checksum(entropy) else { throw .badChecksum }
        self.entropy = entropy
    }

    /// The 24 words.
    public var words: [String] {
        var bits: [Bool] = []
        for byte in entropy + [Self.checksum(entropy)] {
            for shift in (0..<8).reversed() { bits.append((byte >> shift) & 1 == 1) }
        }
        return stride(from: 0, to: 264, by: 11).map { start in
            WordList.words[bits[start..<start + 11].reduce(0) { ($0 << 1) | ($1 ? 1 : 0) }]
        }
    }

    private static func checksum(_ entropy: Data) -> UInt8 { Array(SHA256.hash(data: entropy))[0] }
    private static func byte(_ bits: ArraySlice<Bool>) -> UInt8 { bits.reduce(0) { ($0 << 1) | ($1 ? 1 : 0) } }
}

extension RecoverySecret {
    /// BIP-39's English word list, in order: what the web app serves its script, so that one list is used.
    public static var englishWords: [String] { WordList.words }
}

/// BIP-39's English words, read once from the module's resource.
enum WordList {
    static let words: [String] = {
        guard let url = Bundle.module.url(forResource: "bip39-english", withExtension: "txt"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { preconditionFailure("SpotterE2E's bip39-english.txt is missing") }
        let words = text.split(separator: "\n").map(String.init)
        precondition(words.count == 2048, "bip39-english.txt has \(words.count) words, not 2048")
        return words
    }()

    static let index: [String: Int] = Dictionary(uniqueKeysWithValues: words.enumerated().map { ($1, $0) })
}
