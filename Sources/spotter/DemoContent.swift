import Foundation
import SpotterCore
import SpotterModels

/// The demo community's people: varied sports, ages and voices, as a real club has.
enum DemoPeople {
    struct Person {
        let username: String
        let name: String
        let bio: String
    }

    static let all: [Person] = [
        Person(username: "maya_lifts", name: "Maya Okafor", bio: "Powerlifter. 3x bodyweight deadlift is the dream."),
        Person(username: "coach_ben", name: "Ben Hartley", bio: "Strength coach. Form first, ego last."),
        Person(username: "priya_runs", name: "Priya Nair", bio: "Marathoner learning to love the barbell."),
        Person(username: "jonas_k", name: "Jonas Keller", bio: "Dad of two, training at 5:30 before anyone wakes up."),
        Person(username: "grace_moves", name: "Grace Liu", bio: "Olympic lifting and too much coffee."),
        Person(username: "tariq_strong", name: "Tariq Haddad", bio: "Ex-rugby. Now chasing a 200 kg squat."),
        Person(username: "ines_fit", name: "Inês Costa", bio: "Physio by day, lifter by night."),
        Person(username: "hiro_cali", name: "Hiro Tanaka", bio: "Calisthenics and heavy rows."),
        Person(username: "rosa_pr", name: "Rosa Jiménez", bio: "Masters lifter, 52 and stronger every year."),
        Person(username: "sven_rows", name: "Sven Andersson", bio: "Rower. Back day every day."),
        Person(username: "kira_b", name: "Kira Brennan", bio: "Came for weight loss, stayed for the PRs."),
        Person(username: "liam_gains", name: "Liam O'Connor", bio: "Engineering student. Bench press enthusiast."),
        Person(username: "emma_trains", name: "Emma Schulz", bio: "Hybrid athlete: runs, lifts, naps."),
        Person(username: "dev_patel", name: "Dev Patel", bio: "Nurse on night shifts; the gym keeps me sane."),
        Person(username: "olu_power", name: "Olu Adeyemi", bio: "Strongman novice. Stones are my cardio."),
        Person(username: "chloe_squats", name: "Chloé Martin", bio: "Glutes, squats and good music."),
        Person(username: "farid_h", name: "Farid Hosseini", bio: "Back from injury and building slowly."),
        Person(username: "quinn_lifts", name: "Quinn Murphy", bio: "Teacher. Lifting since the pandemic."),
        Person(username: "nils_deadlifts", name: "Nils Berg", bio: "If it's heavy, I'll pick it up."),
        Person(username: "ana_mobility", name: "Ana Souza", bio: "Yoga teacher who secretly loves deadlifts."),
        Person(username: "sam_endurance", name: "Sam Whitaker", bio: "Triathlete. Strength work keeps me unbroken."),
        Person(username: "lena_barbell", name: "Lena Fischer", bio: "First competition in March!"),
        Person(username: "omar_fit", name: "Omar Rahman", bio: "Consistency over intensity."),
        Person(username: "zoe_climbs", name: "Zoë Clarke", bio: "Climber. Pull-ups are a lifestyle."),
        Person(username: "marco_gym", name: "Marco Rossi", bio: "Gym owner. Come say hi."),
        Person(username: "aisha_strength", name: "Aisha Bello", bio: "Software dev, 100 kg bench club member."),
        Person(
            username: "tom_beginner", name: "Tom Becker", bio: "Week 9 of lifting. Everything hurts, in a good way."),
        Person(username: "yuki_oly", name: "Yuki Sato", bio: "Snatch technique forever a work in progress."),
        Person(username: "nora_runs", name: "Nora Lindqvist", bio: "Trail runner and kettlebell fan."),
        Person(username: "raj_lifts", name: "Raj Malhotra", bio: "Early 40s, late starter, no regrets."),
    ]
}

/// What each person does: the session they rotate through, so the feed shows a club, not one programme.
enum DemoSport: CaseIterable {
    case lifter, olympic, runner, triathlete, rower, climber, hybrid

    /// By the person's bio, in `DemoPeople.all`'s order.
    static let of: [DemoSport] = [
        .lifter, .lifter, .runner, .hybrid, .olympic, .lifter, .hybrid, .climber, .lifter, .rower,
        .hybrid, .lifter, .hybrid, .hybrid, .lifter, .lifter, .hybrid, .lifter, .lifter, .hybrid,
        .triathlete, .lifter, .hybrid, .climber, .lifter, .lifter, .lifter, .olympic, .runner, .hybrid,
    ]

    var sessions: [DemoWorkouts.Session] {
        let s = DemoWorkouts.self
        switch self {
        case .lifter: return [s.squats, s.benchAndRows, s.deadlifts, s.upperBody, s.kettlebells, s.fullBody]
        case .olympic: return [s.olympic, s.squats, s.olympic, s.upperBody]
        case .runner: return [s.easyRun, s.tempoRun, s.easyRun, s.longRun, s.intervals, s.fullBody]
        case .triathlete: return [s.easyRun, s.poolSwim, s.hillRide, s.longRun, s.openWater, s.commute]
        case .rower: return [s.erg, s.deadlifts, s.erg, s.benchAndRows]
        case .climber: return [s.bouldering, s.calisthenics, s.bouldering, s.benchAndRows]
        case .hybrid: return [s.fullBody, s.easyRun, s.commute, s.emom, s.tempoRun, s.squats, s.longRun]
        }
    }
}

/// Sessions as a club does them: lifts whose main lift climbs week by week (the accessories hold steady, so a
/// record line names one lift, not three), and runs, rides, swims and rows with distance and time.
enum DemoWorkouts {
    struct Lift {
        let name: String
        /// Working weight (added weight, for pull-ups and dips) as a share of the person's strength level.
        let share: Double
        let reps: Int
        let sets: Int
    }

    struct Session {
        let title: String
        var type: WorkoutType = .strength
        var lifts: [Lift] = []
        /// For cardio: the activity, its distance range in km (nil: none, as bouldering), and minutes per km.
        var activity: String?
        var kilometres: ClosedRange<Double>?
        var pace: ClosedRange<Double> = 5...6
        var minutes: ClosedRange<Int> = 45...75
        var captions: [String?]
    }

    static let squats = Session(
        title: "Heavy squats",
        lifts: [
            Lift(name: "Back Squat", share: 1.0, reps: 5, sets: 3),
            Lift(name: "Romanian Deadlift", share: 0.6, reps: 8, sets: 3),
            Lift(name: "Walking Lunge", share: 0.25, reps: 10, sets: 2),
        ],
        captions: [
            "Squats moving well, depth felt consistent. #strength", "Legs are done for the day. #legday", nil,
            "Belt on for the top set, first time in months.",
        ])
    static let benchAndRows = Session(
        title: "Bench and rows",
        lifts: [
            Lift(name: "Bench Press", share: 0.75, reps: 5, sets: 3),
            Lift(name: "Barbell Row", share: 0.55, reps: 8, sets: 3),
            Lift(name: "Face Pull", share: 0.15, reps: 15, sets: 2),
        ],
        captions: ["Bench finally going up again. #gym", "Paused reps on bench, humbling. #strength", nil])
    static let deadlifts = Session(
        title: "Deadlift day",
        lifts: [
            Lift(name: "Deadlift", share: 1.2, reps: 3, sets: 3),
            Lift(name: "Weighted Pull-up", share: 0.08, reps: 6, sets: 3),
            Lift(name: "Farmer's Carry", share: 0.4, reps: 1, sets: 3),
        ],
        captions: ["Chalk everywhere. Worth it. #powerlifting", "Grip gave out before the back did.", nil])
    static let upperBody = Session(
        title: "Upper body",
        lifts: [
            Lift(name: "Overhead Press", share: 0.45, reps: 6, sets: 4),
            Lift(name: "Weighted Dips", share: 0.1, reps: 8, sets: 3),
            Lift(name: "Dumbbell Row", share: 0.3, reps: 10, sets: 3),
        ],
        captions: ["Short on time: press and out.", "Shoulders feeling good again. #training", nil])
    static let fullBody = Session(
        title: "Full body",
        lifts: [
            Lift(name: "Front Squat", share: 0.7, reps: 6, sets: 3),
            Lift(name: "Bench Press", share: 0.6, reps: 8, sets: 3),
            Lift(name: "Kettlebell Swing", share: 0.2, reps: 15, sets: 3),
        ],
        captions: ["Strength work so the running stays unbroken. #strength", "45 minutes, everything done.", nil])
    static let olympic = Session(
        title: "Snatch and clean practice",
        lifts: [
            Lift(name: "Power Clean", share: 0.7, reps: 3, sets: 5), Lift(name: "Snatch", share: 0.5, reps: 2, sets: 5),
            Lift(name: "Overhead Squat", share: 0.45, reps: 5, sets: 3),
        ],
        captions: ["Finally stopped pressing out the snatch. #weightlifting", "Technique day, light and fast.", nil])
    static let kettlebells = Session(
        title: "Kettlebell circuit", type: .circuit,
        lifts: [
            Lift(name: "Kettlebell Swing", share: 0.2, reps: 20, sets: 4),
            Lift(name: "Goblet Squat", share: 0.2, reps: 12, sets: 4),
            Lift(name: "Kettlebell Press", share: 0.15, reps: 8, sets: 4),
        ],
        minutes: 25...35, captions: ["Quick circuit at home, kids watching cartoons. #fitness", nil])
    static let emom = Session(
        title: "EMOM 16", type: .emom,
        lifts: [
            Lift(name: "Thruster", share: 0.3, reps: 8, sets: 8),
            Lift(name: "Kettlebell Swing", share: 0.2, reps: 12, sets: 8),
        ],
        minutes: 16...20, captions: ["Sixteen minutes of regret. #hiit", "Swings never get easier."])
    static let calisthenics = Session(
        title: "Calisthenics",
        lifts: [
            Lift(name: "Weighted Pull-up", share: 0.15, reps: 5, sets: 4),
            Lift(name: "Ring Dip", share: 0.05, reps: 8, sets: 4),
            Lift(name: "Weighted Chin-up", share: 0.1, reps: 5, sets: 3),
        ],
        captions: ["Front lever is getting closer. #calisthenics", nil])
    static let easyRun = Session(
        title: "Easy run", type: .cardio, activity: "Run", kilometres: 5...10, pace: 5.5...6.5,
        captions: ["Chatting pace the whole way. #running", "Sunrise run by the river. #run", nil])
    static let tempoRun = Session(
        title: "Tempo run", type: .cardio, activity: "Run", kilometres: 6...10, pace: 4.4...5.0,
        captions: ["Tempo felt smooth until the last km. #running", "Negative split, finally. #run"])
    static let longRun = Session(
        title: "Long run", type: .cardio, activity: "Run", kilometres: 16...24, pace: 5.6...6.3,
        captions: ["Long run done before the rain. #running", "Gels at 10 and 15 km worked. #marathon"])
    static let intervals = Session(
        title: "Track intervals", type: .cardio, activity: "Run", kilometres: 7...9, pace: 4.8...5.4,
        captions: ["6 × 800 m. Legs are toast. #running"])
    static let commute = Session(
        title: "Commute ride", type: .cardio, activity: "Ride", kilometres: 12...22, pace: 2.0...2.6,
        captions: ["Headwind both ways, somehow. #cycling", nil])
    static let hillRide = Session(
        title: "Hill repeats", type: .cardio, activity: "Ride", kilometres: 30...45, pace: 2.4...3.0,
        captions: ["Five times up the quarry road. #cycling"])
    static let poolSwim = Session(
        title: "Pool swim", type: .cardio, activity: "Swim", kilometres: 1.5...3, pace: 18...22,
        captions: ["Drills for my catch, then 10 × 100 m. #swimming", nil])
    static let openWater = Session(
        title: "Open water swim", type: .cardio, activity: "Swim", kilometres: 1.5...2.5, pace: 19...23,
        captions: ["Lake was 16 °C. Brr. #triathlon"])
    static let erg = Session(
        title: "5k on the erg", type: .cardio, activity: "Row", kilometres: 5...5, pace: 4.0...4.4,
        captions: ["Held 2:05 splits to the end. #rowing", nil])
    static let bouldering = Session(
        title: "Bouldering", type: .cardio, activity: "Bouldering", minutes: 60...120,
        captions: ["Sent the purple V4 on the overhang! #climbing", "Skin is gone, spirit intact.", nil])

    /// The strength sessions Coach Ben shares as templates.
    static let sessions: [Session] = [squats, benchAndRows, deadlifts]

    /// The person's `number`th workout, ending at `end`, and its caption.
    static func workout(
        for person: Int, number: Int, at end: Date, using random: inout SeededGenerator
    ) -> (workout: WorkoutRecord, caption: String?) {
        let rotation = DemoSport.of[person % DemoSport.of.count].sessions
        let session = rotation[(number + person) % rotation.count]
        let caption = session.captions.randomElement(using: &random) ?? nil
        if let activity = session.activity {
            let km = session.kilometres.map { (Double.random(in: $0, using: &random) * 10).rounded() / 10 }
            let minutes =
                km.map { $0 * Double.random(in: session.pace, using: &random) }
                ?? Double(Int.random(in: session.minutes, using: &random))
            let seconds = Int(minutes * 60)
            let exercise = ExerciseEntry(
                name: activity, cardio: CardioMetrics(distanceM: km.map { $0 * 1000 }, durationS: seconds))
            let workout = WorkoutRecord(
                title: session.title, type: .cardio, startTime: end - Double(seconds), endTime: end,
                exercises: [exercise])
            return (workout, caption)
        }
        // Strength levels from 50 kg to about 160 kg; the main lift climbs 2.5 kg each time round the rotation.
        let level = 50 + Double((person * 37) % 110)
        let rounds = Double(number / rotation.count)
        let exercises = session.lifts.enumerated().map { index, lift in
            let progressed = index == 0 ? level * lift.share + rounds * 2.5 : level * lift.share
            let weight = (progressed / 2.5).rounded() * 2.5
            let sets = (0..<lift.sets).map { _ in
                WorkoutSet(weightKg: max(weight, 0), reps: lift.reps)
            }
            return ExerciseEntry(name: lift.name, sets: sets)
        }
        let minutes = Double(Int.random(in: session.minutes, using: &random))
        let workout = WorkoutRecord(
            title: session.title, type: session.type, startTime: end - minutes * 60, endTime: end,
            exercises: exercises)
        return (workout, caption)
    }
}

enum DemoText {
    /// Notes between workouts, now and then.
    static let notes = [
        "Rest day: an hour's walk and some stretching. #mobility",
        "Signed up for the city half marathon in April! Who's in? #running",
        "Anyone got a shoulder mobility routine they swear by? Asking for my bench. #mobility",
        "New gym playlist: 90 minutes of 80s hits. Judge me. #gym",
        "Slept nine hours and it felt like cheating. Recovery matters. #training",
        "First time at the Saturday parkrun. Everyone was so friendly. #running",
        "Meal prep done for the week, now the hard part is not eating it all tonight. #fitness",
    ]

    static let liftComments = [
        "Depth looked great on that last set.", "Is that a 2.5 kg jump since last week?",
        "Save some plates for the rest of us 😄",
        "How's the back feeling after those?", "Solid. Same time Thursday?", "You make it look easy.",
        "Proud of you, that used to be your max!", "Teach me your ways.",
    ]

    static let cardioComments = [
        "What pace were the intervals?", "Lovely route, is that the river loop?", "How do you get up that early?",
        "See you at parkrun Saturday?", "That's a proper distance, well done!", "Strava would be proud.",
    ]

    /// The author's answer to a comment, sometimes.
    static let replies = [
        "Thanks! Felt good today.", "Ha, 6 am club forever.", "Yes! Finally.", "Slowly but surely.",
        "Knee's fine, just taped it.", "Come along next time!",
    ]
}

extension ManualClock {
    /// Sets the clock to a date, forwards or back (the demo replays reactions out of order).
    func move(to date: Date) { advance(by: date.timeIntervalSince(now)) }
}
