import Foundation

/// A time-ordered UUID (RFC 9562 version 7): 48 bits of Unix milliseconds, a 12-bit counter, then random bits.
///
/// Every Spotter ID is one, so IDs sort by creation time and index well in both databases. Within one
/// millisecond a process hands out increasing counters (RFC 9562 §6.2, method 1), so posts made in the same
/// millisecond still sort in the order they were made and a feed's order matches what happened.
public enum UUIDv7 {
    /// Makes a new version 7 UUID for the given instant.
    public static func make(at date: Date = Date()) -> UUID {
        var generator = SystemRandomNumberGenerator()
        let next = counters.next(for: UInt64(max(0, date.timeIntervalSince1970 * 1000)))
        return make(milliseconds: next.milliseconds, counter: next.counter, using: &generator)
    }

    /// Makes a version 7 UUID with the given source of randomness (tests pass a seeded one).
    public static func make(at date: Date, using generator: inout some RandomNumberGenerator) -> UUID {
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        return make(
            milliseconds: milliseconds, counter: UInt16.random(in: 0...0xFFF, using: &generator), using: &generator)
    }

    private static func make(
        milliseconds: UInt64, counter: UInt16, using generator: inout some RandomNumberGenerator
    )
        -> UUID
    {
        // One draw of 64 random bits rather than one per byte: the system generator makes a getrandom(2)
        // call per draw, and IDs are made on every write and every request.
        let random = generator.next()
        let high = milliseconds << 16 | 0x7000 | UInt64(counter & 0xFFF)  // 48-bit time, version 7, counter
        let low = random & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000  // RFC 9562 variant, 62 random bits
        func byte(_ value: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (56 - 8 * index)) }
        return UUID(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3),
                byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
                byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
                byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
            )
        )
    }

    /// The smallest UUID of the millisecond `date` falls in (not itself a version 7 UUID): every id made at
    /// or after `date` sorts at or after it, as bytes and as lowercase text.
    public static func lowest(at date: Date) -> UUID {
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        func byte(_ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * index)) }
        return UUID(uuid: (byte(0), byte(1), byte(2), byte(3), byte(4), byte(5), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    }

    /// When a version 7 UUID was made (its millisecond).
    public static func date(of uuid: UUID) -> Date {
        let bytes = uuid.uuid
        let milliseconds = [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5].reduce(UInt64(0)) {
            $0 << 8 | UInt64($1)
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    private static let counters = MillisecondCounters()
}

/// The last counter handed out for each recent millisecond. Keyed by millisecond (not just "the last one")
/// because callers pass explicit instants that interleave (tests, imports), and each millisecond must still
/// count up on its own.
///
/// Two things used to restart a millisecond's count at random, so a later id could sort first. More than
/// 4,096 ids in one millisecond: a full millisecond now borrows the next one (RFC 9562 §6.2 allows the
/// timestamp to run ahead). And forgetting a millisecond after some number of other milliseconds had been
/// used: a count cannot tell a millisecond nobody will ask for again from one a descheduled thread is still
/// using, and on CI a test's fixed instant was forgotten while another test ran through 3,000 instants. So a
/// millisecond is forgotten only once it has gone unused for `memory` of wall-clock time. With the real clock
/// that is every millisecond but the last few seconds' worth, so the table stays small.
private final class MillisecondCounters: @unchecked Sendable {
    private struct Position {
        var milliseconds: UInt64
        var counter: UInt16
        var lastUsed: ContinuousClock.Instant
    }

    private static let memory = Duration.seconds(10)
    private let lock = NSLock()
    private var positions: [UInt64: Position] = [:]
    /// Sweeping when the table reaches this size, then doubling it past what survived, keeps the sweeps'
    /// cost constant per id even while every entry is still remembered.
    private var sweepAt = 1024

    func next(for requested: UInt64) -> (milliseconds: UInt64, counter: UInt16) {
        let now = ContinuousClock.now
        return lock.withLock {
            let next: Position
            if let last = positions[requested] {
                next =
                    last.counter < 0xFFF
                    ? Position(milliseconds: last.milliseconds, counter: last.counter + 1, lastUsed: now)
                    : Position(milliseconds: last.milliseconds + 1, counter: 0, lastUsed: now)
            } else {
                // Start in the lower half so the millisecond has room to count up.
                next = Position(milliseconds: requested, counter: UInt16.random(in: 0..<0x800), lastUsed: now)
            }
            positions[requested] = next
            if positions.count >= sweepAt {
                positions = positions.filter { now - $0.value.lastUsed < Self.memory }
                sweepAt = max(1024, positions.count * 2)
            }
            return (next.milliseconds, next.counter)
        }
    }
}

/// A typed identifier: a UUIDv7 that knows what it identifies, so a `UserID` can never be passed where a
/// post's ID is expected. On the wire it is the lowercase UUID string.
public protocol TypedID: Hashable, Sendable, Codable, CustomStringConvertible, LosslessStringConvertible {
    var rawValue: UUID { get }
    init(rawValue: UUID)
}

extension TypedID {
    /// A new, time-ordered identifier.
    public static func generate(at date: Date = Date()) -> Self { Self(rawValue: UUIDv7.make(at: date)) }

    public init?(_ description: String) {
        guard let uuid = UUIDText.parse(description) else { return nil }
        self.init(rawValue: uuid)
    }

    public var description: String { UUIDText.format(rawValue) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let id = Self(string) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a UUID: \(string)")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Identifies an account.
public struct UserID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Identifies a post (a note or a workout record).
public struct PostID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Identifies a comment or reply.
public struct CommentID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Identifies an exercise template (NIP-101e kind 33401).
public struct ExerciseTemplateID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Identifies a workout template (NIP-101e kind 33402).
public struct WorkoutTemplateID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Identifies one notification in someone's inbox.
public struct NotificationID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Identifies an uploaded photo (its original and its renditions).
public struct MediaID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Identifies a group (a club, a team, a family circle).
public struct GroupID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Identifies an invitation to a group (a link or code, or one to a named person).
public struct GroupInvitationID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Identifies a child profile (a child a parent manages; no login, no keys).
public struct ChildProfileID: TypedID {
    public let rawValue: UUID
    public init(rawValue: UUID) { self.rawValue = rawValue }
}
