import Foundation
import SpotterCore
import SpotterModels

/// A post as the templates show it: the text and numbers already formatted, so templates stay logic-free.
struct PostView {
    let id: String
    let authorUsername: String
    let authorName: String
    let authorInitials: String
    /// The author's avatar; without one, the initials show.
    let authorAvatarURL: String?
    let photos: [PhotoView]
    let hasPhotos: Bool
    /// One photo spans the card; two to four share a grid.
    let photoLayout: String
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
    /// "Only me" or "Followers"; `nil` for public posts, which are the usual case and need no label, and for
    /// group posts, which show their group as a link instead.
    let visibilityLabel: String?
    /// The group a group post went to, linking to its page.
    let group: GroupLink?
    /// "For Lou and Theo": the children a post in a private group names, which only its members see.
    let forChildren: String?
    /// The viewer wrote it: kudos are not theirs to give (the count shows alone), and a sealed post is theirs to
    /// delete with a signed tombstone from their device.
    let isOwn: Bool
    /// Edit and Delete, offered to exactly those `PostRules` lets edit and delete (the author; a site admin
    /// deletes too). A sealed post is not edited, and its author deletes it from their device instead.
    let mayEdit: Bool
    let mayDelete: Bool
    let hasOwnActions: Bool
    let edited: Bool
    let editedAt: String?
    let commentsLabel: String
    let kudosLabel: String
    /// The feed cursor just after this post, for "N new posts" and resuming.
    let cursor: String
    /// A post of an encrypted group: a placeholder the page's script opens in place (`e2e-posts.js`).
    let sealed: SealedView?

    /// `viewer` is who reads the page (`nil` signed out): their own posts get edit and delete, not kudos, and
    /// weights, distances and older dates read in their units and time zone (`WebDisplay`).
    init(_ post: Post, now: Date, viewer: AccountRecord?) {
        let display = WebDisplay(viewer: viewer)
        let units = display.units
        let timeZone = display.timeZone
        id = post.id.description
        authorUsername = post.author.username
        authorName = post.author.displayName
        authorInitials = ViewerView.initials(of: post.author.displayName)
        authorAvatarURL = post.author.avatarURL
        photos = PhotoView.views(post.media)
        hasPhotos = !photos.isEmpty
        photoLayout = photos.count == 1 ? "photos-one" : "photos-grid photos-\(photos.count)"
        text = post.text
        hasText = !post.text.isEmpty
        textPieces = TextPiece.pieces(of: post.text)
        createdAt = WebFormat.iso(post.createdAt)
        createdLabel = WebFormat.relative(post.createdAt, now: now, timeZone: timeZone)
        kudosCount = post.kudosCount
        kudosed = post.kudosedByMe
        commentsCount = post.commentsCount
        workout = post.workout.map { WorkoutView($0, units: units) }
        records = post.personalRecords.map { "\($0.exercise) \(WebFormat.record($0, units: units))" }
        hasRecords = !records.isEmpty
        manyRecords = records.count > 1
        visibility = post.visibility.rawValue
        isPublic = post.visibility == .public
        visibilityLabel =
            switch post.visibility {
            case .public: nil
            case .followers: "Followers"
            case .private: "Only me"
            case .group: post.group == nil ? "Group" : nil
            }
        group = post.group.map(GroupLink.init)
        sealed = SealedView(post, units: units)
        // A sealed post names its children inside the sealed body; the script shows them once it opens.
        forChildren = post.children.isEmpty || sealed != nil ? nil : "For " + WebFormat.list(post.children.map(\.name))
        isOwn = viewer?.id == post.author.id
        mayEdit =
            sealed == nil && viewer.map { PostRules.mayEditPost(by: $0.id, author: post.author.id) } == true
        mayDelete =
            !(sealed != nil && isOwn)
            && viewer.map { PostRules.mayDeletePost(by: $0.id, role: $0.role, author: post.author.id) } == true
        hasOwnActions = mayEdit || mayDelete
        edited = post.editedAt != nil
        editedAt = post.editedAt.map(WebFormat.iso)
        commentsLabel = WebFormat.count(post.commentsCount, "comment")
        kudosLabel = WebFormat.count(post.kudosCount, "kudos", plural: "kudos")
        cursor = post.id.description
    }
}

/// What a sealed post's placeholder carries for the script: the sealed content as sent, and the ids its keys
/// are bound to.
struct SealedView {
    let json: String
    let groupID: String
    let childIDs: String
    /// The viewer's weights (`kg`, `lb`), in which an opened workout reads.
    let units: String

    init?(_ post: Post, units: Units) {
        guard let sealed = post.sealed, let group = post.group else { return nil }
        json = Self.json(sealed)
        groupID = group.id.description
        childIDs = post.children.map(\.id.description).joined(separator: " ")
        self.units = units.rawValue
    }

    static func json(_ sealed: SealedContent) -> String {
        String(decoding: (try? JSONEncoder().encode(sealed)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// A group's name linking to its page, as a post card marks a group post.
struct GroupLink {
    let name: String
    let href: String

    init(_ group: GroupSummary) {
        name = group.name
        href = "/groups/\(group.id)"
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

/// A workout's summary and its exercises, one line per set group, in the viewer's units.
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

    init(_ workout: WorkoutRecord, units: Units = .kg) {
        title = workout.title
        type = workout.type.label
        exercises = workout.exercises.map { entry in
            if let cardio = entry.cardio {
                return ExerciseLine(name: entry.name, detail: WebFormat.cardio(cardio, units: units))
            }
            let sets = WebFormat.setRuns(entry.sets ?? []).map { run in
                let set = "\(run.set.reps) × \(WebFormat.weight(run.set.weightKg, units: units))"
                return run.count == 1 ? set : "\(run.count) sets of \(set)"
            }
            return ExerciseLine(name: entry.name, detail: sets.joined(separator: ", "))
        }
        let total = workout.exercises.flatMap { $0.sets ?? [] }.reduce(0) { $0 + $1.weightKg * Double($1.reps) }
        volume = total > 0 ? "\(WebFormat.weight(total, units: units)) lifted" : nil
        let minutes = workout.duration.map { WebFormat.duration(Int($0)) } ?? ""
        duration = minutes.isEmpty ? nil : minutes
    }
}

/// Number and date formats shared by the pages, in the viewer's units and time zone (`WebDisplay`).
enum WebFormat {
    /// "Lou", "Lou and Theo", "Lou, Theo and Mia".
    static func list(_ names: [String]) -> String {
        guard let last = names.last else { return "" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " and " + last
    }

    static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// "just now", "5 min ago", "3 h ago", "2 d ago"; older, the date in `timeZone`.
    static func relative(_ date: Date, now: Date, timeZone: TimeZone = .gmt) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        case ..<(7 * 86_400): return "\(seconds / 86_400) d ago"
        default:
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = timeZone
            formatter.dateFormat = "d MMM yyyy"
            return formatter.string(from: date)
        }
    }

    /// Consecutive sets of the same reps and weight, counted: three sets of 5 × 100 kg read as one, the way
    /// lifters write "3×5".
    static func setRuns(_ sets: [WorkoutSet]) -> [(set: WorkoutSet, count: Int)] {
        var runs: [(set: WorkoutSet, count: Int)] = []
        for set in sets {
            if let last = runs.last, last.set.reps == set.reps, last.set.weightKg == set.weightKg {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((set, 1))
            }
        }
        return runs
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
        weight(value, units: .kg)
    }

    /// A stored weight (kg) in the viewer's units: "102.5 kg", "2.4 t", "225 lb".
    static func weight(_ kilograms: Double, units: Units) -> String {
        if units == .kg, kilograms >= 10_000 { return String(format: "%.1f t", kilograms / 1000) }
        let value = (units.value(ofKilograms: kilograms) * 10).rounded() / 10
        return value.rounded() == value
            ? "\(Int(value)) \(units.rawValue)" : String(format: "%.1f \(units.rawValue)", value)
    }

    /// "5.2 km · 30:45 · 5:55 /km": what there is of distance, time and pace, in the viewer's distance unit.
    static func cardio(_ cardio: CardioMetrics, units: Units) -> String {
        let unit = units.distance
        let parts = [
            cardio.distanceM.map { CardioText.distance($0, unit: unit) },
            cardio.durationS > 0 ? CardioText.clock(cardio.durationS) : nil,
            CardioText.pace(cardio, unit: unit),
        ]
        return parts.compactMap { $0 }.joined(separator: " · ")
    }

    static func duration(_ seconds: Int) -> String {
        guard seconds > 0 else { return "" }
        let minutes = seconds / 60
        guard minutes >= 60 else { return "\(max(minutes, 1)) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    static func record(_ record: PersonalRecord, units: Units = .kg) -> String {
        switch record.kind {
        case .heaviestWeight: return "heaviest \(weight(record.value, units: units))"
        case .mostReps: return "\(Int(record.value)) reps at \(weight(record.weightKg ?? 0, units: units))"
        case .estimatedOneRepMax: return "est. 1RM \(weight(record.value, units: units))"
        }
    }

    /// The "Who can see it" choices; with none given, the account's default (public) is chosen.
    static func visibilities(selected: Visibility?) -> [WorkoutBuilderView.Choice] {
        let labels: [(Visibility, String)] = [(.public, "Everyone"), (.followers, "Followers"), (.private, "Only me")]
        return labels.map { WorkoutBuilderView.Choice(id: $0.0.rawValue, name: $0.1, selected: $0.0 == selected) }
    }

    /// The person's groups as audiences of the same select (`group:<id>`), the one whose id is `selected` chosen.
    static func groupAudiences(_ groups: [GroupSummary], selected: String?) -> [WorkoutBuilderView.Choice] {
        groups.map {
            WorkoutBuilderView.Choice(id: "group:\($0.id)", name: $0.name, selected: $0.id.description == selected)
        }
    }
}
