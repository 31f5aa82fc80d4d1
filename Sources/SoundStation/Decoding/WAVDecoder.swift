/// Decodes RIFF/WAVE files holding integer PCM (8-bit unsigned, 16, 24, 32-bit) or IEEE float
/// (32, 64-bit), plain or WAVE_FORMAT_EXTENSIBLE, mono or stereo.
///
/// A `data` chunk shorter than its header declares is reported as ``AudioDecodingError/truncated(path:reason:)``
/// rather than played partially: a sound that silently loses its tail is harder to notice than an error
/// at load time.
public enum WAVDecoder {
    /// Decodes a whole WAV held in memory.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - name: The file name to use in error messages.
    /// - Returns: The samples converted to Float in -1...1.
    public static func decode(bytes: [UInt8], name: String) throws(AudioDecodingError) -> PCMAudio {
        let layout = try WAVLayout(of: bytes, name: name)
        let format = layout.format
        let sampleCount = layout.frameCount * format.channels
        let start = layout.dataOffset
        let samples = bytes.withUnsafeBytes { raw in
            convert(UnsafeRawBufferPointer(rebasing: raw[start...]), count: sampleCount, from: format.encoding)
        }
        return PCMAudio(sampleRate: format.sampleRate, channels: format.channels, samples: samples)
    }

    /// Reads the header facts of a WAV held in memory without converting any samples.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - name: The file name to use in error messages.
    public static func info(bytes: [UInt8], name: String) throws(AudioDecodingError) -> AudioFileInfo {
        try WAVLayout(of: bytes, name: name).info
    }

    /// Converts `count` little-endian samples to Float; the layout has checked they are all there.
    private static func convert(
        _ raw: UnsafeRawBufferPointer, count: Int, from encoding: WAVFormat.Encoding
    ) -> [Float] {
        [Float](unsafeUninitializedCapacity: count) { out, initialized in
            switch encoding {
            case .unsigned8:
                for i in 0..<count {
                    out[i] = (Float(raw[i]) - 128) / 128
                }
            case .signed(bytes: 2):
                for i in 0..<count {
                    let value = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: i * 2, as: Int16.self))
                    out[i] = Float(value) / 32_768
                }
            case .signed(bytes: 3):
                for i in 0..<count {
                    // The top byte is read as signed so the shift sign-extends the 24-bit value.
                    let low = Int32(raw[i * 3]) | Int32(raw[i * 3 + 1]) << 8
                    let value = low | Int32(Int8(bitPattern: raw[i * 3 + 2])) << 16
                    out[i] = Float(value) / 8_388_608
                }
            case .signed:
                for i in 0..<count {
                    let value = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 4, as: Int32.self))
                    out[i] = Float(Double(value) / 2_147_483_648)
                }
            case .float(bytes: 4):
                for i in 0..<count {
                    let bits = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
                    out[i] = sanitized(Float(bitPattern: bits))
                }
            case .float:
                for i in 0..<count {
                    let bits = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
                    out[i] = sanitized(Float(Double(bitPattern: bits)))
                }
            }
            initialized = count
        }
    }

    /// Float files may hold overs or NaN; one NaN would poison the whole mix, so clamp to the
    /// range ``PCMAudio`` promises.
    private static func sanitized(_ value: Float) -> Float {
        value.isNaN ? 0 : min(max(value, -1), 1)
    }
}
