/// Two generations of at most `capacity` values each: a hit in the older one moves to the newer, and when the
/// newer fills up the older is dropped. Nearly least-recently-used, at the cost of two dictionaries; the
/// memory it can hold is bounded by twice `capacity`. Not synchronised: keep it in a `Mutex`. Inlinable, so
/// that other modules' uses are specialised for their key and value: their lookups are on every feed page's
/// path.
public struct RecentValues<Key: Hashable, Value>: ~Copyable {
    public let capacity: Int
    @usableFromInline var newer: [Key: Value] = [:]
    @usableFromInline var older: [Key: Value] = [:]

    @inlinable public init(capacity: Int) {
        self.capacity = capacity
    }

    @inlinable public mutating func value(for key: Key) -> Value? {
        if let value = newer[key] { return value }
        guard let value = older.removeValue(forKey: key) else { return nil }
        store(value, for: key)
        return value
    }

    @inlinable public mutating func store(_ value: Value, for key: Key) {
        if newer.count >= capacity {
            older = newer
            newer = [:]
        }
        newer[key] = value
    }
}
