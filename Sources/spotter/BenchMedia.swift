import ArgumentParser
import Foundation
import SpotterCore
import SpotterImaging

extension Bench {
    /// `spotter bench media`: how fast, and in how much memory, photos become renditions (`scripts/bench-media`
    /// makes the photos and compares with vipsthumbnail and ImageMagick).
    struct PhotoProcessing: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "media",
            abstract: "Measure photos processed per second and the memory each takes (VipsImageProcessor).",
            discussion: """
                Reads every .jpg in --photos into memory, processes one small photo to start libvips, then \
                processes each photo --passes times, --concurrency at once, as uploads are. Prints one line: \
                photos, seconds, photos/s, and resident memory (kB) when idle (photos loaded, libvips started) \
                and at its peak while processing (VmHWM, reset after loading).
                """)

        @Option(help: "A folder of JPEGs.") var photos: String
        @Option(help: "Photos processed at once.") var concurrency = 1
        @Option(help: "Times each photo is processed.") var passes = 1

        func validate() throws {
            guard concurrency >= 1, passes >= 1 else { throw ValidationError("--concurrency and --passes ≥ 1.") }
        }

        func run() async throws {
            let folder = URL(fileURLWithPath: photos)
            let names = try FileManager.default.contentsOfDirectory(atPath: photos).filter { $0.hasSuffix(".jpg") }
            guard !names.isEmpty else { throw ValidationError("No .jpg files in \(photos).") }
            let files = try names.sorted().map { try Data(contentsOf: folder.appendingPathComponent($0)) }
            let work = (0..<passes).flatMap { _ in files }
            let limits = ImageLimits(maxBytes: 64 << 20)
            let processor = VipsImageProcessor(concurrency: concurrency)

            // Start libvips and its threads on a photo too small to count.
            _ = try await processor.process(try Self.startPhoto(), limits: limits)
            Memory.resetPeak()
            let idle = Memory.kilobytes("VmRSS")

            let clock = ContinuousClock()
            let start = clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = 0
                for _ in 0..<min(concurrency, work.count) {
                    let photo = work[next]
                    next += 1
                    group.addTask { _ = try await processor.process(photo, limits: limits) }
                }
                while try await group.next() != nil, next < work.count {
                    let photo = work[next]
                    next += 1
                    group.addTask { _ = try await processor.process(photo, limits: limits) }
                }
                try await group.waitForAll()
            }
            let seconds = (clock.now - start).seconds
            let peak = Memory.kilobytes("VmHWM")
            print(
                "photos=\(work.count) concurrency=\(concurrency) seconds="
                    + String(format: "%.3f rate=%.3f", seconds, Double(work.count) / seconds)
                    + " idle_kb=\(idle) peak_kb=\(peak)")
        }

        /// A 2×2 white PNG, written out here so the bench needs no file for it.
        static func startPhoto() throws -> Data {
            let base64 =
                "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAADklEQVR4nGP4DwYMEAoAU7oL9ZisIGcAAAAASUVORK5CYII="
            guard let data = Data(base64Encoded: base64) else { throw ValidationError("bad start photo") }
            return data
        }
    }
}

/// This process's resident memory, from /proc/self/status (Linux).
enum Memory {
    /// A field of /proc/self/status in kB ("VmRSS" now, "VmHWM" the peak), or 0 where there is none.
    static func kilobytes(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) } ?? 0
    }

    /// Starts VmHWM again from the current RSS (`echo 5 > /proc/self/clear_refs`, Linux 4.0 and later).
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }
}
