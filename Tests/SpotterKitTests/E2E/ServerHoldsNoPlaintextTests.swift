import Foundation
import GRDB
import SpotterCore
import SpotterE2E
import SpotterModels
import SpotterTestSupport
import Testing

@testable import SpotterKit

/// What the server holds of an encrypted group, read as an operator (or a thief) would: the SQLite file's
/// bytes, a `pg_dump` of the PostgreSQL schema, and every file of the blob store. Devices post a photo and a
/// caption for a child and a comment through SpotterKit; none of it may be found, while the same search finds
/// a plain group's post (so the search can fail). The child's name is the one exception, in its own profile
/// and the idempotency record of the request that made it (child profiles are server records:
/// docs/encryption.md, "What it protects").
@Suite("What the server holds of an encrypted group")
struct ServerHoldsNoPlaintextTests {
    @Test(
        "no caption, comment, photo or child's name beside its profile, in the database or the blob store",
        arguments: StorageBackend.available)
    func noPlaintext(backend: StorageBackend) async throws {
        let port = try await LiveServer.freePort()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-kit-plain-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let clock = ManualClock(Date())
        let mark = UUID().uuidString.prefix(8)
        let caption = "Caption \(mark): her first lake swim"
        let remark = "Remark \(mark): so proud of her"
        let control = "Control \(mark): a plain club post"
        let child = "Zephyrine\(mark)"
        // A photo's bytes that appear nowhere else: random, and a window of them to search for
        let photo = Data((0..<200_000).map { _ in UInt8.random(in: 0...255) })
        let window = photo[100_000..<100_064]
        try await backend.withIsolatedStorage { storage, place in
            let server = try await LiveServer.start(storage: storage, port: port, clock: clock) {
                $0.dataDirectory = data.path
            }
            defer { server.cancel() }
            let url = URL(string: "http://127.0.0.1:\(port)")!
            // Devices post a photo and a caption for a child, and a comment, to an encrypted family group
            let (ana, ben, family) = try await EncryptedGroupsLiveTests.family(url, clock)
            let kid = try await ben.client.createChild(CreateChildProfileRequest(name: child, birthYear: 2019))
            let post = try await ben.groups.post(
                text: caption, photos: [EncryptedPhoto(data: photo)], childIDs: [kid.id], to: family.id)
            _ = try await ana.groups.comment(text: remark, on: post)
            #expect(try await ana.groups.open(try await ana.client.post(post.id)).children.map(\.name) == [child])
            // and someone posts in the clear to a plain club, the search's control
            let club = try await ana.client.createGroup(CreateGroupRequest(name: "Club", access: .open))
            _ = try await ana.client.createPost(CreatePostRequest(kind: .note, text: control, groupID: club.id))

            // The blob store: encrypted photos only
            let blobs = try Self.files(under: data.appendingPathComponent("media"))
            #expect(!blobs.isEmpty)
            for file in blobs {
                let bytes = try Data(contentsOf: file)
                for needle in [Data(caption.utf8), Data(remark.utf8), Data(child.utf8), Data(window)] {
                    #expect(bytes.firstRange(of: needle) == nil, "\(file.lastPathComponent) holds a plaintext")
                }
            }
            // The database, as its files or its dump
            switch place {
            case .sqliteFile(let path):
                var bytes = Data()
                for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                    bytes.append(try Data(contentsOf: URL(fileURLWithPath: path + suffix)))
                }
                #expect(bytes.firstRange(of: Data(control.utf8)) != nil, "the search finds a plain post")
                for needle in [caption, remark] { #expect(bytes.firstRange(of: Data(needle.utf8)) == nil, "\(needle)") }
                #expect(bytes.firstRange(of: Data(window)) == nil)
                // (and in the idempotency record of the request that made it, whose answer is replayed)
                let holding = try Self.sqliteColumnsHolding(child, in: path)
                #expect(holding == ["children.name", "idempotency_keys.body"], "the child's name is in \(holding)")
            case .postgresSchema(let url, let schema):
                let dump = try Self.pgDump(url: url, schema: schema)
                #expect(dump.contains(control), "the search finds a plain post")
                for needle in [caption, remark] { #expect(!dump.contains(needle), "\(needle)") }
                // The child's name: only in the rows of `children`
                // (the idempotency record of the request that made it keeps its answer as bytes, not text here)
                let holding = Set(Self.dumpSections(dump).filter { $0.rows.contains(child) }.map(\.table))
                #expect(
                    holding.contains("\(schema).children")
                        && holding.isSubset(of: ["\(schema).children", "\(schema).idempotency_keys"]), "\(holding)")
            }
        }
    }

    static func files(under folder: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }

    /// Every `table.column` of the SQLite file whose text holds `needle`.
    static func sqliteColumnsHolding(_ needle: String, in path: String) throws -> [String] {
        let database = try DatabaseQueue(path: path)
        return try database.read { db in
            var found: [String] = []
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                for column in try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]) {
                    let name: String = column["name"]
                    let count =
                        try Int.fetchOne(
                            db, sql: "SELECT count(*) FROM \"\(table)\" WHERE instr(CAST(\"\(name)\" AS TEXT), ?) > 0",
                            arguments: [needle]) ?? 0
                    if count > 0 { found.append("\(table).\(name)") }
                }
            }
            return found.sorted()
        }
    }

    /// `pg_dump` of the schema's rows (PostgreSQL's own client, from the server's bin folder).
    static func pgDump(url: String, schema: String) throws -> String {
        let bins = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let dump = try #require(
            bins.sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin/pg_dump" }
                .first { FileManager.default.isExecutableFile(atPath: $0) })
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dump)
        process.arguments = ["--data-only", "--schema=\(schema)", "--dbname=\(url)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "pg_dump failed")
        return text
    }

    /// A dump's `COPY <table> … FROM stdin;` sections, each with its rows' text.
    static func dumpSections(_ dump: String) -> [(table: String, rows: String)] {
        var sections: [(table: String, rows: String)] = []
        var current: (table: String, rows: [Substring])?
        for line in dump.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("COPY ") {
                current = (String(line.dropFirst(5).prefix { $0 != " " }), [])
            } else if line == "\\.", let section = current {
                sections.append((section.table, section.rows.joined(separator: "\n")))
                current = nil
            } else if current != nil {
                current?.rows.append(line)
            }
        }
        return sections
    }
}
