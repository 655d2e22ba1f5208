import ArgumentParser
import Crypto
import Foundation
import SpotterCore
import SpotterE2E
import SpotterModels
import SpotterSQLite

extension Bench {
    /// `spotter bench e2e`: what end-to-end encryption costs a device and the server (docs/encryption.md).
    struct E2E: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "e2e",
            abstract: "Measure sealing a photo against bare AES-GCM, and rotating an encrypted group's key.",
            discussion: """
                Photo: the same random bytes sealed with swift-crypto's AES.GCM in one call (the reference) and \
                with SpotterE2E's blob cipher (64 KiB chunks, each with its own nonce and tag), --runs times \
                each, alternating; prints the medians, the spread and the ratio of throughputs. Rotation: a \
                group of --devices devices (two per member) in a fresh SQLite database in a temporary folder; \
                each run is what an admin's device does (verify every member's device chain and the group's \
                chain, wrap a new epoch key to every live device, sign) and what the server does on receiving \
                it (`E2EGroupService.change`: verify again, store).
                """)

        @Option(help: "The photo's size in megabytes.") var megabytes = 12
        @Option(help: "Timed runs of each measurement.") var runs = 15
        @Option(help: "Devices in the rotated group (two per member).") var devices = 50

        func validate() throws {
            guard megabytes >= 1, runs >= 3, devices >= 2, devices % 2 == 0 else {
                throw ValidationError("--megabytes ≥ 1, --runs ≥ 3, --devices even and ≥ 2.")
            }
        }

        func run() async throws {
            try photo()
            try await rotation()
        }

        // MARK: Sealing a photo

        private func photo() throws {
            var bytes = Data(count: megabytes << 20)
            bytes.withUnsafeMutableBytes { buffer in
                for index in buffer.indices { buffer[index] = UInt8.random(in: 0...255) }
            }
            let key = SymmetricKey(size: .bits256)
            let content = ContentKey()
            // One untimed pass each: page faults and first-use costs belong to neither.
            _ = try AES.GCM.seal(bytes, using: key)
            _ = try BlobCipher.seal(bytes, with: content)
            var bare: [Double] = []
            var sealed: [Double] = []
            for _ in 0..<runs {
                bare.append(try Self.seconds { _ = try AES.GCM.seal(bytes, using: key).combined })
                sealed.append(try Self.seconds { _ = try BlobCipher.seal(bytes, with: content) })
            }
            let megabytesPerSecond = { (times: [Double]) in Double(megabytes) / Self.median(times) }
            print("| measurement | median | range | MB/s |")
            print("|---|---|---|---|")
            print(Self.row("AES.GCM.seal, \(megabytes) MB (reference)", bare, rate: megabytesPerSecond(bare)))
            print(Self.row("BlobCipher.seal, \(megabytes) MB", sealed, rate: megabytesPerSecond(sealed)))
            print(
                "\nSealing throughput: "
                    + String(format: "%.2f×", Self.median(bare) / Self.median(sealed))
                    + " the bare AES-GCM's (goal ≥ 0.7×)\n")
        }

        // MARK: Rotating a group's key

        private func rotation() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-bench-e2e-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let storage = try SQLiteStorage(path: folder.appendingPathComponent("bench.sqlite").path)
            try await storage.migrate()
            let clock = SystemClock()
            let group = try await BenchE2EGroup.make(storage: storage, clock: clock, members: devices / 2)
            let service = E2EGroupService(storage: storage, clock: clock)
            var client: [Double] = []
            var server: [Double] = []
            for epoch in 1...runs {
                var change: E2EGroupChangeRequest?
                client.append(try await Self.seconds { change = try await group.rotation(to: epoch, storage: storage) })
                guard let change else { continue }
                server.append(
                    try await Self.seconds { _ = try await service.change(group.id, change, by: group.owner.account) })
            }
            let total = zip(client, server).map { $0 + $1 }
            print("| rotating a \(devices)-device group (\(devices / 2) members) | median | range |")
            print("|---|---|---|")
            print(Self.row("admin's device: verify the chains, wrap a new key to every device", client))
            print(Self.row("server: verify and store (SQLite)", server))
            print(Self.row("together", total))
        }

        // MARK: Figures

        static func seconds(_ body: () throws -> Void) rethrows -> Double {
            let start = ContinuousClock.now
            try body()
            return (ContinuousClock.now - start).seconds
        }

        static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
            let start = ContinuousClock.now
            try await body()
            return (ContinuousClock.now - start).seconds
        }

        static func median(_ values: [Double]) -> Double { FeedBench.percentile(0.5, of: values.sorted()) }

        static func row(_ name: String, _ times: [Double], rate: Double? = nil) -> String {
            let sorted = times.sorted()
            let ms = { (value: Double) in String(format: "%.1f ms", value * 1000) }
            let range = "\(ms(sorted.first ?? 0))–\(ms(sorted.last ?? 0))"
            return "| \(name) | \(ms(median(times))) | \(range) |" + (rate.map { String(format: " %.0f |", $0) } ?? "")
        }
    }
}
