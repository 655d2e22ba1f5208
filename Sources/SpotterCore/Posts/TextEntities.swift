import Foundation
import SpotterModels

/// Finds the hashtags and mentions in a post's text, so a post can be indexed by tag and its mentioned users
/// notified. Pure functions over the text as written; whether a mentioned user exists is for the caller to check.
///
/// Both scan grapheme clusters (what a reader sees as one character), so a letter with a combining accent is one
/// letter and never splits a tag in two.
///
/// ```swift
/// TextEntities.hashtags(in: "Squats with @Ana_Runs #LegDay! #legday")  // ["legday"]
/// TextEntities.mentions(in: "Squats with @Ana_Runs #LegDay! #legday")  // ["ana_runs"]
/// ```
public enum TextEntities {
    /// How long a hashtag may be, in characters after the `#`.
    public static let hashtagLength = 1...50

    /// The hashtags in `text`: lowercased, without `#`, each once, in order of first appearance.
    ///
    /// A tag is `#` followed by 1–50 letters (any script), digits or underscores, at least one of them a letter,
    /// so `#100kg` is a tag and `#1` is a ranking. Anything else ends the tag (`#legday!` is `legday`); a longer
    /// run is not a tag at all, because cutting it would index a word the author never wrote.
    ///
    /// A `#` right after a letter, digit or underscore is part of a word (`C#`, `abc#def`), and one right after
    /// `/` is part of a link (`example.com/#top`); neither starts a tag. Tags are lowercased and put in Unicode
    /// canonical form (NFC), so `#LegDay` and `#legday`, or a composed and a decomposed `é`, are the same tag.
    public static func hashtags(in text: String) -> [String] {
        entities(in: text, sigil: "#", isPart: isWordCharacter, accept: hashtagRule)
    }

    /// The usernames mentioned in `text`: lowercased, without `@`, each once, in order of first appearance.
    ///
    /// A mention is `@` followed by a username: 3–30 ASCII letters, digits or underscores
    /// (``AccountRules/isUsernameCharacter(_:)``). An `@` right after a letter, digit or underscore is an email
    /// address (`ana@example.com`), and one right after `/` is a link (`mastodon.social/@ana`); neither mentions
    /// anyone. A name running on into a letter no username can hold (`@josé`) or into another `@`
    /// (`@ana@example.com`) is not a mention either: notifying `jos` or `ana` would reach the wrong person.
    public static func mentions(in text: String) -> [String] {
        entities(in: text, sigil: "@", isPart: isUsernameCharacter, accept: mentionRule)
    }

    /// A piece of text as a reader sees it: plain words, a tag or a mention.
    public enum Segment: Sendable, Equatable {
        case text(String)
        /// As written (`#LegDay`) and as indexed (`legday`).
        case hashtag(written: String, tag: String)
        /// As written (`@Ana_Runs`) and the username (`ana_runs`).
        case mention(written: String, username: String)
    }

    /// `text` cut into plain runs, tags and mentions, by the same rules as `hashtags(in:)` and
    /// `mentions(in:)`, so what a page links is exactly what the post is indexed and notified by.
    ///
    /// ```swift
    /// TextEntities.segments(in: "Hi @ana #legday")
    /// // [.text("Hi "), .mention(written: "@ana", username: "ana"), .text(" "),
    /// //  .hashtag(written: "#legday", tag: "legday")]
    /// ```
    public static func segments(in text: String) -> [Segment] {
        var found: [(range: Range<String.Index>, segment: Segment)] = []
        for (range, tag) in scan(text, sigil: "#", isPart: isWordCharacter, accept: hashtagRule) {
            found.append((range, .hashtag(written: String(text[range]), tag: tag)))
        }
        for (range, name) in scan(text, sigil: "@", isPart: isUsernameCharacter, accept: mentionRule) {
            found.append((range, .mention(written: String(text[range]), username: name)))
        }
        var segments: [Segment] = []
        var position = text.startIndex
        for entity in found.sorted(by: { $0.range.lowerBound < $1.range.lowerBound })
        where entity.range.lowerBound >= position {
            if position < entity.range.lowerBound {
                segments.append(.text(String(text[position..<entity.range.lowerBound])))
            }
            segments.append(entity.segment)
            position = entity.range.upperBound
        }
        if position < text.endIndex { segments.append(.text(String(text[position...]))) }
        return segments
    }

    private static func hashtagRule(_ run: Substring, _ next: Character?) -> String? {
        guard hashtagLength.contains(run.count), run.contains(where: \.isLetter) else { return nil }
        return run.lowercased().precomposedStringWithCanonicalMapping
    }

    private static func mentionRule(_ run: Substring, _ next: Character?) -> String? {
        guard AccountRules.usernameLength.contains(run.count) else { return nil }
        if let next, next == "@" || isWordCharacter(next) { return nil }
        return run.lowercased()
    }

    /// Scans for `sigil` where a word may start, collects the run of characters `isPart` accepts after it, and
    /// lets `accept` turn the run (seeing the character after it, if any) into an entity or reject it. Keeps the
    /// first of each entity.
    private static func entities(
        in text: String, sigil: Character, isPart: (Character) -> Bool, accept: (Substring, Character?) -> String?
    ) -> [String] {
        var found: [String] = []
        var seen: Set<String> = []
        for (_, entity) in scan(text, sigil: sigil, isPart: isPart, accept: accept) where seen.insert(entity).inserted {
            found.append(entity)
        }
        return found
    }

    /// Every entity `accept` takes, with where it is written (the sigil included), in order.
    private static func scan(
        _ text: String, sigil: Character, isPart: (Character) -> Bool, accept: (Substring, Character?) -> String?
    ) -> [(Range<String.Index>, String)] {
        var found: [(Range<String.Index>, String)] = []
        var previous: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let start = index
            let character = text[index]
            defer { previous = character }
            index = text.index(after: index)
            guard character == sigil, !startsInsideWord(after: previous) else { continue }
            let runEnd = text[index...].firstIndex { !isPart($0) } ?? text.endIndex
            let next = runEnd < text.endIndex ? text[runEnd] : nil
            if let entity = accept(text[index..<runEnd], next) { found.append((start..<runEnd, entity)) }
        }
        return found
    }

    /// Whether a sigil after `previous` sits inside a word, an email address or a link path.
    private static func startsInsideWord(after previous: Character?) -> Bool {
        guard let previous else { return false }
        return previous == "/" || isWordCharacter(previous)
    }

    /// A letter of any script, a decimal digit of any script, or an underscore.
    private static func isWordCharacter(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        return character.isLetter || first.properties.generalCategory == .decimalNumber || character == "_"
    }

    /// A character a username may hold: exactly one ASCII letter, digit or underscore.
    private static func isUsernameCharacter(_ character: Character) -> Bool {
        character.unicodeScalars.count == 1 && AccountRules.isUsernameCharacter(character.unicodeScalars.first!)
    }
}
