import ArgumentParser
import Hummingbird
import SpotterImaging
import SpotterServer

/// `spotter serve`: migrate, then serve until SIGINT or SIGTERM, finishing requests in flight.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the Spotter server.")

    @OptionGroup var options: ServerOptions

    func run() async throws {
        // Before the server's threads start allocating: see `MallocArenas` (photo processing's memory).
        let arenas = MallocArenas.limit()
        let configuration = try options.configuration()
        let logger = options.logger(configuration)
        if let arenas { logger.info("malloc arenas limited", metadata: ["arenas": "\(arenas)"]) }
        if let descriptors = DescriptorLimit.raiseToHard() {
            // Each connection and socket takes a descriptor; the limit is how many the server can hold at once.
            logger.info(
                "open descriptor limit", metadata: ["limit": "\(descriptors.now)", "was": "\(descriptors.was)"])
        }
        let storage = try StorageFactory.open(configuration, logger: logger)
        let app = try await buildApplication(configuration: configuration, storage: storage, logger: logger)
        // runService handles SIGTERM/SIGINT through swift-service-lifecycle: graceful shutdown.
        try await app.runService()
    }
}

/// `spotter migrate`: bring the database schema up to date and exit.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run database migrations and exit.")

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let configuration = try options.configuration()
        let logger = options.logger(configuration)
        let storage = try StorageFactory.open(configuration, logger: logger)
        try await StorageFactory.migrate(storage)
        logger.info("migrations applied", metadata: ["storage": "\(type(of: storage))"])
    }
}
