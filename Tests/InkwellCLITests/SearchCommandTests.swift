import Foundation
import Testing

@Suite("inkwell search and tags")
struct SearchCommandTests {
    let cli = CLI()

    @Test("titles and tags are searchable right after they change, with tag filters combined by AND")
    func titlesAndTags() throws {
        try cli.ok(["init"])
        try cli.ok(["note", "create", "Quarterly budget review", "--notebook", "Work", "--tag", "q3", "--tag", "money"])
        try cli.ok(["note", "create", "Budget for the trip", "--notebook", "Personal", "--tag", "q3"])
        try cli.ok(["note", "create", "Groceries"])
        func titles(_ args: [String]) throws -> [String] {
            (try cli.json(["search"] + args) as! [[String: Any]]).map { $0["title"] as! String }.sorted()
        }
        #expect(try titles(["budget"]) == ["Budget for the trip", "Quarterly budget review"])
        #expect(try titles(["budgte"]) == ["Budget for the trip", "Quarterly budget review"])
        #expect(try titles(["quart"]) == ["Quarterly budget review"])
        #expect(try titles(["budget", "--notebook", "Personal"]) == ["Budget for the trip"])
        #expect(try titles(["--tag", "q3", "--tag", "money"]) == ["Quarterly budget review"])
        try cli.ok(["note", "rename", "Groceries", "Market list"])
        #expect(try titles(["market"]) == ["Market list"])
        let tags = try cli.json(["tags"]) as! [[String: Any]]
        #expect(tags.map { $0["tag"] as! String } == ["q3", "money"])
        #expect(tags.map { $0["notes"] as! Int } == [2, 1])
        let none = try cli.run(["search"])
        #expect(none.status != 0 && none.stderr.contains("give words to search for"))
    }
}
