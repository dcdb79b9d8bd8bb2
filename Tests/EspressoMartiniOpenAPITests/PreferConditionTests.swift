@testable import EspressoMartiniOpenAPI
import Testing

@Suite struct PreferConditionTests {
    @Test func placeholder() {}
}
