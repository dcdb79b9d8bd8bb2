import EspressoMartini
import Glibc

/// What a forwarded exchange keeps of its request and its answer for the recording (`record`, spy mode),
/// tapped as they pass: the request's head and the start of its body, and the answer's body, in memory
/// while it is at most `inMemory` bytes, beyond in a file of the writer's scratch folder. Once the transfer
/// has ended whole, the exchange goes to the `RecordingWriter`. On the exchange's loop.
final class RecordingTap {
    static let inMemory = 64 << 10

    private let writer: RecordingWriter
    private let method: HTTPMethod
    private let path: String
    private let segments: RequestPath
    private let rawQuery: String
    private let requestHeaders: [HTTPHeader]
    private let requestHasBody: Bool
    /// The start of the request's body (what conditions read), and its whole size.
    private var requestBody: [UInt8] = []
    private var requestBodySize = 0
    /// The answer's body: in memory while it is small, else in a file; neither before the answer's head,
    /// or for an answer without a body.
    private var answerBody: [UInt8]?
    private var answerFile: RecordingFile?
    /// Nothing can be recorded (a body too large for memory, and no file for it).
    private var gaveUp = false

    /// For `request`, whose method a folder can name (`method`); `hasBody` when it has one.
    init(request: Request, method: HTTPMethod, hasBody: Bool, writer: RecordingWriter) {
        self.writer = writer
        self.method = method
        path = request.path
        segments = request.segments
        rawQuery = request.rawQuery
        requestHeaders = request.headers.all
        requestHasBody = hasBody
    }

    /// A piece of the request's body.
    func tapRequest(_ bytes: UnsafeRawBufferPointer) {
        requestBodySize += bytes.count
        let room = VariantConditions.bodyLimit - requestBody.count
        if room > 0 { requestBody.append(contentsOf: bytes.prefix(room)) }
    }

    /// The answer's head has come; its body is kept from now on, unless it has none.
    func answerStarts(bodiless: Bool) {
        if !bodiless { answerBody = [] }
    }

    /// A piece of the answer's body.
    func tapAnswer(_ bytes: UnsafeRawBufferPointer) {
        if let file = answerFile {
            file.write(bytes)
            return
        }
        guard answerBody != nil else { return }
        guard answerBody!.count + bytes.count > Self.inMemory else {
            answerBody!.append(contentsOf: bytes)
            return
        }
        guard let file = RecordingFile(folder: writer.scratchFolder) else {
            gaveUp = true
            answerBody = nil
            return
        }
        answerBody!.withUnsafeBytes { file.write($0) }
        file.write(bytes)
        answerFile = file
        answerBody = nil
    }

    /// The transfer ended whole with `head`: the exchange goes to the writer, which calls `then` once it is
    /// written. False, with nothing kept, when it cannot be recorded.
    func submit(head: UpstreamHead, then: @escaping @Sendable () -> Void) -> Bool {
        guard !gaveUp else { return false }
        var bodyFile: String?
        if let file = answerFile {
            answerFile = nil
            guard file.close() else { return false }
            if file.size > 0 { bodyFile = file.path } else { unlink(file.path) }
        }
        let bodyBytes = answerBody.flatMap { $0.isEmpty ? nil : $0 }
        answerBody = nil
        let exchange = RecordedExchange(
            method: method, path: path, segments: segments, rawQuery: rawQuery, requestHeaders: requestHeaders,
            requestBody: requestHasBody ? requestBody : nil,
            requestBodySize: requestBodySize, statusCode: head.statusCode, responseHeaders: head.headers,
            responseBodyFile: bodyFile,
            responseBodyBytes: bodyBytes, contentDecoded: false
        )
        let encoding = bodyFile == nil && bodyBytes == nil ? nil : head.contentEncoding
        writer.submit(RecordingWriter.Job(exchange: exchange, encoding: encoding, then: then))
        return true
    }

    /// Nothing is recorded: the body file goes.
    func discard() {
        answerFile?.discard()
        answerFile = nil
        answerBody = nil
    }
}
