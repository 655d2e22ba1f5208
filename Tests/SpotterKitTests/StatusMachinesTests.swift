import Foundation
import SpotterKit
import SpotterModels
import Testing

/// The sign-in and connectivity rules as pure machines (issue 40, item 8), driven through every path a
/// session meets.
@Suite("Status machines")
struct StatusMachinesTests {
    static let ana = Account(
        id: UserID("0190f3a2-7c4e-7d5a-9b1e-3f2a6c8d0e11")!, username: "ana", email: "ana@example.com",
        displayName: "Ana", createdAt: Date(timeIntervalSince1970: 0))

    @Test("sign-in: out, signing in, in, refreshing, in again, expired, signing in, in, out")
    func authLifecycle() {
        var auth = AuthMachine(hasSession: false)
        let states = [
            ClientEvent.signingIn, .signedIn(Self.ana), .refreshing, .refreshed, .refreshing, .sessionEnded,
            .signingIn, .signedIn(Self.ana), .signedOut,
        ].map { auth.handle($0) }
        #expect(
            states == [
                .signingIn, .signedIn, .refreshing, .signedIn, .refreshing, .expired, .signingIn, .signedIn,
                .signedOut,
            ])
    }

    @Test("a failed sign-in goes back to what it was: signed out, or expired; a refresh lost offline stays signed in")
    func authFailures() {
        var fresh = AuthMachine(hasSession: false)
        fresh.handle(.signingIn)
        #expect(fresh.handle(.signInFailed) == .signedOut)
        var expired = AuthMachine(hasSession: true)
        expired.handle(.sessionEnded)
        expired.handle(.signingIn)
        #expect(expired.handle(.signInFailed) == .expired)
        var offline = AuthMachine(hasSession: true)
        offline.handle(.refreshing)
        #expect(offline.handle(.refreshFailed) == .signedIn)
        // Requests and their answers say nothing of signing in
        #expect(offline.handle(.reached) == .signedIn && offline.handle(.unreachable) == .signedIn)
        // A refresh that ends a login nobody holds changes nothing
        var out = AuthMachine(hasSession: false)
        #expect(out.handle(.sessionEnded) == .signedOut)
    }

    @Test("offline at once on an unreachable request or a lost path; back on any answer, open socket or path")
    func connectivity() {
        var machine = ConnectivityMachine()
        #expect(machine.state == .unknown)
        #expect(machine.handle(.reached) == false, "unknown to online is not a comeback")
        #expect(machine.handle(.unreachable) == false && machine.state == .offline)
        #expect(machine.handle(.unreachable) == false)
        #expect(machine.handle(.reached) == true && machine.state == .online)
        #expect(machine.handle(.path(satisfied: false)) == false && machine.state == .offline)
        #expect(machine.handle(.path(satisfied: true)) == true)
        machine.handle(.unreachable)
        #expect(machine.handle(.socketOpened) == true)
        #expect(machine.handle(.socketOpened) == false, "online to online is not a comeback")
    }
}
