/// A subject for generated notes: its title, notebook, the lines such a note holds and the
/// hashtags its writer would use. All text was written for this project (public domain).
public struct Topic: Sendable, Hashable {
    /// Short name used on the command line (`--topic`).
    public let slug: String
    public let title: String
    /// Where the note is filed, e.g. `Work/Meetings`.
    public let notebook: String
    /// True when the lines are a list written with `- ` in front.
    public let bulleted: Bool
    public let sentences: [String]
    /// Hashtags without the `#`, lowercase.
    public let hashtags: [String]
}

/// The built-in topics, so samples need no input text.
public enum Corpus {
    public static let topics: [Topic] = [
        Topic(slug: "weekly-planning", title: "Weekly planning", notebook: "Work/Meetings", bulleted: false, sentences: [
            "Move the design review to Thursday morning",
            "Dana will send the budget draft by Friday",
            "We agreed to ship the beta after the holiday",
            "Ask facilities about the broken projector",
            "Sam needs two more days for the report",
            "Hiring plan is on hold until next quarter",
            "Check the numbers before the board meeting",
            "Priya takes over support rotation this week",
            "Keep the standup short, fifteen minutes at most",
            "Follow up with legal about the new contract",
            "Book a room for the planning session",
            "Nobody owns the release notes yet",
        ], hashtags: ["meeting", "q3-plan", "budget", "follow-up", "hiring", "roadmap"]),
        Topic(slug: "project-kickoff", title: "Project kickoff", notebook: "Work/Projects", bulleted: false, sentences: [
            "Goal is a working prototype in six weeks",
            "First milestone: import old notes without loss",
            "Main risk is the sync service, test it early",
            "Mia owns the data model, Leo owns the editor",
            "Write the API sketch before any code",
            "Weekly demo every Wednesday at three",
            "Keep the scope small and say no often",
            "Budget covers two contractors until June",
            "Decide on the file format by the end of the month",
            "Users asked for search above everything else",
            "Collect feedback from five real users",
            "Launch date stays open until the beta",
        ], hashtags: ["kickoff", "design", "risks", "launch", "api", "q3-plan"]),
        Topic(slug: "sprint-retro", title: "Sprint retro", notebook: "Work/Meetings", bulleted: false, sentences: [
            "The new test setup saved us a lot of time",
            "Too many meetings on Monday again",
            "Reviews waited two days on average",
            "Pairing on the parser bug worked well",
            "On call was quiet, only one page at night",
            "We should write tickets with clear steps",
            "Release went out without a rollback",
            "Nobody read the design doc before the call",
            "Try a shorter sprint next time",
            "Thank Omar for fixing the flaky tests",
            "Keep the board up to date every evening",
            "Demo went well, the team liked the new menu",
        ], hashtags: ["retro", "process", "testing", "on-call", "wins"]),
        Topic(slug: "errands", title: "Errands", notebook: "Personal", bulleted: true, sentences: [
            "Buy milk, eggs, bread and apples",
            "Pick up the parcel at the post office",
            "Call the dentist to move the appointment",
            "Return the library books by Saturday",
            "Get new batteries for the smoke alarm",
            "Pay the water bill",
            "Take the car in for an oil change",
            "Order a birthday present for Grandma",
            "Water the plants on the balcony",
            "Fix the squeaky kitchen door",
            "Drop the old coats at the charity shop",
            "Renew the bike insurance",
        ], hashtags: ["todo", "groceries", "home", "family", "car"]),
        Topic(slug: "reading-notes", title: "Reading notes", notebook: "Personal/Reading", bulleted: false, sentences: [
            "Chapter four argues that habits beat goals",
            "Small steps every day add up over a year",
            "The author tells the story of a lighthouse keeper",
            "Good notes are short and in your own words",
            "Look up the study on sleep and memory",
            "The ending felt rushed but the middle is strong",
            "Lend this book to Anna when I am done",
            "Write one page a day, even a bad one",
            "The map at the front helps a lot",
            "Start the next book in the series in May",
            "Underlined the part about patience twice",
            "Read slowly and stop to think",
        ], hashtags: ["reading", "books", "ideas", "quotes"]),
        Topic(slug: "trip-plan", title: "Trip to the coast", notebook: "Personal/Travel", bulleted: false, sentences: [
            "Leave early on Friday to miss the traffic",
            "The cottage has a view of the harbour",
            "Pack rain jackets and warm socks",
            "Book a table at the fish place for Saturday",
            "Walk the cliff path if the weather holds",
            "Train tickets are cheaper before nine",
            "Ask the neighbours to feed the cat",
            "Bring the small camera and spare cards",
            "Visit the old lighthouse and the market",
            "Budget about forty a day for food",
            "Check the tide times before the beach walk",
            "Return on Monday afternoon",
        ], hashtags: ["travel", "packing", "booking", "weekend"]),
    ]

    /// The topic with `slug`, if there is one.
    public static func topic(named slug: String) -> Topic? {
        topics.first { $0.slug == slug.lowercased() }
    }
}
