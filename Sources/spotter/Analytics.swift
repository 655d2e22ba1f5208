import ArgumentParser
import SpotterCore

/// `spotter analytics`: daily active users and the most frequent events, from what apps sent to
/// `POST /api/v1/analytics/events`.
struct AnalyticsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics", abstract: "Print daily active users and top events.")

    @OptionGroup var options: ServerOptions
    @Option(help: "Days to look back.") var days = 7
    @Option(help: "How many events to list.") var top = 10

    func validate() throws {
        guard days >= 1, top >= 1 else { throw ValidationError("--days and --top must be at least 1.") }
    }

    func run() async throws {
        let (days, top) = (days, top)
        try await withSeedableStorage(options) { storage, _ in
            let report = try await AnalyticsService(storage: storage, clock: SystemClock()).report(days: days, top: top)
            print("Daily active users (UTC), last \(days) days:")
            if report.dailyActiveUsers.isEmpty { print("  none") }
            for day in report.dailyActiveUsers { print("  \(day.day)  \(day.count)") }
            print("Top events:")
            if report.topEvents.isEmpty { print("  none") }
            for event in report.topEvents { print("  \(event.count)  \(event.name)") }
        }
    }
}
