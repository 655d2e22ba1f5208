import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file only its owner may read, as `ssh` keeps its keys: the one way SpotterKit writes and reads a secret
/// on disk (a Nostr key, a device's encryption keys). Written atomically, a temporary file opened 0600 then
/// renamed, so the secret is never readable by others, even briefly, and a crash leaves the old or the new;
/// read only when no one else may read it.
enum OwnerOnlyFile {
    enum Failure: Error, Equatable {
        /// Others than the owner may read it (`mode`): what it holds may be known.
        case readableByOthers(mode: UInt16)
        /// The operating system refused, in its words.
        case system(String)
    }

    /// The file's bytes, `nil` when there is none.
    static func read(_ path: String) throws(Failure) -> Data? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .system("cannot read \(path): \(errorText())")
        }
        let mode = UInt16(info.st_mode & 0o777)
        guard mode & 0o077 == 0 else { throw .readableByOthers(mode: mode) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .system("cannot read \(path): \(errorText())")
        }
        return data
    }

    /// Replaces the file's contents with `data`, making its folder (0700) when there is none. A folder that existed with
    /// a wider mode (the client's config folder) keeps it: others may list it, but the file stays 0600.
    static func replace(_ path: String, with data: some Collection<UInt8>) throws(Failure) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: folder) {
            guard
                (try? FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]))
                    != nil
            else { throw .system("cannot create \(folder)") }
            chmod(folder, 0o700)  // the umask may have narrowed what was asked; never widened it
        }
        let bytes = Array(data)
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw .system("cannot write \(temporary): \(errorText())") }
        fchmod(descriptor, 0o600)  // a leftover temporary file may have had another mode
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0 else {
            unlink(temporary)
            throw .system("cannot write \(temporary)")
        }
        guard rename(temporary, path) == 0 else {
            let text = errorText()
            unlink(temporary)
            throw .system("cannot replace \(path): \(text)")
        }
    }

    static func delete(_ path: String) throws(Failure) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .system("cannot delete \(path): \(errorText())") }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
