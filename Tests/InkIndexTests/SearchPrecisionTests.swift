import Testing
@testable import InkIndex

/// Which indexed words a query word matches (``SearchPlan/match(_:completions:nearby:forms:)``), with a
/// dictionary given here, so that the rule is checked without the system's word lists.
struct SearchPrecisionTests {
    static let dictionary = SearchDictionary(["adoption", "abortion", "adaptive", "adoptive", "compatible", "the", "then", "there",
                                              "pen", "pens", "study", "studies", "sturdy", "budget", "meeting", "abortion's",
                                              "quart", "quarterly", "meetinghouse"])

    /// What `word` matches among `indexed` (every indexed word is offered as the backends offer it:
    /// completions, near candidates of the same first letter, and the forms the index holds).
    func matches(_ word: String, among indexed: [String]) -> Set<String> {
        let plan = SearchPlan(SearchQuery(text: word), dictionary: Self.dictionary)
        let forms = Inflection.forms(of: word)
        let match = plan.match(word, completions: indexed.filter { $0.hasPrefix(word) && $0 != word },
                               nearby: indexed.filter { $0.first == word.first }.map { (term: $0, uses: 1) },
                               forms: indexed.filter(forms.contains))
        return match.alternatives
    }

    @Test("a real word matches no other real word, as a typo or as a completion, and no word of its length two letters away")
    func realWordsMatchThemselves() {
        #expect(matches("adoption", among: ["abortion", "adoptoin", "adoptiom", "adoptions"]) == ["adoptoin", "adoptiom", "adoptions"])
        #expect(matches("adaptive", among: ["adoptive", "adoplive", "adaptiv", "adaptlve"]) == ["adaptiv", "adaptlve"])
        #expect(matches("the", among: ["then", "there", "thex", "theory"]) == ["thex", "theory"])
        #expect(matches("budget", among: ["bugdet", "budgets", "budge"]) == ["bugdet", "budgets", "budge"])
    }

    @Test("a real word of five letters or more is typed as a prefix too: it completes to longer real words")
    func realPrefixes() {
        #expect(matches("quart", among: ["quarterly"]) == ["quarterly"])
        #expect(matches("meeting", among: ["meetings", "meetinghouse"]) == ["meetings", "meetinghouse"])
        #expect(matches("the", among: ["then", "there"]).isEmpty)
    }

    @Test("a word the lists lack still finds misreadings and typos a letter away, but not a real word two letters away at its length")
    func otherWords() {
        #expect(matches("computable", among: ["compatible", "computeble", "compntabie"]) == ["computeble", "compntabie"])
        #expect(matches("meetign", among: ["meeting"]) == ["meeting"])
        #expect(matches("retrospectiev", among: ["retrospective", "retrospectlve"]) == ["retrospective", "retrospectlve"])
    }

    @Test("a word matches its inflections, both ways")
    func inflections() {
        #expect(matches("study", among: ["studies", "studied", "sturdy"]) == ["studies", "studied"])
        #expect(matches("studies", among: ["study", "studying"]) == ["study", "studying"])
        #expect(matches("pens", among: ["pen", "penny"]) == ["pen"])
        #expect(Inflection.forms(of: "plan").isSuperset(of: ["plans", "planned", "planning"]))
        #expect(Inflection.forms(of: "planning").contains("plan"))
        #expect(Inflection.forms(of: "make").contains("making"))
        #expect(Inflection.forms(of: "making").contains("make"))
        #expect(!Inflection.forms(of: "the").contains("thing") && !Inflection.forms(of: "thing").contains("the"))
        #expect(Inflection.forms(of: "x2").isEmpty)
    }

    @Test("a word list's entries are kept as the index keeps words; possessives, two words there, are left out")
    func dictionaryTerms() {
        let dictionary = SearchDictionary(["Abortion", "abortion's", "Café", "well-known"])
        #expect(dictionary.contains("abortion") && dictionary.contains("cafe"))
        #expect(!dictionary.contains("s") && !dictionary.contains("well") && !dictionary.contains("known"))
    }
}
