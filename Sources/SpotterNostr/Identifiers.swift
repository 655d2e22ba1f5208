import Foundation

/// A 32-byte value written as 64 lower-case hex digits: event ids, x-only public keys.
public protocol NostrHex32: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible
where RawValue == String {
    init(unchecked hex: String)
}

extension NostrHex32 {
    /// Accepts exactly 64 lower-case hex digits.
    public init?(rawValue: String) {
        guard rawValue.utf8.count == 64, Hex.decode(rawValue) != nil else { return nil }
        self.init(unchecked: rawValue)
    }

    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        self.init(unchecked: Hex.encode(bytes))
    }

    public var bytes: [UInt8] { Hex.decode(rawValue) ?? [] }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(rawValue: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected 64 lower-case hex digits"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// An event's id: the SHA-256 of its NIP-01 serialisation.
public struct NostrEventID: NostrHex32 {
    public let rawValue: String
    public init(unchecked hex: String) { rawValue = hex }
}

/// A person's public key: the 32-byte x coordinate BIP-340 uses ("x-only").
public struct NostrPublicKey: NostrHex32 {
    public let rawValue: String
    public init(unchecked hex: String) { rawValue = hex }
}

/// An event kind (NIP-01), with the ranges that decide how a relay keeps events of it.
public struct NostrKind: RawRepresentable, Hashable, Sendable, Codable, Comparable, ExpressibleByIntegerLiteral {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ value: Int) { rawValue = value }
    public init(integerLiteral value: Int) { rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(Int.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public static let metadata: NostrKind = 0
    public static let textNote: NostrKind = 1
    public static let contacts: NostrKind = 3
    public static let deletion: NostrKind = 5
    public static let reaction: NostrKind = 7
    public static let comment: NostrKind = 1111
    public static let workoutRecord: NostrKind = 1301
    public static let clientAuthentication: NostrKind = 22242
    public static let httpAuthentication: NostrKind = 27235
    public static let exerciseTemplate: NostrKind = 33401
    public static let workoutTemplate: NostrKind = 33402

    /// Kinds of which a relay keeps only the newest per author (NIP-01: 0, 3, 10000–19999).
    public var isReplaceable: Bool { rawValue == 0 || rawValue == 3 || (10000..<20000).contains(rawValue) }
    /// Kinds a relay does not store (NIP-01: 20000–29999); it only passes them to live subscriptions.
    public var isEphemeral: Bool { (20000..<30000).contains(rawValue) }
    /// Kinds of which a relay keeps only the newest per author and `d` tag (NIP-01: 30000–39999).
    public var isAddressable: Bool { (30000..<40000).contains(rawValue) }
}
