import Foundation

/// How distances are entered and shown; they are always stored in metres.
public enum DistanceUnit: String, Codable, Sendable, CaseIterable {
    case km, mi

    /// Metres in one unit.
    public var metres: Double { self == .km ? 1000 : 1609.344 }
}

extension Units {
    /// Kilograms in one pound (exact, by definition).
    public static let kilogramsPerPound = 0.45359237

    /// The distance unit that goes with these weights: km with kg, mi with lb.
    public var distance: DistanceUnit { self == .kg ? .km : .mi }

    /// A weight as a person typed it in these units, in kilograms as it is stored.
    ///
    ///     Units.lb.kilograms(225)   // 102.058…
    public func kilograms(_ value: Double) -> Double {
        self == .kg ? value : value * Self.kilogramsPerPound
    }

    /// A stored weight in these units.
    public func value(ofKilograms kilograms: Double) -> Double {
        self == .kg ? kilograms : kilograms / Self.kilogramsPerPound
    }
}

extension WorkoutType {
    /// The name a person reads: "Strength", "EMOM", "AMRAP".
    public var label: String {
        switch self {
        case .strength: "Strength"
        case .circuit: "Circuit"
        case .emom: "EMOM"
        case .amrap: "AMRAP"
        case .cardio: "Cardio"
        }
    }
}

extension CardioMetrics {
    /// Seconds per kilometre or mile; `nil` without a distance or a time.
    public func pace(per unit: DistanceUnit) -> Double? {
        guard let distanceM, distanceM > 0, durationS > 0 else { return nil }
        return Double(durationS) / (distanceM / unit.metres)
    }
}

/// Reading and writing cardio numbers as people type them: "30:45", "1:02:03", "5.2km", "3.1 mi".
public enum CardioText {
    /// A duration as "h:mm:ss", "m:ss" or whole minutes ("45"), in seconds; `nil` when it isn't one.
    ///
    ///     CardioText.seconds("30:45")     // 1845
    ///     CardioText.seconds("1:02:03")   // 3723
    ///     CardioText.seconds("45")        // 2700
    public static func seconds(_ text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        let numbers = parts.map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        let values = numbers.map { $0! }
        if values.count == 1 { return values[0] * 60 }
        // After the first part, minutes and seconds stay below 60.
        guard values.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        return values.reduce(0) { $0 * 60 + $1 }
    }

    /// A distance as "5.2km", "3.1 mi" or "5000m", in metres; a bare number is in `unit`.
    ///
    ///     CardioText.metres("3.1mi", unit: .km)   // 4988.97…
    public static func metres(_ text: String, unit: DistanceUnit) -> Double? {
        var text = text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: ",", with: ".")
        var scale = unit.metres
        for (suffix, metres) in [("km", 1000.0), ("mi", DistanceUnit.mi.metres), ("m", 1.0)]
        where text.hasSuffix(suffix) {
            text = String(text.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            scale = metres
            break
        }
        guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
        return value * scale
    }

    /// Seconds as a clock reads: "30:45", "1:02:03".
    public static func clock(_ seconds: Int) -> String {
        let hours = seconds / 3600
        let minutes = seconds % 3600 / 60
        let rest = seconds % 60
        return hours > 0
            ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }

    /// A pace, "5:55 /km", from a cardio entry; `nil` without both a distance and a time.
    public static func pace(_ cardio: CardioMetrics, unit: DistanceUnit) -> String? {
        cardio.pace(per: unit).map { "\(clock(Int($0.rounded()))) /\(unit.rawValue)" }
    }

    /// A distance in `unit` with up to two decimals: "5.2 km", "10 km", "3.11 mi".
    public static func distance(_ metres: Double, unit: DistanceUnit) -> String {
        "\(number(metres / unit.metres)) \(unit.rawValue)"
    }

    /// Up to two decimals, without trailing zeros: 5.2, 10, 3.11.
    public static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(format: "%.2f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
