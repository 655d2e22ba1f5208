import Foundation
import NIOPosix
import SpotterCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One blob being written by `LocalBlobStore`: a temporary file beside its final place, renamed over it once
/// whole and on disk (`commit`), or removed (`abandon`). The temporary name holds `~`, which no `BlobKey`
/// does, so it can never be taken for a blob. Used by one task at a time; its file work runs on NIO's thread
/// pool, never on the cooperative threads that serve requests.
final class BlobFile: @unchecked Sendable {
    let temporaryPath: String
    let finalPath: String
    private let descriptor: Int32
    /// Closed once, whatever fails: a second `close` of the same number could close another file or socket
    /// opened since under it.
    private var isOpen = true
    /// Bytes of the blob itself written so far (the header line not counted).
    private(set) var size = 0

    private init(descriptor: Int32, temporaryPath: String, finalPath: String) {
        self.descriptor = descriptor
        self.temporaryPath = temporaryPath
        self.finalPath = finalPath
    }

    static func create(for key: BlobKey, in root: URL, contentType: String) async throws -> BlobFile {
        try check(contentType: contentType)
        let finalPath = root.appendingPathComponent(key.rawValue).path
        let folder = (finalPath as NSString).deletingLastPathComponent
        let temporaryPath = "\(finalPath)~\(UUID().uuidString).tmp"
        return try await NIOThreadPool.singleton.runIfActive {
            var descriptor: Int32 = -1
            // Again when a delete of the folder's last blob removed the folder between making it and opening
            // (once the temporary file is in it, the folder is not empty and stays).
            for _ in 0..<8 where descriptor < 0 {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    guard Self.hasFileAmongFolders(of: finalPath, below: root.path) else {
                        throw BlobStoreError.unavailable("could not make a blob's folder: \(error)")
                    }
                    throw BlobStoreError.refused(status: 409, detail: "another blob's name is a prefix of this key")
                }
                descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            }
            guard descriptor >= 0 else { throw BlobStoreError.unavailable("could not create a blob (errno \(errno))") }
            let file = BlobFile(descriptor: descriptor, temporaryPath: temporaryPath, finalPath: finalPath)
            do {
                try file.writeAll(Array("\(contentType)\n".utf8))
            } catch {
                file.abandonNow()
                throw error
            }
            return file
        }
    }

    /// Whether one of the folders `path` would be in is a file (a blob) rather than a folder.
    private static func hasFileAmongFolders(of path: String, below root: String) -> Bool {
        var folder = (path as NSString).deletingLastPathComponent
        while folder.count > root.count {
            var attributes = stat()
            if stat(folder, &attributes) == 0, (attributes.st_mode & S_IFMT) == S_IFREG { return true }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return false
    }

    func append(_ bytes: some Sequence<UInt8> & Sendable) async throws {
        let bytes = Array(bytes)
        try await NIOThreadPool.singleton.runIfActive { try self.writeAll(bytes) }
        size += bytes.count
    }

    /// Flushes to disk and puts the blob in place, replacing what was there.
    func commit() async throws {
        try await NIOThreadPool.singleton.runIfActive {
            guard fsync(self.descriptor) == 0 else {
                let code = errno
                self.abandonNow()
                throw BlobStoreError.unavailable("could not flush a blob (errno \(code))")
            }
            self.closeOnce()
            guard rename(self.temporaryPath, self.finalPath) == 0 else {
                let code = errno
                unlink(self.temporaryPath)
                if code == EISDIR || code == ENOTEMPTY {
                    throw BlobStoreError.refused(status: 409, detail: "this key is a prefix of other blobs' keys")
                }
                throw BlobStoreError.unavailable("could not put a blob in place (errno \(code))")
            }
            // The rename itself is durable once its folder is flushed.
            let folder = open((self.finalPath as NSString).deletingLastPathComponent, O_RDONLY | O_CLOEXEC)
            if folder >= 0 {
                fsync(folder)
                close(folder)
            }
        }
    }

    /// Removes the partial file: the blob at the key, if any, stays as it was.
    func abandon() async {
        _ = try? await NIOThreadPool.singleton.runIfActive { self.abandonNow() }
    }

    private func abandonNow() {
        closeOnce()
        unlink(temporaryPath)
    }

    private func closeOnce() {
        guard isOpen else { return }
        isOpen = false
        close(descriptor)
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw BlobStoreError.unavailable("could not write a blob (errno \(errno))")
            }
            offset += written
        }
    }

    /// A content type fits on the header line: 1–255 visible ASCII characters or spaces.
    static func check(contentType: String) throws {
        guard (1...255).contains(contentType.utf8.count), contentType.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else { throw BlobStoreError.refused(status: 400, detail: "a content type is 1–255 visible ASCII characters") }
    }

    /// The blob file at `path`: its content type and size, and its bytes unless `headerOnly`; `nil` when there
    /// is none. Blocking: call it on the thread pool.
    static func read(_ path: String, headerOnly: Bool) throws -> (contentType: String, size: Int, data: Data)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var attributes = stat()
        guard fstat(handle.fileDescriptor, &attributes) == 0, (attributes.st_mode & S_IFMT) == S_IFREG else {
            return nil
        }
        let head = try handle.read(upToCount: 257) ?? Data()
        guard let newline = head.firstIndex(of: 0x0A) else {
            throw BlobStoreError.unavailable("a blob file has no header line")
        }
        let contentType = String(decoding: head[..<newline], as: UTF8.self)
        let headerSize = newline - head.startIndex + 1
        let size = Int(attributes.st_size) - headerSize
        guard !headerOnly else { return (contentType, size, Data()) }
        try handle.seek(toOffset: UInt64(headerSize))
        let data = try handle.readToEnd() ?? Data()
        return (contentType, data.count, data)
    }
}
