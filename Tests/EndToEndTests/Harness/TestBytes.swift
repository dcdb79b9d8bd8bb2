/// Deterministic, non-trivial byte content for byte-exact body checks.
enum TestBytes {
    /// `count` pseudo-random bytes (SplitMix64) covering every byte value, including NUL, CR and LF.
    static func pseudoRandom(count: Int, seed: UInt64 = 0x5EED) -> [UInt8] {
        var state = seed
        var bytes = [UInt8]()
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            withUnsafeBytes(of: z.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }

    /// A small PNG-like file: the PNG signature, an IHDR-shaped chunk, then binary noise.
    static let pngLike: [UInt8] =
        [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
            0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x10, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0xF3, 0xFF, 0x61,
        ]
        + pseudoRandom(count: 1500, seed: 42)
        + [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
}
