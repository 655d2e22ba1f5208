import Foundation
import SpotterCore
import SpotterModels

/// A post as the templates show it: the text and numbers already formatted, so templates stay logic-free.
struct PostView {
    let id: String
    let authorUsername: String
    let authorName: String
    let authorInitials: String
    let text: String
    let hasText: Bool
    /// The text with its `#tags` and `@mentions` as links (`TextEntities.segments`).
    let textPieces: [TextPiece]
    let createdAt: String
    let createdLabel: String
    let kudosCount: Int
    let kudosed: Bool
    let commentsCount: Int
    let workout: WorkoutView?
    let records: [String]
    let hasRecords: Bool
    let manyRecords: Bool
    let visibility: String
    let isPublic: Bool
    /// "Only me" or "Followers"; `nil` for public posts, which are the usual case and need no label.
    let visibilityLabel: String?
    /// The viewer wrote it: they may edit and delete it, and kudos are not theirs to give (the count shows alone).
    let isOwn: Bool
    let edited: Bool
    let editedAt: String?
    let commentsLabel: String
    let kudosLabel: String
    /// The feed cursor just after this post, for "N new posts" and resuming.
    let cursor: String

    /// `viewer` is who reads the page (`nil` signed out): their own posts get edit and delete, not kudos.
    init(_ post: Post, now: Date, viewer: UserID? = nil) {
        id = post.id.description
        authorUsername = post.author.username
        authorName = post.author.displayName
        authorInitials = ViewerView.initials(of: post.author.displayName)
        text = post.text
        hasText = !post.text.isEmpty
        textPieces = TextPiece.pieces(of: post.text)
        createdAt = WebFormat.iso(post.createdAt)
        createdLabel = WebFormat.relative(post.createdAt, now: now)
        kudosCount = post.kudosCount
        kudosed = post.kudosedByMe
        commentsCount = post.commentsCount
        workout = post.workout.map(WorkoutView.init)
        records = post.personalRecords.map { "\($0.exercise) \(WebFormat.record($0))" }
        hasRecords = !records.isEmpty
        manyRecords = records.count > 1
        visibility = post.visibility.rawValue
        isPublic = post.visibility == .public
        visibilityLabel =
            switch post.visibility {
            case .public: nil
            case .followers: "Followers"
            case .private: "Only me"
            }
        isOwn = viewer == post.author.id
        edited = post.editedAt != nil
        editedAt = post.editedAt.map(WebFormat.iso)
        commentsLabel = WebFormat.count(post.commentsCount, "comment")
        kudosLabel = WebFormat.count(post.kudosCount, "kudos", plural: "kudos")
        cursor = post.id.description
    }
}

/// A run of text as a page shows it: plain, or a link to a tag's feed or a person.
struct TextPiece {
    let text: String
    let href: String?

    static func pieces(of text: String) -> [TextPiece] {
        TextEntities.segments(in: text).map { segment in
            switch segment {
            case .text(let text): TextPiece(text: text, href: nil)
            case .hashtag(let written, let tag): TextPiece(text: written, href: WebFormat.tagHref(tag))
            case .mention(let written, let username): TextPiece(text: written, href: "/u/\(username)")
            }
        }
    }
}

/// A workout's summary and its exercises, one line per set group.
struct WorkoutView {
    struct ExerciseLine {
        let name: String
        let detail: String
    }

    let title: String
    let type: String
    let exercises: [ExerciseLine]
    // Optional, not empty: Mustache treats an empty string as a value and would show the section.
    let volume: String?
    let duration: String?

    init(_ workout: WorkoutRecord) {
        title = workout.title
        type = workout.type.rawValue
        exercises = workout.exercises.map { entry in
            if let cardio = entry.cardio {
                let distance = cardio.distanceM.map { String(format: "%.1f km · ", $0 / 1000) } ?? ""
                return ExerciseLine(name: entry.name, detail: distance + WebFormat.duration(cardio.durationS))
            }
            let sets = (entry.sets ?? []).map { "\($0.reps) × \(WebFormat.kilograms($0.weightKg))" }
            return ExerciseLine(name: entry.name, detail: sets.joined(separator: ", "))
        }
        let total = workout.exercises.flatMap { $0.sets ?? [] }.reduce(0) { $0 + $1.weightKg * Double($1.reps) }
        volume = total > 0 ? "\(WebFormat.kilograms(total)) lifted" : nil
        let minutes = WebFormat.duration(Int(workout.endTime.timeIntervalSince(workout.startTime)))
        duration = minutes.isEmpty ? nil : minutes
    }
}

/// Number and date formats shared by the pages; fixed (UTC, metric) until profiles carry a display choice here.
enum WebFormat {
    static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func relative(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        case ..<(7 * 86_400): return "\(seconds / 86_400) d ago"
        default:
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "d MMM yyyy"
            return formatter.string(from: date)
        }
    }

    /// "1 comment", "2 comments".
    static func count(_ number: Int, _ singular: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }

    /// A tag's feed page.
    static func tagHref(_ tag: String) -> String {
        "/tags/" + (tag.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? tag)
    }

    static func kilograms(_ value: Double) -> String {
        if value >= 10_000 { return String(format: "%.1f t", value / 1000) }
        return value.rounded() == value ? "\(Int(value)) kg" : String(format: "%.1f kg", value)
    }

    static func duration(_ seconds: Int) -> String {
        guard seconds > 0 else { return "" }
        let minutes = seconds / 60
        guard minutes >= 60 else { return "\(max(minutes, 1)) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    static func record(_ record: PersonalRecord) -> String {
        switch record.kind {
        case .heaviestWeight: return "heaviest \(kilograms(record.value))"
        case .mostReps: return "\(Int(record.value)) reps at \(kilograms(record.weightKg ?? 0))"
        case .estimatedOneRepMax: return "est. 1RM \(kilograms(record.value))"
        }
    }
}
