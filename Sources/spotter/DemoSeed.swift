import Foundation
import Logging
import SpotterCore
import SpotterModels
import SpotterServer

/// `spotter seed --demo`: a small, lively community for a newcomer's first minute — 30 people with names and
/// bios who follow each other, eight weeks of lifting (main lifts climbing), runs, rides, swims and rows with
/// distance and time, notes between them, kudos, and comments the authors answer; and three groups
/// (`DemoGroups`): an open running club, a strength team one asks to join, and a private family circle.
///
/// Everyone has an avatar and every eighth workout a photo, drawn in code and processed like an upload
/// (`DemoPhotos`).
///
/// Posts, kudos, comments and follows go through the core services (with a clock moved back in time), so
/// personal records, counters and feeds are exactly what the server would have made. Demo accounts have no
/// password, so nobody can sign in as them; newcomers sign up and follow them.
struct DemoSeeder: Sendable {
    let storage: any SpotterStorage
    let bulk: any BulkLoading
    var seed: UInt64 = 42
    /// Where photos go (`spotter serve`'s blob store and limits); nil: a community without pictures.
    var configuration: AppConfiguration?
    var logger = Logger(label: "spotter.seed")
    let weeks = 8

    func load() async throws {
        let end = Date()
        let clock = ManualClock(end - Double(weeks + 2) * 7 * 86_400)
        guard let configuration else { return try await load(end: end, clock: clock, photos: nil) }
        try await MediaService.withConfigured(configuration, storage: storage, clock: clock, logger: logger) { media in
            try await load(end: end, clock: clock, photos: DemoPhotos(media: media, storage: storage))
        }
    }

    private func load(end: Date, clock: ManualClock, photos: DemoPhotos?) async throws {
        var random = SeededGenerator(seed: seed, stream: 7)
        let people = DemoPeople.all.enumerated().map { index, person in
            AccountRecord(
                id: UserID(rawValue: UUIDv7.make(at: clock.now + Double(index), using: &random)),
                username: person.username, email: nil, passwordHash: nil, displayName: person.name,
                appleSubject: nil, createdAt: clock.now + Double(index),
                profile: ProfileFields(bio: person.bio, units: .kg, timeZone: "UTC", privacy: .public),
                featuredAt: index < 4 ? clock.now : nil)
        }
        try await bulk.loadAccounts(people)
        for (index, person) in people.enumerated() { try await photos?.setAvatar(of: person, index: index) }

        // The coach shares the club's three sessions as templates, so the builder can start from them.
        let templates = TemplateService(storage: storage, clock: clock)
        for session in DemoWorkouts.sessions {
            _ = try await templates.createWorkoutTemplate(
                CreateWorkoutTemplateRequest(
                    name: session.title, type: session.type, description: "Coach Ben's programme",
                    exercises: session.lifts.map { lift in
                        TemplateExercise(
                            name: lift.name,
                            targetSets: Array(repeating: TargetSet(reps: lift.reps), count: lift.sets))
                    }, visibility: .public),
                author: people[1])
        }

        let social = SocialService(storage: storage, clock: clock)
        let posts = PostService(storage: storage, clock: clock, media: photos?.media)
        let sessions = DemoSchedule.make(people: people.count, weeks: weeks, end: end, using: &random)
        let follows = people.indices.flatMap { follower in
            DemoSchedule.followees(of: follower, among: people.count, using: &random).map { (follower, $0) }
        }
        var progress = ProgressBar(noun: "demo actions", total: follows.count + sessions.count)
        var done = 0
        for (follower, followee) in follows {
            _ = try await social.follow(people[followee].username, viewer: people[follower])
            done += 1
            progress.update(done)
        }

        var sessionCount = Array(repeating: 0, count: people.count)
        for (number, session) in sessions.enumerated() {
            clock.move(to: session.at)
            let author = people[session.person]
            let (workout, caption) = DemoWorkouts.workout(
                for: session.person, number: sessionCount[session.person], at: session.at, using: &random)
            sessionCount[session.person] += 1
            var mediaIDs: [MediaID]?
            if let photos, number % 8 == 0 {
                mediaIDs = [
                    try await photos.workoutPhoto(
                        number, description: "\(workout.title), after the session", owner: author)
                ]
            }
            let post = try await posts.create(
                CreatePostRequest(
                    kind: .workout, text: caption, visibility: .public, workout: workout, mediaIDs: mediaIDs),
                author: author)
            // Friends react within the next hours: a few kudos, now and then a comment the author answers.
            let comments = workout.type == .cardio ? DemoText.cardioComments : DemoText.liftComments
            for giver in DemoSchedule.reactors(for: session.person, among: people.count, using: &random) {
                clock.move(to: session.at + Double.random(in: 600...(6 * 3600), using: &random))
                _ = try await posts.setKudos(post.id, on: true, viewer: people[giver])
                if random.chance(0.25) {
                    let comment = try await posts.comment(
                        on: post.id, CreateCommentRequest(text: comments.randomElement(using: &random)!),
                        viewer: people[giver])
                    if random.chance(0.4) {
                        clock.move(to: clock.now + Double.random(in: 300...3600, using: &random))
                        _ = try await posts.comment(
                            on: post.id,
                            CreateCommentRequest(
                                text: DemoText.replies.randomElement(using: &random)!, parentID: comment.id),
                            viewer: author)
                    }
                }
            }
            // Now and then a note the next day: a rest day, a race, a question for the club.
            if random.chance(0.12) {
                clock.move(to: session.at + Double.random(in: 12...30, using: &random) * 3600)
                if clock.now < end {
                    let note = try await posts.create(
                        CreatePostRequest(
                            kind: .note, text: DemoText.notes.randomElement(using: &random)!, visibility: .public),
                        author: author)
                    for giver in DemoSchedule.reactors(for: session.person, among: people.count, using: &random).prefix(
                        3)
                    {
                        _ = try await posts.setKudos(note.id, on: true, viewer: people[giver])
                    }
                }
            }
            done += 1
            progress.update(done)
        }
        progress.finish()
        let groups = try await DemoGroups(storage: storage, clock: clock, people: people, photos: photos)
            .load(end: end, weeks: weeks - 2, seed: seed)
        ProgressBar.write(
            "Demo community ready: \(people.count) people, \(follows.count) follows, \(sessions.count) workouts, "
                + "\(groups) groups. Open the web app and sign up to join them.\n")
    }
}

/// Who trains when, who follows whom, who cheers.
enum DemoSchedule {
    struct Session {
        let person: Int
        let at: Date
    }

    /// Two to four sessions a week per person, in the morning or the evening, oldest first.
    static func make(people: Int, weeks: Int, end: Date, using random: inout SeededGenerator) -> [Session] {
        var sessions: [Session] = []
        for person in 0..<people {
            let perWeek = 2 + person % 3
            for week in 0..<weeks {
                for _ in 0..<perWeek {
                    let daysAgo = Double(week * 7) + Double.random(in: 0.2..<7, using: &random)
                    let at = end - daysAgo * 86_400
                    if at < end - 600 { sessions.append(Session(person: person, at: at)) }
                }
            }
        }
        return sessions.sorted { $0.at < $1.at }
    }

    /// Six to twelve others, the first few people (the gym's regulars) likelier.
    static func followees(of person: Int, among count: Int, using random: inout SeededGenerator) -> [Int] {
        var chosen = Set<Int>()
        let wanted = Int.random(in: 6...12, using: &random)
        while chosen.count < wanted {
            let other = random.popular(below: count)
            if other != person { chosen.insert(other) }
        }
        return chosen.sorted()
    }

    static func reactors(for author: Int, among count: Int, using random: inout SeededGenerator) -> [Int] {
        let wanted = Int.random(in: 0...7, using: &random)
        return Set((0..<wanted).map { _ in Int.random(in: 0..<count, using: &random) }).subtracting([author]).sorted()
    }
}
