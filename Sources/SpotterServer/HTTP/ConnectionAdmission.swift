import NIOCore
import Synchronization

/// Decides, as each connection is accepted, whether the server takes it: one client address may hold at most
/// `perAddress` connections, and the server at most `total`, so neither a single client nor a crowd can take
/// every descriptor. A connection over either limit is answered 503 and closed before anything of it is read.
///
/// The total matters more than it looks: when `accept` fails for want of descriptors, NIO keeps its read
/// pending and the listening socket stays readable, so the event loop spins on `accept` at a full core (seen:
/// 65,000 failed calls in 3 s) while no one is served, its accept backoff notwithstanding. Keeping connections
/// below the descriptor limit means `accept` never gets there. Shared by every connection of one server.
final class ConnectionAdmission: Sendable {
    private let perAddress: Int
    private let total: Int
    private let open = Mutex<(total: Int, byAddress: [String: Int])>((0, [:]))

    /// `perAddress` 0 counts no address; `total` is the most connections held at once.
    init(perAddress: Int, total: Int) {
        self.perAddress = perAddress
        self.total = total
    }

    /// Admits a new connection if there is room, and counts it until the channel closes.
    func admit(_ channel: any Channel) -> Bool {
        let address = perAddress > 0 ? channel.remoteAddress?.ipAddress : nil
        let admitted = open.withLock { open in
            let fromAddress = address.map { open.byAddress[$0, default: 0] } ?? 0
            guard open.total < total, address == nil || fromAddress < perAddress else { return false }
            open.total += 1
            if let address { open.byAddress[address] = fromAddress + 1 }
            return true
        }
        guard admitted else {
            let answer = ByteBuffer(
                string: "HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n"
                    + "retry-after: 5\r\n\r\n")
            channel.writeAndFlush(answer).whenComplete { _ in channel.close(promise: nil) }
            return false
        }
        channel.closeFuture.whenComplete { _ in
            self.open.withLock { open in
                open.total -= 1
                guard let address else { return }
                let left = open.byAddress[address, default: 1] - 1
                open.byAddress[address] = left > 0 ? left : nil
            }
        }
        return true
    }
}
