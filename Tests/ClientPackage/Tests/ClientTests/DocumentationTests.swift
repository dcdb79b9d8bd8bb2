import Foundation
import Testing

/// doc/testing.md shows the example files of this package as they are, so that its examples compile and run.
@Suite struct DocumentationTests {
    static let manual = Fixture.folder.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("doc/testing.md")

    @Test(arguments: ["CheckoutClient.swift", "CheckoutTests.swift", "CheckoutXCTests.swift"])
    func theManualShowsTheExampleAsItIs(file: String) throws {
        let source = try Fixture.text(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(file))
        let manual = try Fixture.text(Self.manual)
        #expect(manual.contains("```swift\n" + source + "```\n"), "doc/testing.md shows \(file) as it is")
    }
}
