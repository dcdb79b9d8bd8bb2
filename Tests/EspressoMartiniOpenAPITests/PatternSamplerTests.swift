@testable import EspressoMartiniOpenAPI
import Testing

@Suite struct PatternSamplerTests {
    @Test(
        "a string matching each simple pattern, the shortest unless a length asks for more",
        arguments: [
            (#"^[A-Z]{3}-\d{4}$"#, 0, "AAA-0000"),
            ("^fixed$", 0, "fixed"),
            ("^[a-z]+$", 8, "aaaaaaaa"),
            ("^(ab|cd)+x?$", 0, "ab"),
            ("^[^0-9]{2}$", 0, "aa"),
            ("[0-9a-f]{8}", 0, "00000000"),
            (#"^\w+@\w+\.com$"#, 0, "a@a.com"),
            (#"^(?:\+\d{1,3} )?\d{3}-\d{4}$"#, 0, "000-0000"),
            (#"^[\-_.a-z]{2,4}$"#, 0, "--"),
            (#"^\u0041\x42.$"#, 0, "ABa"),
            ("^a{2,}b*c?$", 5, "aaaaa"),
        ])
    func samples(_ pattern: String, _ minimumLength: Int, _ expected: String) throws {
        let sample = try #require(
            PatternSampler(pattern)?.sample(minimumLength: minimumLength, maximumLength: nil, variation: 0))
        #expect(sample == expected)
        #expect(try Regex(pattern).firstMatch(in: sample) != nil)
    }

    @Test("a variation changes the last character that has a choice")
    func variations() throws {
        let sampler = try #require(PatternSampler(#"^[A-C]\d$"#))
        #expect(
            (0..<3).map { sampler.sample(minimumLength: 0, maximumLength: nil, variation: $0) } == ["A0", "A1", "A2"])
    }

    @Test(
        "patterns beyond simple ones are refused",
        arguments: [#"^(?=x)a$"#, #"^(a)\1$"#, "(?i)abc", #"\bword\b"#, "a{2", "[z-a]", #"\p{L}+"#, "a**"])
    func refuses(_ pattern: String) {
        #expect(PatternSampler(pattern) == nil)
    }
}
