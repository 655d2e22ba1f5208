import SpotterCore
import Testing

@Suite("Hashtags")
struct HashtagTests {
    @Test("hashtags are lowercased, without #, each once, in order of first appearance")
    func lowercasedUniqueOrdered() {
        // Given
        let text = "#LegDay done. #PR on squats, then #legday again and #pr"
        // When
        let tags = TextEntities.hashtags(in: text)
        // Then
        #expect(tags == ["legday", "pr"])
    }

    @Test("trailing punctuation ends a tag")
    func punctuationEndsTag() {
        #expect(
            TextEntities.hashtags(in: "#legday! (#squats) #deadlift, #bench. #row's") == [
                "legday", "squats", "deadlift", "bench", "row",
            ])
    }

    @Test("a # inside a word does not start a tag, so C# and abc#def are not tags")
    func hashInsideWord() {
        #expect(TextEntities.hashtags(in: "I code C# and F#; abc#def 5#five under_#score") == [])
    }

    @Test("a # right after / is part of a link, not a tag")
    func hashInLink() {
        #expect(TextEntities.hashtags(in: "see example.com/#top and example.com/page#section") == [])
    }

    @Test("tags in any script are found and lowercased")
    func unicodeTags() {
        // Given
        let text = "#Kraftsport #Übung #ジム #تمرين #Ελλάδα #योग"
        // When
        let tags = TextEntities.hashtags(in: text)
        // Then
        #expect(tags == ["kraftsport", "übung", "ジム", "تمرين", "ελλάδα", "योग"])
    }

    @Test("a tag with a decomposed accent is the same tag as the composed one, and is returned composed")
    func canonicalForm() {
        // Given: "café" written with e + combining acute, then with é
        let text = "#cafe\u{301} then #caf\u{E9}"
        // When
        let tags = TextEntities.hashtags(in: text)
        // Then
        #expect(tags.count == 1)
        #expect(tags.first?.unicodeScalars.elementsEqual("caf\u{E9}".unicodeScalars) == true)
    }

    @Test("a tag needs a letter: #1 and #2024 are not tags, #100kg and #5x5_day are")
    func needsALetter() {
        #expect(TextEntities.hashtags(in: "#1 #2024 #_ #100kg #5x5_day") == ["100kg", "5x5_day"])
    }

    @Test("a tag is 1 to 50 characters; a longer run is not a tag at all")
    func length() {
        // Given
        let fifty = String(repeating: "a", count: 50)
        let fiftyOne = String(repeating: "b", count: 51)
        // When
        let tags = TextEntities.hashtags(in: "#x #\(fifty) #\(fiftyOne)")
        // Then
        #expect(tags == ["x", fifty])
    }

    @Test("a lone # or a # before a space is not a tag")
    func emptyTag() {
        #expect(TextEntities.hashtags(in: "# legday # #") == [])
    }

    @Test("a tag may follow another # or an emoji")
    func afterSymbols() {
        #expect(TextEntities.hashtags(in: "##legday 💪#gains") == ["legday", "gains"])
    }
}

@Suite("Mentions")
struct MentionTests {
    @Test("mentions are lowercased, without @, each once, in order of first appearance")
    func lowercasedUniqueOrdered() {
        // Given
        let text = "Spotted by @Ana_Runs and @bea, thanks @ana_runs!"
        // When
        let names = TextEntities.mentions(in: text)
        // Then
        #expect(names == ["ana_runs", "bea"])
    }

    @Test("an email address is not a mention")
    func emailIsNotAMention() {
        #expect(TextEntities.mentions(in: "write to ana@example.com or j.o.s.é@example.org, or ask @cai") == ["cai"])
    }

    @Test("a username is 3 to 30 characters; shorter or longer is not a mention")
    func length() {
        // Given
        let thirty = String(repeating: "a", count: 30)
        let thirtyOne = String(repeating: "b", count: 31)
        // When
        let names = TextEntities.mentions(in: "@ab @abc @\(thirty) @\(thirtyOne)")
        // Then
        #expect(names == ["abc", thirty])
    }

    @Test("punctuation ends a mention")
    func punctuationEndsMention() {
        #expect(TextEntities.mentions(in: "thanks @ana! (@bea) @cai's PR, @dee.") == ["ana", "bea", "cai", "dee"])
    }

    @Test("a name running into a letter no username holds, or into another @, is not a mention")
    func runOn() {
        #expect(TextEntities.mentions(in: "@josé @ana@example.com") == [])
    }

    @Test("an @ right after / is part of a link, not a mention")
    func atInLink() {
        #expect(TextEntities.mentions(in: "https://mastodon.social/@ana") == [])
    }

    @Test("text without any @ mentions nobody")
    func noMentions() {
        #expect(TextEntities.mentions(in: "5x5 squats at 100 kg #legday") == [])
    }
}

@Suite("Text segments")
struct TextSegmentsTests {
    @Test("text is cut into plain runs, tags and mentions, as written, by the indexing rules")
    func segments() {
        #expect(
            TextEntities.segments(in: "Squats with @Ana_Runs #LegDay! C# stays, ana@example.com too")
                == [
                    .text("Squats with "), .mention(written: "@Ana_Runs", username: "ana_runs"), .text(" "),
                    .hashtag(written: "#LegDay", tag: "legday"), .text("! C# stays, ana@example.com too"),
                ])
    }

    @Test("text without entities is one run, and empty text none")
    func plain() {
        #expect(TextEntities.segments(in: "just words") == [.text("just words")])
        #expect(TextEntities.segments(in: "").isEmpty)
        #expect(TextEntities.segments(in: "#1 @ab") == [.text("#1 @ab")])
    }
}
