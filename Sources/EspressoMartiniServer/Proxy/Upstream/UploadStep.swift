/// What a transfer's upload does next.
enum UploadStep {
    /// This many bytes were written.
    case bytes(Int)
    /// The body is complete.
    case end
    /// None yet: the upload pauses until `CurlTransfer.unpause()`.
    case wait
    /// The transfer fails.
    case abort
}
