extension JournalEntry {
    /// The request as it was recorded, for conditions to read (doc/testing.md): its headers read in place
    /// from the packed copy, its body the part the journal kept (`bodySize` says whether that is all of it);
    /// no body for a request without one, as the server builds it.
    public var recordedRequest: Request {
        Request(
            method: method, path: path, rawQuery: query, headers: RequestHeaders(reading: PackedHeaders(packedHeaders)),
            body: bodySize > 0 ? body : nil,
            bodySize: bodySize
        )
    }
}
