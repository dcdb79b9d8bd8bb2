import EspressoMartini
import Testing

/// How the loader reads streams, slow networks and delay distributions (doc/streams-and-networks.md).
@Suite struct StreamLoadingTests {
    static func response(_ json: String) throws -> ConfiguredResponse {
        try #require(try responses(["exchanges/GET/configuration.json": json]).first)
    }

    static func responses(_ files: [String: String]) throws -> [ConfiguredResponse] {
        let (tree, diagnostics, _) = try LoaderFixture.load(FolderFixture(files: files))
        #expect(diagnostics.all.isEmpty, "\(diagnostics.all)")
        return tree?.exchanges.flatMap(\.responses) ?? []
    }

    static func text(_ chunk: StreamChunk) -> String {
        guard case .literal(let bytes) = chunk.content else { return "(template)" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// With `text/event-stream`, each chunk is one event, framed when the tree loads: the fields in order,
    /// data split per line (any line ending), JSON data compact, a blank line after each.
    @Test func eventChunksAreFramedAsServerSentEvents() throws {
        let response = try Self.response(
            #"""
            {"headers": {"Content-Type": "text/event-stream; charset=utf-8"},
             "stream": [{"delay": 0.2, "event": "token", "id": "1", "data": "Hel"},
                        {"data": "two\nlines\r\nand\rthree", "retry": 1500},
                        {"data": {"done": true, "text": "a\nb"}, "comment": "the end"},
                        {"data": ""},
                        {"delay": 1}]}
            """#)
        let stream = try #require(response.stream)
        #expect(stream.framing == .serverSentEvents)
        #expect(
            stream.chunks.map(Self.text) == [
                "event: token\nid: 1\ndata: Hel\n\n",
                "retry: 1500\ndata: two\ndata: lines\ndata: and\ndata: three\n\n",
                ": the end\ndata: {\"done\":true,\"text\":\"a\\nb\"}\n\n",
                "data:\n\n",
                "\n",
            ])
        #expect(stream.chunks.map(\.delay) == [0.2, 0, 0, 0, 1])
        #expect(!stream.repeats)
        #expect(response.summary == "200 stream of 5 events")
    }

    /// Without a `Content-Type`, chunks with event fields make an event stream, sent as `text/event-stream`.
    @Test func eventFieldsImplyAnEventStream() throws {
        let stream = try #require(try Self.response(#"{"stream": [{"data": "x"}], "stream_repeat": false}"#).stream)
        #expect(stream.framing == .serverSentEvents)
        #expect(stream.derivedContentType == "text/event-stream")
    }

    /// Otherwise chunks are raw: text as is, any other JSON value compact with a newline (NDJSON, the type
    /// a stream of JSON values gets), a chunk without a body a pause.
    @Test func rawChunksAreTextAsIsAndJSONLines() throws {
        let ndjson = try #require(
            try Self.response(#"{"stream": [{"body": {"a": 1}}, {"delay": 0.5, "body": [1, "x"]}, {"delay": 0.1}]}"#)
                .stream)
        #expect(ndjson.framing == .raw)
        #expect(ndjson.derivedContentType == "application/x-ndjson")
        #expect(ndjson.chunks.map(Self.text) == ["{\"a\":1}\n", "[1,\"x\"]\n", ""])
        #expect(ndjson.chunks[2].isPause)
        let text = try #require(
            try Self.response(#"{"stream": [{"body": "progress 1\n"}, {"delay": 0.5, "body": {"n": 2}}]}"#).stream)
        #expect(text.derivedContentType == "text/plain; charset=utf-8")
        #expect(text.chunks.map(Self.text) == ["progress 1\n", "{\"n\":2}\n"])
    }

    /// A named `Content-Type` other than `text/event-stream` sends raw chunks, and is the one sent.
    @Test func aNamedContentTypeDecidesTheFraming() throws {
        let response = try Self.response(
            #"{"headers": {"Content-Type": "application/json-seq"}, "stream": [{"delay": 0.5, "body": "x"}], "stream_repeat": true, "delay": 0.1}"#
        )
        #expect(response.stream?.framing == .raw)
        #expect(response.stream?.repeats == true)
        #expect(response.content?.headers == [HTTPHeader(name: "Content-Type", value: "application/json-seq")])
        #expect(response.summary == "200 stream of 1 chunk, repeated delay 0.1s")
    }

    /// With `"template": true`, chunk strings are templates compiled at load; the header values too.
    @Test func templatedChunksRenderAgainstTheRequest() throws {
        let response = try Self.response(
            #"""
            {"template": true, "headers": {"X-Call": "{{call}}"},
             "stream": [{"id": "{{call}}-1", "event": "e", "data": {"path": "{{request.path}}", "n": 1}},
                        {"data": "line {{call}}\nnext"}]}
            """#)
        let stream = try #require(response.stream)
        #expect(response.template?.headers.count == 1)
        #expect(stream.chunks.map(Self.text) == ["(template)", "(template)"])
        let context = JSONValue.object([
            JSONMember(key: "call", value: .integer(3)),
            JSONMember(key: "request", value: .object([JSONMember(key: "path", value: .string("/a\"b"))])),
        ])
        #expect(
            String(decoding: stream.chunks[0].bytes { context }, as: UTF8.self)
                == "event: e\nid: 3-1\ndata: {\"path\":\"/a\\\"b\",\"n\":1}\n\n")
        #expect(String(decoding: stream.chunks[1].bytes { context }, as: UTF8.self) == "data: line 3\ndata: next\n\n")
    }

    /// A rendered value cannot start a field of its own: a line break in an event name or id is a space.
    @Test func aLineBreakInAnEventNameBecomesASpace() throws {
        let response = try Self.response(#"{"template": true, "stream": [{"event": "{{name}}", "data": "x"}]}"#)
        let context = JSONValue.object([JSONMember(key: "name", value: .string("a\ndata: forged"))])
        #expect(
            String(decoding: try #require(response.stream).chunks[0].bytes { context }, as: UTF8.self)
                == "event: a data: forged\ndata: x\n\n")
    }

    /// `bandwidth` and `network` on a response, beside `responses` and beside `variants`: the most specific
    /// place that gives a bandwidth (or a profile, with its bandwidth) wins; the latency comes from the most
    /// specific profile.
    @Test func networksStackFromTheExchangeToTheResponse() throws {
        let responses = try Self.responses([
            "exchanges/a/GET/configuration.json":
                #"{"responses": [{"bandwidth": "56kbit"}, {"network": "lte"}, {}], "network": "3g"}"#,
            "exchanges/b/GET/configuration.json": #"""
            {"variants": [{"when": {"query": {"x": "1"}}, "responses": [{}], "bandwidth": "1.5mbit"}, {"responses": {"network": "none"}}],
             "network": "edge"}
            """#,
            "exchanges/c/GET/configuration.json": #"{"bandwidth": 2048}"#,
        ])
        #expect(responses.map { $0.network?.bytesPerSecond } == [7000, 1_500_000, 97_500, 1_500_000 / 8, nil, 2048])
        #expect(responses.map { $0.network?.latency } == [0.1, 0.05, 0.1, 0.4, 0, 0])
        #expect(
            responses.map { $0.network?.summary ?? "" } == [
                " network 3g bandwidth 56kbit", " network lte", " network 3g", " network edge bandwidth 1.5mbit",
                " network none", " bandwidth 2048 B/s",
            ])
    }

    @Test(arguments: [
        ("56kbit", 7000.0), ("1.5mbit", 187_500), ("100KB", 102_400), ("1MB", 1_048_576), ("2 Mbit/s", 250_000),
        ("8bit", 1), ("512B", 512),
        ("1GB", 1_073_741_824), ("0.5gbit", 62_500_000),
    ])
    func bandwidthStringsName(_ text: String, _ bytesPerSecond: Double) {
        #expect(Bandwidth(parsing: text)?.bytesPerSecond == bytesPerSecond)
    }

    @Test(arguments: ["fast", "", "kbit", "0kbit", "-1KB", "10 kb", "10Kb", "1e3KB", "12 KB/m", ".5mbit", "1.2.3KB"])
    func notBandwidths(_ text: String) {
        #expect(Bandwidth(parsing: text) == nil)
    }

    /// `"distribution": "lognormal"` draws per request around the median, capped by `max`; `"uniform"`
    /// names today's range.
    @Test func delayDistributions() throws {
        let responses = try Self.responses([
            "exchanges/l/GET/configuration.json":
                #"{"delay": {"distribution": "lognormal", "median": 0.2, "sigma": 0.5, "max": 1}}"#,
            "exchanges/u/GET/configuration.json": #"{"delay": {"distribution": "uniform", "min": 0.1, "max": 0.3}}"#,
            "exchanges/n/GET/configuration.json":
                #"{"delay": {"distribution": "lognormal", "median": 0.2, "sigma": 0}}"#,
        ])
        #expect(
            responses.map(\.delay) == [
                .lognormal(median: 0.2, sigma: 0.5, max: 1), .lognormal(median: 0.2, sigma: 0, max: nil),
                .uniform(min: 0.1, max: 0.3),
            ])
        // 40 000 draws: above the cap (5 × the median, 3.2 sigmas) is 0.064% of them, so some reach it but
        // for one run in 10^11; with 4 000, one run in 13 had none.
        let draws = (0..<40_000).map { _ in responses[0].delay!.seconds }.sorted()
        #expect(draws.allSatisfy { $0 > 0 && $0 <= 1 })
        #expect(abs(draws[20_000] - 0.2) < 0.01, "the median, drawn")
        #expect(draws.last == 1, "the cap holds the tail")
        #expect(
            draws.filter { $0 > 0.2 * 2.7 }.count > 400,
            "sigma 0.5 draws a long tail: above e^1 × median about 2.3% of the time")
        #expect(responses[1].delay!.seconds == 0.2)
        #expect(responses.map { $0.delay!.summary } == ["lognormal 0.2s ±0.5 ≤1s", "lognormal 0.2s ±0", "0.1–0.3s"])
    }
}
