import SoundStation

/// Writes 24-bit integer PCM WAV files, which `WAVWriter` does not offer; the bomb tick uses
/// one so the catalogue exercises every PCM depth the decoder reads.
enum WAV24Writer {
    /// The bytes of a 24-bit PCM WAV file holding `audio`, clamped to -1...1.
    static func encode(_ audio: PCMAudio) -> [UInt8] {
        let bytesPerSample = 3
        let dataSize = audio.samples.count * bytesPerSample
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + dataSize + 1)
        // The data chunk is padded to an even size, as RIFF requires.
        let padding = dataSize % 2
        bytes += Array("RIFF".utf8)
        append(UInt32(36 + dataSize + padding), to: &bytes)
        bytes += Array("WAVEfmt ".utf8)
        append(UInt32(16), to: &bytes)
        append(UInt16(1), to: &bytes)
        append(UInt16(audio.channels), to: &bytes)
        append(UInt32(audio.sampleRate), to: &bytes)
        append(UInt32(audio.sampleRate * audio.channels * bytesPerSample), to: &bytes)
        append(UInt16(audio.channels * bytesPerSample), to: &bytes)
        append(UInt16(24), to: &bytes)
        bytes += Array("data".utf8)
        append(UInt32(dataSize), to: &bytes)
        let fullScale = 8_388_608.0
        for sample in audio.samples {
            let clamped = sample.isNaN ? 0 : min(max(Double(sample), -1), 1)
            let value = Int32(min(max((clamped * fullScale).rounded(), -fullScale), fullScale - 1))
            for shift in [0, 8, 16] {
                bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
        if padding == 1 { bytes.append(0) }
        return bytes
    }

    /// Writes `audio` as a 24-bit WAV file at `path`.
    static func write(_ audio: PCMAudio, toFileAt path: String) throws {
        try FileOutput.write(encode(audio), to: path)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        for index in 0..<MemoryLayout<T>.size {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index)))
        }
    }
}
