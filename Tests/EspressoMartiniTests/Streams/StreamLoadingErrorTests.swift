import EspressoMartini
import Testing

/// Streams, slow networks and delay distributions (doc/streams-and-networks.md): each bad value is a load
/// error at its line and column, with what to do and, where a name is close, a did-you-mean.
@Suite struct StreamLoadingErrorTests {
    static let cases: [LoaderErrorCase] = [
        .init(
            "a bandwidth that is no rate", configuration: #"{"bandwidth": "fast"}"#,
            [
                "\(LoaderErrorCase.at):1:15: error: 'bandwidth' \"fast\" is not a rate; give bytes per second (a number) or a string such as \"56kbit\", \"1.5mbit\" or \"100KB\" (kbit and mbit count 1000 bits, KB and MB 1024 bytes)"
            ]),
        .init(
            "a bandwidth in kbps", configuration: #"{"bandwidth": "56kbps"}"#,
            [
                "\(LoaderErrorCase.at):1:15: error: 'bandwidth' \"56kbps\" is not a rate; give bytes per second (a number) or a string such as \"56kbit\", \"1.5mbit\" or \"100KB\" (kbit and mbit count 1000 bits, KB and MB 1024 bytes); did you mean '56kbit'?"
            ]),
        .init(
            "a bandwidth of 0", configuration: #"{"bandwidth": 0}"#,
            [
                "\(LoaderErrorCase.at):1:15: error: 'bandwidth' must be more than 0 bytes per second; leave it out for full speed"
            ]),
        .init(
            "a bandwidth that is neither", configuration: #"{"bandwidth": true}"#,
            [
                "\(LoaderErrorCase.at):1:15: error: 'bandwidth' must be bytes per second (a number) or a string such as \"56kbit\", \"1.5mbit\" or \"100KB\", found a boolean"
            ]),
        .init(
            "an unknown network profile", configuration: #"{"network": "4g"}"#,
            [
                "\(LoaderErrorCase.at):1:13: error: 'network' must be one of \"edge\", \"3g\", \"lte\", \"slow-wifi\", \"none\", found \"4g\"; did you mean '3g'?"
            ]),
        .init(
            "a network profile beside responses",
            configuration: #"{"responses": [{"status_code": 200}], "network": "slow wifi"}"#,
            [
                "\(LoaderErrorCase.at):1:50: error: 'network' must be one of \"edge\", \"3g\", \"lte\", \"slow-wifi\", \"none\", found \"slow wifi\"; did you mean 'slow-wifi'?"
            ]),
        .init(
            "a bad bandwidth beside variants", configuration: #"{"variants": [{"responses": {}}], "bandwidth": -5}"#,
            [
                "\(LoaderErrorCase.at):1:48: error: 'bandwidth' must be more than 0 bytes per second; leave it out for full speed"
            ]),
        .init(
            "a negative chunk delay", configuration: #"{"stream": [{"delay": -0.1, "data": "x"}]}"#,
            [
                "\(LoaderErrorCase.at):1:23: error: 'delay' must not be negative; use 0 or more seconds"
            ]),
        .init(
            "an unknown key in an event chunk", configuration: #"{"stream": [{"data": "x", "evnt": "a"}]}"#,
            [
                "\(LoaderErrorCase.at):1:27: error: unknown key 'evnt' in a stream chunk; it takes 'delay', 'event', 'id', 'retry', 'data', 'comment'; did you mean 'event'?"
            ]),
        .init(
            "an unknown key in a raw chunk", configuration: #"{"stream": [{"bdy": "x"}]}"#,
            [
                "\(LoaderErrorCase.at):1:14: error: unknown key 'bdy' in a stream chunk; it takes 'delay', 'body'; did you mean 'body'?"
            ]),
        .init(
            "body in an event stream",
            configuration: #"{"headers": {"Content-Type": "text/event-stream"}, "stream": [{"body": "x"}]}"#,
            [
                "\(LoaderErrorCase.at):1:64: error: this stream is sent as Server-Sent Events (its Content-Type is text/event-stream): a chunk's text goes in 'data', with 'event', 'id', 'retry' and 'comment' beside it; did you mean 'data'?"
            ]),
        .init(
            "an event field in a raw stream",
            configuration: #"{"headers": {"Content-Type": "application/x-ndjson"}, "stream": [{"data": {"a": 1}}]}"#,
            [
                "\(LoaderErrorCase.at):1:67: error: 'data' is a Server-Sent Event field, and this stream is sent raw (its Content-Type is application/x-ndjson); give the chunk's bytes as 'body', or send the stream as text/event-stream"
            ]),
        .init(
            "a stream that is not a list", configuration: #"{"stream": "hello"}"#,
            [
                "\(LoaderErrorCase.at):1:12: error: 'stream' must be a non-empty array of chunks such as {\"delay\": 0.2, \"data\": \"Hello\"}, found a string"
            ]),
        .init(
            "an empty stream", configuration: #"{"stream": []}"#,
            [
                "\(LoaderErrorCase.at):1:12: error: 'stream' must be a non-empty array of chunks such as {\"delay\": 0.2, \"data\": \"Hello\"}, found an empty array"
            ]),
        .init(
            "a chunk that is not an object", configuration: #"{"stream": [{"data": "a"}, "b"]}"#,
            [
                "\(LoaderErrorCase.at):1:28: error: a stream chunk must be an object such as {\"delay\": 0.2, \"data\": \"Hello\"}, found a string"
            ]),
        .init(
            "event fields of the wrong kind", configuration: #"{"stream": [{"event": 1, "retry": -5, "id": null}]}"#,
            [
                "\(LoaderErrorCase.at):1:23: error: a chunk's 'event' must be a string, found an integer",
                "\(LoaderErrorCase.at):1:35: error: a chunk's 'retry' must be a whole number of milliseconds, 0 or more, found -5",
                "\(LoaderErrorCase.at):1:45: error: a chunk's 'id' must be a string, found null",
            ]),
        .init(
            "a stream beside a body", configuration: #"{"body": "x", "stream": [{"data": "a"}]}"#,
            [
                "\(LoaderErrorCase.at):1:15: error: 'stream' and 'body' cannot both be given; keep one of them"
            ]),
        .init(
            "stream_repeat without a stream", configuration: #"{"body": "x", "stream_repeat": true}"#,
            [
                "\(LoaderErrorCase.at):1:15: error: 'stream_repeat' goes with a 'stream'; give the stream's chunks, or remove it"
            ]),
        .init(
            "stream_repeat that is no boolean", configuration: #"{"stream": [{"data": "a"}], "stream_repeat": 1}"#,
            [
                "\(LoaderErrorCase.at):1:46: error: 'stream_repeat' must be true or false, found an integer"
            ]),
        .init(
            "a repeated stream without pause",
            configuration: #"{"stream": [{"data": "a"}, {"data": "b"}], "stream_repeat": true}"#,
            [
                "\(LoaderErrorCase.at):1:12: error: a repeated stream needs a chunk with a delay above 0, or it would send without pause; give one a 'delay'"
            ]),
        .init(
            "a fault beside a stream", configuration: #"{"stream": [{"data": "a"}], "fault": "truncated_body"}"#,
            [
                "\(LoaderErrorCase.at):1:29: error: 'fault' cannot stand beside 'stream'; a stream is sent whole, chunk by chunk"
            ]),
        .init(
            "a 204 that streams", configuration: #"{"status_code": 204, "stream": [{"data": "a"}]}"#,
            [
                "\(LoaderErrorCase.at):1:22: error: a 204 response has no body, so it cannot stream; use a status such as 200"
            ]),
        .init(
            "a template that does not parse in a chunk",
            configuration: #"{"template": true, "stream": [{"id": "{{call", "data": {"n": "{{#x}}"}}]}"#,
            [
                "\(LoaderErrorCase.at):1:39: error: the template does not parse: this tag is never closed: end it with `}}`",
                "\(LoaderErrorCase.at):1:63: error: the template does not parse: section `x` is never closed: add `{{/x}}` after its content",
            ]),
        .init(
            "an unknown delay distribution",
            configuration: #"{"delay": {"distribution": "normal", "median": 1, "sigma": 1}}"#,
            [
                "\(LoaderErrorCase.at):1:28: error: 'distribution' must be \"uniform\" or \"lognormal\", found \"normal\"; did you mean 'lognormal'?"
            ]),
        .init(
            "a lognormal delay with a range's keys",
            configuration: #"{"delay": {"distribution": "lognormal", "min": 1, "sigma": 1}}"#,
            [
                "\(LoaderErrorCase.at):1:41: error: 'min' belongs to a delay range; a lognormal delay takes 'median', 'sigma' and 'max'",
                "\(LoaderErrorCase.at):1:11: error: a lognormal delay needs 'median' and 'sigma' (and may cap it with 'max'); 'median' is missing",
            ]),
        .init(
            "a lognormal median of 0 and a negative sigma",
            configuration: #"{"delay": {"distribution": "lognormal", "median": 0, "sigma": -1}}"#,
            [
                "\(LoaderErrorCase.at):1:63: error: 'sigma' must not be negative; use 0 or more"
            ]),
        .init(
            "a lognormal median of 0",
            configuration: #"{"delay": {"distribution": "lognormal", "median": 0, "sigma": 1}}"#,
            [
                "\(LoaderErrorCase.at):1:51: error: a lognormal delay's 'median' must be more than 0 seconds"
            ]),
        .init(
            "a lognormal cap below the median",
            configuration: #"{"delay": {"distribution": "lognormal", "median": 2, "sigma": 1, "max": 1}}"#,
            [
                "\(LoaderErrorCase.at):1:73: error: the lognormal delay's 'max' 1s is below its 'median' 2s; give 'max' ≥ 'median'"
            ]),
        .init(
            "a uniform delay named with a lognormal key",
            configuration: #"{"delay": {"distribution": "uniform", "min": 1, "max": 2, "median": 1}}"#,
            [
                "\(LoaderErrorCase.at):1:59: error: 'median' belongs to a lognormal delay; a delay range takes 'min' and 'max' (add \"distribution\": \"lognormal\" for a lognormal one)"
            ]),
        .init(
            "a chunk delay distribution with a mistake",
            configuration: #"{"stream": [{"delay": {"min": 1}, "data": "a"}]}"#,
            [
                "\(LoaderErrorCase.at):1:23: error: a delay range needs 'min' and 'max'; 'max' is missing"
            ]),
    ]

    @Test(arguments: cases) func reportsTheMistakeWhereItIs(_ testCase: LoaderErrorCase) throws {
        try testCase.check()
    }
}
