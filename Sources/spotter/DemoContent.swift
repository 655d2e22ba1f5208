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

/// Real programmes: each person rotates through three sessions, adding weight week by week.
enum DemoWorkouts {
    struct Lift {
        let name: String
        /// Starting working weight, as a fraction of the person's strength level.
        let share: Double
        let reps: Int
        let sets: Int
    }

    static let sessions: [(title: String, lifts: [Lift])] = [
        (
            "Squat day",
            [
                Lift(name: "Back Squat", share: 1.0, reps: 5, sets: 3),
                Lift(name: "Romanian Deadlift", share: 0.7, reps: 8, sets: 3),
                Lift(name: "Walking Lunge", share: 0.3, reps: 10, sets: 2),
            ]
        ),
        (
            "Push day",
            [
                Lift(name: "Bench Press", share: 0.75, reps: 5, sets: 3),
                Lift(name: "Overhead Press", share: 0.45, reps: 6, sets: 3),
                Lift(name: "Dips", share: 0.1, reps: 10, sets: 3),
            ]
        ),
        (
            "Pull day",
            [
                Lift(name: "Deadlift", share: 1.2, reps: 5, sets: 1),
                Lift(name: "Barbell Row", share: 0.6, reps: 8, sets: 3),
                Lift(name: "Pull-up", share: 0.05, reps: 8, sets: 3),
            ]
        ),
    ]

    static func workout(
        for person: Int, number: Int, at end: Date, using random: inout SeededGenerator
    ) -> WorkoutRecord {
        let session = sessions[(number + person) % sessions.count]
        // Strength levels from 50 kg to about 160 kg; everyone progresses a little each week.
        let level = 50 + Double((person * 37) % 110) + Double(number / sessions.count) * 2.5
        let exercises = session.lifts.map { lift in
            let weight = (level * lift.share / 2.5).rounded() * 2.5
            let sets = (0..<lift.sets).map { _ in
                WorkoutSet(weightKg: max(weight, 0), reps: max(1, lift.reps + Int.random(in: -1...1, using: &random)))
            }
            return ExerciseEntry(name: lift.name, sets: sets)
        }
        let minutes = Double(Int.random(in: 45...80, using: &random))
        return WorkoutRecord(
            title: session.title, type: .strength, startTime: end - minutes * 60, endTime: end, exercises: exercises)
    }
}

enum DemoText {
    static let captions = [
        "Felt strong today. #strength", "Slow and steady. #training", "New week, new numbers. #gym",
        "Grinding through it. #legday", "Short on time, still got it done.", "Best session in weeks! #pr",
        "Form felt clean today.", "Tired but happy. #fitness", "Deload week vibes.",
        "Training with @coach_ben today.", "Early morning crew. #gym", "That last set was a fight.",
    ]

    static let comments = [
        "Huge! 💪", "Those numbers are climbing fast.", "Great session!", "Form looked solid on that video.",
        "Let's train together next week?", "Beast mode.", "Proud of you!", "Inspiring, as always.",
        "How's the knee holding up?", "That's a PR, right?",
    ]
}

extension ManualClock {
    /// Sets the clock to a date, forwards or back (the demo replays reactions out of order).
    func move(to date: Date) { advance(by: date.timeIntervalSince(now)) }
}
