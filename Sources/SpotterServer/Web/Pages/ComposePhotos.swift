import Foundation
import SpotterCore
import SpotterModels

/// The photos of a compose form: those already uploaded (by the picker's script, or by an earlier try of the
/// form), each `media_id` with its `media_alt`, and the files of a form sent without script (`photo`, with one
/// `photo_alt`), which are uploaded here.
///
/// `prepare` leaves every photo uploaded, processed and described, or says why not; a refused form keeps the
/// photos that made it, so nothing is chosen twice.
struct ComposePhotos {
    struct Item {
        var id: MediaID
        var alt: String
    }

    private(set) var items: [Item]
    /// The alt text typed for the files of a form sent without script.
    let newAlt: String

    /// How long a form sent without script waits, in all, for its photos to be processed before it says "try
    /// again" (the photo stays chosen).
    static let processingWait: Duration = .seconds(20)

    init(form: WebForm) {
        let removed = Set(form.all("media_remove"))
        let alts = form.all("media_alt")
        items = form.all("media_id").enumerated().compactMap { index, text in
            guard let id = MediaID(text), !removed.contains(text) else { return nil }
            return Item(id: id, alt: alts[safe: index] ?? "")
        }
        newAlt = form["photo_alt"] ?? ""
    }

    var ids: [MediaID] { items.map(\.id) }

    /// Uploads the `photo` files, waits (bounded) until they are processed, and saves every photo's alt text;
    /// returns the problems, marked on `input`.
    mutating func prepare(
        files: [MultipartForm.Part], media: MediaService, owner: AccountRecord, input: String
    ) async -> [WorkoutForm.Problem] {
        var problems: [WorkoutForm.Problem] = []
        func refuse(_ detail: String) { problems.append(.init(input: input, label: "Photos", detail: detail)) }
        let chosen = files.filter { $0.name == "photo" && !$0.data.isEmpty }
        if items.count + chosen.count > MediaRules.maxPerPost {
            refuse("Choose up to \(MediaRules.maxPerPost) photos.")
            return problems
        }
        // All the files go to the processing queue first, so they are processed together while this waits.
        var uploaded: [(name: String, id: MediaID)] = []
        for file in chosen {
            let name = file.filename.map { "\($0): " } ?? ""
            do {
                let media = try await media.uploadCommitted(
                    file.data, contentType: file.contentType ?? "application/octet-stream", purpose: .post,
                    description: newAlt, focus: nil, owner: owner)
                uploaded.append((name, media.id))
            } catch SpotterError.validation(let fields) {
                fields.forEach { refuse(name + Self.sentence("The photo \($0.detail)")) }
            } catch {
                refuse(name + "The photo could not be uploaded; try again.")
            }
        }
        let deadline = ContinuousClock.now + Self.processingWait
        for (name, id) in uploaded {
            do {
                let left = max(.zero, deadline - ContinuousClock.now)
                let settled = try await media.settled(id, owner: owner, within: left)
                switch settled.status {
                case .ready: items.append(Item(id: settled.id, alt: newAlt))
                case .failed: refuse(name + (settled.reason ?? "The photo could not be read."))
                case .pending, .processing:
                    items.append(Item(id: settled.id, alt: newAlt))
                    refuse(name + "The photo is still being processed; post again in a moment.")
                }
            } catch {
                refuse(name + "The photo could not be uploaded; try again.")
            }
        }
        for item in items {
            do {
                _ = try await media.update(item.id, with: UpdateMediaRequest(description: item.alt), owner: owner)
            } catch {
                refuse("A photo is not one of your uploads; remove it and choose it again.")
            }
        }
        return problems
    }

    /// The kept photos as the picker shows them again; those gone since (or never the viewer's) are left out.
    func views(media: MediaService, owner: AccountRecord, prefix: String) async -> [PhotoPickerView.Item] {
        var views: [PhotoPickerView.Item] = []
        for item in items {
            guard let uploaded = try? await media.get(item.id, owner: owner) else { continue }
            views.append(
                PhotoPickerView.Item(
                    index: views.count, prefix: prefix, id: item.id.description, alt: item.alt,
                    previewURL: uploaded.previewURL, ready: uploaded.status == .ready))
        }
        return views
    }

    private static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? text : text + "."
    }
}

/// The photo picker of a compose form, as its template draws it.
struct PhotoPickerView {
    struct Item {
        let index: Int
        let prefix: String
        let id: String
        let alt: String
        let previewURL: String?
        let ready: Bool
    }

    /// `note` or `workout`: the picker's ids start with it (`note-photo`, `note-photo-0-alt`).
    let prefix: String
    let items: [Item]
    let hasItems: Bool
    let newAlt: String
    let message: String?
    let invalid: Bool
    let max = MediaRules.maxPerPost
    /// The largest photo the server takes, in bytes and in words: the picker refuses a larger one before
    /// sending it, and says so.
    let maxBytes: Int
    let sizeLimit: String

    init(prefix: String, limits: ImageLimits, items: [Item] = [], newAlt: String = "", message: String? = nil) {
        self.prefix = prefix
        maxBytes = limits.maxBytes
        sizeLimit = MediaRules.sizeLimitText(limits)
        self.items = items
        hasItems = !items.isEmpty
        self.newAlt = newAlt
        self.message = message
        invalid = message != nil
    }
}
