import ArgumentParser

@main
struct Spotter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Spotter: the open social layer for fitness communities.",
        subcommands: [
            Serve.self, Migrate.self, Admin.self, Seed.self, Bench.self, AnalyticsCommand.self,
            Login.self, Feed.self, PostNote.self, LogWorkout.self, EditPost.self, Kudos.self, Tail.self, Outbox.self,
            Avatar.self, NostrCommand.self, Groups.self, E2ECommand.self,
        ],
        defaultSubcommand: Serve.self)
}
