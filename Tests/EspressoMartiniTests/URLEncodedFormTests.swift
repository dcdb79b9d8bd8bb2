import EspressoMartini
import Testing

@Suite struct URLEncodedFormTests {
    typealias Field = URLEncodedForm.Field

    @Test(
        arguments: [
            ("", []),
            ("page=2", [Field(name: "page", value: "2")]),
            ("q=a+b%20c", [Field(name: "q", value: "a b c")]),
            (
                "tag=a&tag=b&x=1",
                [Field(name: "tag", value: "a"), Field(name: "tag", value: "b"), Field(name: "x", value: "1")]
            ),
            ("flag", [Field(name: "flag", value: "")]),
            ("a=", [Field(name: "a", value: "")]),
            ("=v", [Field(name: "", value: "v")]),
            ("a=1=2", [Field(name: "a", value: "1=2")]),
            ("&&==", [Field(name: "", value: "=")]),
            ("%zz=%", [Field(name: "%zz", value: "%")]),
            ("a=%4", [Field(name: "a", value: "%4")]),
            ("a=%41%42", [Field(name: "a", value: "AB")]),
            ("n%C3%A9=caf%c3%a9", [Field(name: "né", value: "café")]),
            ("bad=%FF", [Field(name: "bad", value: "\u{FFFD}")]),
            ("plus=%2B", [Field(name: "plus", value: "+")]),
            (
                "a+b=1&a%20b=2&a b=3",
                [Field(name: "a b", value: "1"), Field(name: "a b", value: "2"), Field(name: "a b", value: "3")]
            ),
        ] as [(String, [Field])])
    func parses(_ text: String, _ fields: [Field]) {
        #expect(URLEncodedForm(parsing: text).fields == fields)
        for name in fields.map(\.name) + ["missing", "a b", "%zz"] {
            #expect(
                URLEncodedForm.values(named: name, in: text) == fields.filter { $0.name == name }.map(\.value),
                "\(name) in \(text)")
        }
    }

    @Test func valuesOfARepeatedNameInOrder() {
        let form = URLEncodedForm(parsing: "tag=b&x=1&tag=a")
        #expect(form.values(named: "tag") == ["b", "a"])
        #expect(form.first(named: "tag") == "b")
        #expect(form.values(named: "missing").isEmpty)
        #expect(form.first(named: "missing") == nil)
    }
}
