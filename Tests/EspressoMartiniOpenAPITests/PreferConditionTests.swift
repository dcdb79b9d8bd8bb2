import EspressoMartini
@testable import EspressoMartiniOpenAPI
import Testing

/// The `Prefer` conditions the import writes, matched as the server matches them (a whole-value regex).
@Suite struct PreferConditionTests {
    func matches(_ code: Int?, _ example: String?, _ value: String) throws -> Bool {
        try CompiledRegex(PreferCondition.pattern(code: code, example: example)).matchesWhole(value)
    }

    @Test(
        "code=S among other preferences, bare or quoted",
        arguments: [
            ("code=404", true), ("code = 404", true), ("return=minimal, code=404", true), ("code=\"404\"", true),
            ("code=404; q=1", true),
            ("code=404, example=cat", true), ("respond-async,code=404", true),
            ("code=4041", false), ("code=40", false), ("xcode=404", false), ("example=404", false), ("", false),
            ("code=500", false),
        ])
    func code(_ value: String, _ expected: Bool) throws {
        #expect(try matches(404, nil, value) == expected)
    }

    @Test(
        "example=NAME with the name taken literally",
        arguments: [
            ("example=v1.cat", true), ("example=\"v1.cat\"", true), ("code=200, example=v1.cat", true),
            ("example=v1xcat", false), ("example=v1.cats", false), ("example=V1.cat", false),
        ])
    func example(_ value: String, _ expected: Bool) throws {
        #expect(try matches(nil, "v1.cat", value) == expected)
    }

    @Test(
        "code=S, example=NAME in either order, both needed",
        arguments: [
            ("code=404, example=cat", true), ("example=cat, code=404", true),
            ("return=minimal, example=cat,code=404", true),
            ("code=404", false), ("example=cat", false), ("code=500, example=cat", false),
            ("code=404, example=dog", false),
        ])
    func both(_ value: String, _ expected: Bool) throws {
        #expect(try matches(404, "cat", value) == expected)
    }

    @Test(
        "names with the characters of regular expressions",
        arguments: ["a+b", "(x)", "[1]", "a|b", "dollar$", "back\\slash", "star*"])
    func escaped(_ name: String) throws {
        #expect(try matches(nil, name, "example=\(name)"))
        #expect(try !matches(nil, name, "example=\(name)x"))
    }
}
