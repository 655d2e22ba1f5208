import Foundation
import Observation
import SpotterE2E
import SpotterModels

/// The "this device" screen of encrypted groups: a new device asks to be approved and shows its code; a device
/// already approved lists the new ones waiting, and approves one with the code the person types from it, or
/// declines it (docs/encryption.md, "Approving a new device").
///
/// ```swift
/// struct ThisDeviceScreen: View {
///     @State var model: DeviceApprovalViewModel
///     @State var typed: [UUID: String] = [:]
///     var body: some View {
///         List {
///             if case .waiting(let request) = model.status {
///                 Text("On another device of yours, type \(request.code.description)")
///             }
///             Section { Text(DeviceApprovalViewModel.notice) }
///             ForEach(model.waiting, id: \.id) { request in
///                 TextField("Code shown on \(request.device.name)", text: $typed[request.id, default: ""])
///                 Button("Approve") { Task { await model.approve(request, code: typed[request.id] ?? "") } }
///                 Button("Decline", role: .destructive) { Task { await model.decline(request) } }
///             }
///             if let change = model.safetyNumberChange { Text(change.summary) }
///             if let error = model.errorMessage { Text(error).foregroundStyle(.red) }
///         }
///         .task { await model.loadWaiting() }
///     }
/// }
/// ```
@MainActor
@Observable
public final class DeviceApprovalViewModel {
    /// What to tell the person before they approve a device: their safety number changes.
    public static let notice = SafetyNumberChange.notice

    /// This device's own request, once asked for (`requestApproval`), and where it stands.
    public private(set) var status: DeviceApprovalStatus?
    /// The new devices waiting for this one to approve them, oldest first.
    public private(set) var waiting: [E2EDeviceRequest] = []
    /// The person's safety number before and after the last approval here.
    public private(set) var safetyNumberChange: SafetyNumberChange?
    /// The last thing that went wrong, in words for the person; cleared by the next success.
    public private(set) var errorMessage: String?

    private let groups: EncryptedGroups

    public init(groups: EncryptedGroups) {
        self.groups = groups
    }

    // MARK: This device, new

    /// Asks the person's devices to approve this one, named `name`: `status` then holds the code to show.
    public func requestApproval(name: String) async {
        await attempt { self.status = try await self.groups.requestApproval(name: name) }
    }

    /// Looks once whether this device was approved (its groups then open), declined or ran out.
    public func checkApproval() async {
        await attempt { self.status = try await self.groups.approvalStatus() }
    }

    /// Looks every `interval` until this device's request is no longer waiting.
    public func waitForApproval(every interval: Duration = .seconds(2)) async {
        await attempt { self.status = try await self.groups.waitForApproval(every: interval) }
    }

    // MARK: This device, approving others

    /// The new devices waiting.
    public func loadWaiting() async {
        await attempt { self.waiting = try await self.groups.waitingDevices() }
    }

    /// Approves `request` if `code` is the one its device shows; `false`, with nothing signed and
    /// `errorMessage` saying why, otherwise.
    @discardableResult
    public func approve(_ request: E2EDeviceRequest, code: String) async -> Bool {
        await attempt {
            self.safetyNumberChange = try await self.groups.approveDevice(request, code: code).safetyNumber
            self.waiting = try await self.groups.waitingDevices()
        }
    }

    /// Declines `request`: it is removed, and its device is told when it next looks.
    public func decline(_ request: E2EDeviceRequest) async {
        await attempt {
            try await self.groups.declineDevice(request)
            self.waiting = try await self.groups.waitingDevices()
        }
    }

    @discardableResult
    private func attempt(_ body: () async throws -> Void) async -> Bool {
        do {
            try await body()
            errorMessage = nil
            return true
        } catch {
            errorMessage = Self.message(error)
            return false
        }
    }

    /// The person's words for what went wrong.
    static func message(_ error: any Error) -> String {
        switch error {
        case EncryptedGroupsError.wrongCode:
            "That is not the code the new device shows. Nothing was signed: check the code and type it again."
        case EncryptedGroupsError.unreadableCode:
            "A code is 12 letters and digits, as the new device shows it."
        case EncryptedGroupsError.noDevicesYet:
            "Your account has no devices yet: make this one your first."
        case EncryptedGroupsError.notRegistered, EncryptedGroupsError.deviceNotLive:
            "This device is not one of yours yet, so it cannot approve another."
        default: FeedViewModel.message(error)
        }
    }
}
