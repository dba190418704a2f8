import Foundation

/// What the demo user writes: reflections and crash notes in Markdown, in the product's voice —
/// a person noticing things, dry, specific, sometimes asking themselves a question. Not a diary
/// of feelings, not a wellness app.
enum DemoText {
    static let applied: [String] = [
        "Let him finish the story. He got the year wrong. The world kept turning.",
        "Did it. Nobody noticed, which was the point.",
        "**Applied.** Counted four times I wanted to add something. Added nothing. The meeting ended early.",
        "- Said \"good point\" and meant it\n- Did not mention my version\n\nWhy is the second one so much harder?",
        "Easier than expected. Suspiciously easy. Maybe I picked an easy room for it.",
        "Asked a question I already knew the answer to, and listened to the answer anyway. It was a better answer than mine.",
        "Took the smaller role in the call. Felt like wearing someone else's shoes for an hour.",
        "Did it at the second attempt. The first attempt I narrated to myself while doing it, which doesn't count.",
        "Applied. Noticed the urge arrives about two seconds before I speak. That's the window.",
        "Kept quiet about the weekend plans. Nobody asked. Is that what I was afraid of?",
        "Done. It cost less than the story I told myself about it.",
        "Said *I don't know* in a meeting. Waited for the ceiling to fall in. It didn't.",
        "Applied, mostly. I let it go and then brought it up again an hour later. Half credit, no credit, whatever.",
        "Let the silence sit. Eleven seconds. Someone else filled it with something better.",
        "Did the thing. The interesting part was how long I rehearsed not doing the opposite.",
    ]

    static let skipped: [String] = [
        "Skipped. Told myself I was busy. I was, but that isn't why.",
        "Not today. Why do I always know which ones I'll skip before I finish reading them?",
        "Skipped. Read it, felt the flinch, closed the terminal.",
        "Saw it, decided it didn't apply to me. Writing that down makes it look worse.",
        "Skip. Tomorrow's me can deal with this one. Tomorrow's me has said that before.",
        "Skipped it on purpose. Wanted to see if I'd notice the difference. I did, a bit.",
    ]

    static let failed: [String] = [
        "Tried. Corrected him mid-sentence anyway. Caught it two words in, earlier than last week.",
        "Failed this one. *Again.* What exactly am I protecting?",
        "Started well. Then someone mentioned the project and I gave a five-minute tour of my part of it.",
        "Failed. The fix was to not check. I checked before I finished reading the fix.",
        "Got halfway. The second half is where it always goes.",
        "Failed, but I saw it happen in real time, which is new. Is that progress or just better seats?",
        "No. Not even close. Noted.",
    ]

    static let crashGeneric: [String] = [
        "Bad day. Ran the old code all afternoon.",
        "Crash. Knew it was happening and let it run anyway.",
        "Rough one. Most of it was about being seen a certain way.",
        "It came back in a meeting. Same trigger, same response.",
        "Not proud of this one. Logging it anyway.",
    ]

    static let crashBySlug: [String: [String]] = [
        "need-to-be-right": [
            "Argued about a restaurant's opening hours. I was right. It did not help.",
            "Corrected a colleague's slide in front of the client. Technically accurate. Socially expensive.",
            "Sent a long reply with sources to a message that was a joke.",
            "Had the last word. It tasted like nothing.",
            "Explained why the other plan wouldn't work. Then watched it work.",
        ],
        "need-to-be-liked": [
            "Agreed with two opposite opinions in the same hour.",
            "Said yes to dinner I didn't want, to someone I barely know. Why is no so expensive?",
            "Rewrote a two-line message six times so it would sound friendly.",
            "Laughed at a joke I didn't get, then explained it to someone else.",
        ],
        "need-to-impress": [
            "Mentioned the award. Twice. To the same person.",
            "Steered the conversation back to my project three times. Counted afterwards.",
            "Name-dropped the conference. Nobody asked about the conference.",
            "Rounded up the numbers in the update. Not lying. Not not lying.",
        ],
        "need-to-be-busy": [
            "2am, inbox open, answering things that can wait until Thursday.",
            "Lay awake drafting tomorrow's to-do list. It has nineteen items. Who is that for?",
            "Told three people how busy I am before lunch. None of them asked.",
            "Booked a meeting into my only free hour so the calendar would look right.",
        ],
        "fear-of-ordinary": [
            "Someone called my idea *fine*. Spent the evening on it.",
            "Compared my year to a stranger's highlight reel for forty minutes.",
            "Felt flat all day because nothing remarkable happened. Nothing needed to.",
        ],
    ]

    static func pick(_ pool: [String], _ rng: inout SplitMix64) -> String {
        pool.isEmpty ? "" : pool[Int(rng.next() % UInt64(pool.count))]
    }

    static func crashNote(slug: String?, _ rng: inout SplitMix64) -> String {
        if let slug, let own = crashBySlug[slug], rng.unit() < 0.75 { return pick(own, &rng) }
        return pick(crashGeneric, &rng)
    }

    static func reflection(_ outcome: FixOutcome, _ rng: inout SplitMix64) -> String {
        switch outcome {
        case .applied: return pick(applied, &rng)
        case .skipped: return pick(skipped, &rng)
        case .failed: return pick(failed, &rng)
        case .pending: return ""
        }
    }
}
