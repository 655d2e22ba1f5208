import Foundation
import SpotterE2E

/// A person with devices and their device chain, built statement by statement for chain tests.
struct Person {
    struct Device {
        let keys: DeviceKeys
        let registration: DeviceRegistration
        var signer: StatementSigner { StatementSigner(deviceID: registration.id, key: keys.signing) }
    }

    let id: UUID
    var devices: [Device] = []
    var chain: [SignedStatement] = []
    /// Statements' `at`, one second apart, so revocations come after what was signed before them.
    var clock: Int64 = 1_700_000_000

    init(id: UUID = UUID()) { self.id = id }

    static func device(name: String, recovery: Bool = false) -> Device {
        let keys = DeviceKeys()
        return Device(keys: keys, registration: keys.registration(id: UUID(), name: name, recovery: recovery))
    }

    /// A person whose chain adds their first device, self-signed.
    static func withFirstDevice(name: String = "phone") throws -> Person {
        var person = Person()
        let first = device(name: name)
        try person.append(.addDevice(first.registration), by: first)
        person.devices.append(first)
        return person
    }

    mutating func tick() -> Int64 {
        clock += 1
        return clock
    }

    /// Signs `kind` after the chain's head with `signer`, and appends it.
    @discardableResult
    mutating func append(_ kind: StatementKind, by signer: Device) throws -> SignedStatement {
        let statement = try signer.signer.sign(kind, on: .device(user: id), after: chain.last, at: tick())
        chain.append(statement)
        return statement
    }

    /// Adds a new device, signed by `by` (the first device when nil).
    @discardableResult
    mutating func addDevice(name: String, recovery: Bool = false, by: Device? = nil) throws -> Device {
        let new = Self.device(name: name, recovery: recovery)
        try append(.addDevice(new.registration), by: by ?? devices[0])
        devices.append(new)
        return new
    }

    func verified() throws -> VerifiedDeviceChain { try DeviceChain.verify(chain, userID: id) }
}

/// Builds a group chain.
struct GroupBuilder {
    let id: UUID
    var chain: [SignedStatement] = []
    var clock: Int64 = 1_700_000_100

    init(id: UUID = UUID()) { self.id = id }

    @discardableResult
    mutating func append(_ kind: StatementKind, by device: Person.Device, at: Int64? = nil) throws -> SignedStatement {
        clock += 1
        let statement = try device.signer.sign(kind, on: .group(id), after: chain.last, at: at ?? clock)
        chain.append(statement)
        return statement
    }
}
