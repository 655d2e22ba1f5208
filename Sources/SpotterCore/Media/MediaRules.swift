import Foundation
import SpotterModels

/// What an upload may be, and which uploads a post or a profile may take: the rules the API, the web app and
/// the terminal client all meet here.
public enum MediaRules {
    /// The content types an upload may declare. The bytes are checked again when processed: a declared type
    /// proves nothing.
    public static let contentTypes: Set<String> = ["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif"]
    /// The same, as a person reads them.
    public static let typesInWords = "JPEG, PNG, HEIC and WebP"
    /// Photos a post may carry (as Mastodon and Instagram's carousel start with).
    public static let maxPerPost = 4
    /// Alt text, as long as Mastodon allows.
    public static let descriptionMaxLength = 1500
    /// Uploads a person may have waiting, not yet in a post or profile, over a day.
    public static let maxUnattachedPerDay = 40

    /// Problems with an upload's declared type and size, and its alt text and focal point.
    public static func problems(contentType: String, byteSize: Int, limits: ImageLimits) -> [FieldError] {
        var problems: [FieldError] = []
        if !contentTypes.contains(contentType.lowercased()) {
            problems.append(
                FieldError(
                    field: "content_type", detail: "is not a type Spotter takes: it takes \(typesInWords) photos"))
        }
        if byteSize < 1 {
            problems.append(FieldError(field: "byte_size", detail: "must be at least 1 byte"))
        } else if byteSize > limits.maxBytes {
            problems.append(FieldError(field: "byte_size", detail: sizeLimitDetail(byteSize, limits)))
        }
        return problems
    }

    /// "is larger than 16 MB", from the configured limit: what a person reads after "The photo".
    public static func sizeLimitDetail(_ bytes: Int, _ limits: ImageLimits) -> String {
        "is larger than \(sizeLimitText(limits))"
    }

    /// The largest photo taken, as a person reads it: "16 MB" (megabytes of 2²⁰ bytes, as a file manager
    /// counts them), "1.5 MB", "500 KB".
    public static func sizeLimitText(_ limits: ImageLimits) -> String {
        let megabytes = Double(limits.maxBytes) / Double(1 << 20)
        if megabytes >= 1 {
            let rounded = (megabytes * 10).rounded(.down) / 10
            return rounded == rounded.rounded() ? "\(Int(rounded)) MB" : "\(rounded) MB"
        }
        return "\(max(1, limits.maxBytes >> 10)) KB"
    }

    /// Alt text as kept (`nil` when empty), and problems with it and the focal point.
    public static func details(
        description: String?, focus: FocalPoint?, into problems: inout [FieldError]
    ) -> String? {
        var kept: String?
        if let description {
            if let problem = TextInput.problem(in: description, as: .lines) {
                problems.append(FieldError(field: "description", detail: problem))
            } else if description.textLength > descriptionMaxLength {
                problems.append(
                    FieldError(field: "description", detail: "must be at most \(descriptionMaxLength) characters"))
            }
            let text = TextInput.normalized(description, as: .lines).trimmingCharacters(in: .whitespacesAndNewlines)
            kept = text.isEmpty ? nil : text
        }
        if let focus, !(-1...1).contains(focus.x) || !(-1...1).contains(focus.y) || focus.x.isNaN || focus.y.isNaN {
            problems.append(FieldError(field: "focus", detail: "x and y must each be from -1 to 1"))
        }
        return kept
    }

    /// Why `record` cannot go into `post` (a new post when `nil`) by `author`, or `nil` when it can. Someone
    /// else's upload reads as no upload at all.
    public static func attachProblem(_ record: MediaRecord?, author: UserID, post: PostID?) -> String? {
        guard let record, record.ownerID == author, record.discardedAt == nil, record.purpose == .post else {
            return "is not one of your photos"
        }
        switch record.status {
        case .pending: return "has not been uploaded and completed yet"
        case .processing: return "is still being processed; try again when it is ready"
        case .failed: return "could not be used: \(record.reason ?? "processing failed")"
        case .ready: break
        }
        if let attached = record.postID, attached != post { return "is already in another post" }
        return nil
    }

    /// Why `record` cannot be `owner`'s avatar, or `nil` when it can.
    public static func avatarProblem(_ record: MediaRecord?, owner: UserID, for subject: AvatarSubject) -> String? {
        guard let record, record.ownerID == owner, record.discardedAt == nil, record.purpose == .avatar else {
            return "is not one of your avatar uploads"
        }
        // One upload is one avatar: moving it would leave the other profile or group pointing at a photo that
        // is no longer its own, and its fetch rule would change under it.
        if let other = record.avatarOf, other != subject { return "is already the avatar of something else" }
        switch record.status {
        case .ready: return nil
        case .failed: return "could not be used: \(record.reason ?? "processing failed")"
        case .pending, .processing: return "is not ready yet"
        }
    }

    /// A ready upload as a post carries it, before its URLs are filled in for a viewer.
    public static func attachment(_ record: MediaRecord) -> MediaAttachment {
        MediaAttachment(
            id: record.id, url: "", previewURL: "", width: record.width ?? 0, height: record.height ?? 0,
            blurhash: record.blurhash ?? "", description: record.description, focus: record.focus)
    }
}
