import EspressoMartini
import Testing

@Suite struct JSONEqualityTests {
    @Test(arguments: [
        ("1", "1", true),
        ("1", "1.0", true),
        ("1.0", "1", true),
        ("1", "1.5", false),
        ("-0.0", "0", true),
        ("1e2", "100", true),
        ("9007199254740993", "9007199254740992.0", false),
        ("9223372036854775807", "9223372036854775808.0", false),
        ("2.5", "2.5", true),
        ("1", "\"1\"", false),
        ("true", "true", true),
        ("true", "1", false),
        ("null", "null", true),
        ("null", "false", false),
        ("\"a\"", "\"a\"", true),
        ("\"a\"", "\"A\"", false),
        ("\"caf\\u00e9\"", "\"cafe\\u0301\"", true),
        ("[1, 2]", "[1.0, 2]", true),
        ("[1, 2]", "[2, 1]", false),
        ("[1, 2]", "[1, 2, 3]", false),
        ("[]", "{}", false),
        ("{\"a\": 1, \"b\": [true, {\"c\": null}]}", "{\"b\": [true, {\"c\": null}], \"a\": 1.0}", true),
        ("{\"a\": 1, \"b\": 2}", "{\"a\": 1}", false),
        ("{\"a\": 1}", "{\"a\": 1, \"b\": 2}", false),
        ("{\"a\": 1}", "{\"b\": 1}", false),
        ("{\"a\": {\"x\": 1}}", "{\"a\": {\"x\": 2}}", false),
        ("{}", "{}", true),
    ])
    func comparesAsJSON(_ left: String, _ right: String, _ equal: Bool) {
        #expect(json(left).isEquivalent(to: json(right)) == equal)
        #expect(json(right).isEquivalent(to: json(left)) == equal)
    }
}
