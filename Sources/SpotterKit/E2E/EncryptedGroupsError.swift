import Foundation
import SpotterE2E
import SpotterModels

/// Why `EncryptedGroups` refused: what a person can be told, or what an app acts on. Never carries a key.
public enum EncryptedGroupsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// This device has no keys for the person signed in: register it (`registerDevice`), have another device
    /// approve it, or restore with the recovery words.
    case notRegistered
    /// This device's keys are not a live device of the person's chain (revoked, or never approved).
    case deviceNotLive(UUID)
    /// The person already has devices: a new one is approved by one of them (`requestApproval`,
    /// `approveDevice(code:)`) or by the recovery words.
    case alreadyHasDevices
    /// A chain failed to verify; nothing it says is trusted.
    case chainRefused(chain: String, ChainError)
    /// A chain does not continue the one seen before (shorter, or another statement where the old head was):
    /// the server rewrote or hid part of it.
    case chainRewritten(chain: String)
    /// A key was to be wrapped to, or offered for, a device that is not a live device in a verified chain of a
    /// verified member (a "ghost device").
    case ghostDevice(UUID)
    /// The person is not a member by the group's verified chain.
    case notAMember(UserID)
    /// Only an admin's or the owner's device may do this.
    case notAnAdmin
    /// The group has no keys yet, or is not encrypted.
    case notEncrypted(GroupID)
    /// Someone who held the current key should no longer read (a member gone, a device revoked) and only an
    /// admin's or the owner's device can make the next epoch: nothing is sealed with the current one meanwhile.
    case rotationDue(GroupID)
    /// This device holds no key for that epoch (not yet shared with it, or made after it lost access).
    case noKey(epoch: Int)
    /// The recovery kit's keys are not the live recovery device of the chain.
    case recoveryKeyNotInChain
    /// The item is not sealed, or its sealed content failed to open (a wrong key, another item's, or changed).
    case cannotOpen(String)
    /// A value from the server that is not what the wire says it is.
    case malformed(String)
    /// The person has no device yet: this one can be their first (`registerDevice`), not wait to be approved.
    case noDevicesYet
    /// The code typed is not twelve letters and digits, as a new device shows it.
    case unreadableCode
    /// No waiting device has the code typed: nothing was signed. (A server that put keys of its own in a
    /// request ends here too.)
    case wrongCode

    public var description: String {
        switch self {
        case .notRegistered: "this device has no encryption keys yet"
        case .deviceNotLive(let id): "device \(UUIDText.format(id)) is not a live device of this account"
        case .alreadyHasDevices:
            "this account has devices: ask one of them to approve this one, or use the recovery words"
        case .chainRefused(let chain, let error): "the chain \(chain) was refused: \(error)"
        case .chainRewritten(let chain): "the chain \(chain) does not continue what this device saw before"
        case .ghostDevice(let id): "device \(UUIDText.format(id)) is not in a verified chain of a member"
        case .notAMember(let user): "\(user) is not a member by the group's chain"
        case .notAnAdmin: "only an admin's or the owner's device may do this"
        case .notEncrypted(let group): "group \(group) has no keys"
        case .rotationDue(let group): "group \(group) waits for an admin's device to make a new key"
        case .noKey(let epoch): "this device holds no key for epoch \(epoch)"
        case .recoveryKeyNotInChain: "the recovery words do not open this account's recovery key"
        case .cannotOpen(let what): "cannot open \(what)"
        case .malformed(let what): "malformed: \(what)"
        case .noDevicesYet: "this account has no devices yet: make this one its first"
        case .unreadableCode: "a code is twelve letters and digits, as the new device shows it"
        case .wrongCode:
            "that code is not the one the new device shows: nothing was signed; check it and type it again"
        }
    }
}
