import Foundation
import SpotterModels
import SpotterServer
import SpotterTestSupport
import Testing

/// The small-upload path, fed by curl's multipart encoder (`-F`), an implementation independent of ours.
@Suite("Direct photo uploads over multipart")
struct DirectUploadTests {
    @Test("curl -F uploads a photo with alt text and focus; a file of no known type is sniffed; text is refused")
    func curlUploads() async throws {
        try await TestApp.runLive(.sqlite, configure: BlobBackend.local.configure) { api, port in
            let ana = try await api.user("ana")
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-direct-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let photo = folder.appendingPathComponent("run photo.jpg")
            try TestImages.encode(TestImages.cornered(width: 300, height: 200), as: ".jpg").write(to: photo)
            let unnamed = folder.appendingPathComponent("upload.bin")
            try TestImages.encode(TestImages.cornered(width: 64, height: 64), as: ".png").write(to: unnamed)
            let notes = folder.appendingPathComponent("notes.txt")
            try Data("splits: 4:55, 4:52, 4:50".utf8).write(to: notes)

            func curl(_ fields: [String]) throws -> (status: Int, body: Data) {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments =
                    ["curl", "-s", "-o", "-", "-w", "\n%{http_code}", "-H", "Authorization: Bearer \(ana)"]
                    + fields.flatMap { ["-F", $0] } + ["http://127.0.0.1:\(port)/api/v1/media/direct"]
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let output = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                let text = String(decoding: output, as: UTF8.self)
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                return (Int(lines.last ?? "") ?? 0, Data(lines.dropLast().joined(separator: "\n").utf8))
            }

            // A JPEG with alt text and a focal point
            let sent = try curl([
                "file=@\(photo.path);type=image/jpeg", "description=Mile 3, still smiling", "focus=0.25,-0.5",
            ])
            #expect(sent.status == 202)
            let accepted = try WireJSON.decoder().decode(Media.self, from: sent.body)
            let media = try await api.settled(ana, accepted.id)
            #expect(media.status == .ready && media.width == 300 && media.height == 200)
            #expect(media.description == "Mile 3, still smiling")
            #expect(media.focus == FocalPoint(x: 0.25, y: -0.5))

            // A part curl types application/octet-stream is taken for what its bytes are
            let sniffed = try curl(["file=@\(unnamed.path)", "purpose=avatar"])
            #expect(sniffed.status == 202)
            let avatar = try await api.settled(ana, try WireJSON.decoder().decode(Media.self, from: sniffed.body).id)
            #expect(avatar.status == .ready && avatar.purpose == .avatar)

            // Text is refused before anything is stored, with the field named
            let refused = try curl(["file=@\(notes.path);type=text/plain"])
            #expect(refused.status == 422)
            let problem = try JSONDecoder().decode(Problem.self, from: refused.body)
            #expect(problem.errors?.map(\.field) == ["file"])
            // And a form without the file names it
            let empty = try curl(["description=no photo"])
            #expect(empty.status == 422)
            #expect(try JSONDecoder().decode(Problem.self, from: empty.body).errors?.map(\.field) == ["file"])
        }
    }
}
