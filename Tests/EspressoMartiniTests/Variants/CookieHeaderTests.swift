import EspressoMartini
import Testing

@Suite struct CookieHeaderTests {
    @Test(
        arguments: [
            (["a=1; b=2"], "a", ["1"]),
            (["a=1; b=2"], "b", ["2"]),
            (["a=1;b=2"], "b", ["2"]),
            (["  a = 1 ;\tb=2\t"], "a", ["1"]),
            (["a=1; b=2"], "c", []),
            (["a=1; b=2"], "A", []),
            (["a=1; a=2", "a=3"], "a", ["1", "2", "3"]),
            (["flag; b=2"], "flag", [""]),
            (["a=; b=2"], "a", [""]),
            (["a=x=y"], "a", ["x=y"]),
            (["s=\"quoted\""], "s", ["\"quoted\""]),
            (["s=caf%C3%A9"], "s", ["caf%C3%A9"]),
            (["s=café"], "s", ["café"]),
            ([";;  ; a=1 ;;"], "a", ["1"]),
            ([""], "a", []),
            ([], "a", []),
            (["=v"], "", ["v"]),
        ] as [([String], String, [String])])
    func readsCookies(_ headers: [String], _ name: String, _ values: [String]) {
        #expect(CookieHeader.values(named: name, in: headers) == values)
    }
}
