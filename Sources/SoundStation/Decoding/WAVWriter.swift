/// How ``WAVWriter`` stores samples.
public enum WAVSampleFormat: Sendable {
    /// 16-bit integer PCM (format tag 1): half the size, what every tool reads.
    case int16
    /// 32-bit IEEE float (format tag 3): lossless for ``PCMAudio``, for debugging the mixer.
    case float32
}

/// Writes ``PCMAudio`` as a canonical WAV file (`RIFF`, `fmt `, [`fact`], `data`).
public enum WAVWriter {
    /// The bytes of a WAV file holding `audio`.
    /// - Parameters:
    ///   - audio: The samples; int16 output clamps them to -1...1.
    ///   - format: How to store each sample.
    /// - Returns: The whole file: headers and interleaved little-endian samples.
    public static func encode(_ audio: PCMAudio, format: WAVSampleFormat) -> [UInt8] {
        let bytesPerSample = format == .int16 ? 2 : 4
        let dataSize = audio.samples.count * bytesPerSample
        var bytes: [UInt8] = []
        bytes.reserveCapacity(dataSize + 58)

        bytes.append(contentsOf: Array("RIFF".utf8))
        bytes.appendLittleEndian(UInt32(0))  // patched below, once every chunk is in
        bytes.append(contentsOf: Array("WAVE".utf8))

        // Non-PCM fmt chunks carry a cbSize field and should be followed by `fact`, per the spec.
        let isFloat = format == .float32
        bytes.append(contentsOf: Array("fmt ".utf8))
        bytes.appendLittleEndian(UInt32(isFloat ? 18 : 16))
        bytes.appendLittleEndian(UInt16(isFloat ? 3 : 1))
        bytes.appendLittleEndian(UInt16(audio.channels))
        bytes.appendLittleEndian(UInt32(audio.sampleRate))
        bytes.appendLittleEndian(UInt32(audio.sampleRate * audio.channels * bytesPerSample))
        bytes.appendLittleEndian(UInt16(audio.channels * bytesPerSample))
        bytes.appendLittleEndian(UInt16(bytesPerSample * 8))
        if isFloat {
            bytes.appendLittleEndian(UInt16(0))
            bytes.append(contentsOf: Array("fact".utf8))
            bytes.appendLittleEndian(UInt32(4))
            bytes.appendLittleEndian(UInt32(audio.frameCount))
        }

        bytes.append(contentsOf: Array("data".utf8))
        bytes.appendLittleEndian(UInt32(dataSize))
        for sample in audio.samples {
            switch format {
            case .int16:
                let clamped = sample.isNaN ? 0 : min(max(sample, -1), 1)
                bytes.appendLittleEndian(
                    UInt16(bitPattern: Int16(clamping: Int((clamped * 32_768).rounded()))))
            case .float32:
                bytes.appendLittleEndian(sample.bitPattern)
            }
        }
        // Both sample sizes are even, so the data chunk never needs a pad byte.
        let riffSize = UInt32(bytes.count - 8)
        for i in 0..<4 {
            bytes[4 + i] = UInt8(truncatingIfNeeded: riffSize >> (8 * i))
        }
        return bytes
    }

    /// Writes `audio` to a WAV file, replacing any file at `path`.
    /// - Parameters:
    ///   - audio: The samples.
    ///   - path: The output file.
    ///   - format: How to store each sample.
    /// - Throws: ``AudioEncodingError/cannotCreate(path:reason:)`` when the file cannot be created;
    ///   ``AudioEncodingError/writeFailed(path:reason:)`` when writing or closing it fails (a full disk).
    public static func write(
        _ audio: PCMAudio, toFileAt path: String, format: WAVSampleFormat
    ) throws(AudioEncodingError) {
        let file = try OutputFile(path: path)
        try file.write(encode(audio, format: format))
        try file.close()
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        for i in 0..<MemoryLayout<T>.size {
            append(UInt8(truncatingIfNeeded: value >> (8 * i)))
        }
    }
}
