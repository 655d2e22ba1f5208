import Crypto
import Foundation

/// The key the local blob store signs its `/blobs/…` links with, kept beside the blobs in the data directory
/// (`blob-signing.key`, readable by the server's user only) and made on first start. The local store is one
/// node's disk, so one node's file is the right home; a new key only ends the links already given out.
enum BlobSigningKey {
    static func load(dataDirectory: String) throws -> SymmetricKey {
        let directory = URL(fileURLWithPath: dataDirectory)
        let file = directory.appendingPathComponent("blob-signing.key")
        if let data = try? Data(contentsOf: file), data.count == 32 { return SymmetricKey(data: data) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = SymmetricKey(size: .bits256)
        let data = key.withUnsafeBytes { Data($0) }
        // Written aside and renamed, 0600 from the start: a half-written or world-readable key never exists.
        let temporary = directory.appendingPathComponent(".blob-signing.key.\(UUID().uuidString)")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown) }
        if rename(temporary.path, file.path) != 0 { throw CocoaError(.fileWriteUnknown) }
        // Two processes starting at once: the rename that came last won; both use what is on disk.
        return SymmetricKey(data: try Data(contentsOf: file))
    }
}
