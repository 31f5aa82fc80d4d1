/// Decodes little-endian RIFF/WAVE files holding integer PCM (8-bit unsigned, 16, 24, 32-bit) or
/// IEEE float (32, 64-bit), plain or WAVE_FORMAT_EXTENSIBLE (any valid bits in those containers),
/// with any number of channels, in Swift; every other WAV (RIFX, RF64, mu-law, A-law, ADPCM, packed
/// widths) is handed to libsndfile by ``AudioDecoder``.
///
/// A `data` chunk shorter than its header declares loads what is there with a warning, or is a
/// ``AudioDecodingError/truncated(path:reason:)`` error with ``DecodingOptions/strict``.
public enum WAVDecoder {
    /// Decodes a whole WAV held in memory.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - name: The file name to use in error messages.
    ///   - options: Channel handling and strictness; by default more than two channels are mixed
    ///     down and a file cut short loads with a warning.
    /// - Returns: The samples converted to Float in -1...1.
    /// - Throws: ``AudioDecodingError`` naming `name` and what is wrong.
    public static func decode(
        bytes: [UInt8], name: String, options: DecodingOptions = DecodingOptions()
    ) throws(AudioDecodingError) -> PCMAudio {
        let layout = try WAVLayout(of: bytes, name: name)
        guard layout.isNative else {
            return try layout.libraryDecoder(source: bytes, name: name, options: options).readAll()
        }
        return try decode(layout: layout, from: bytes, name: name, options: options)
    }

    /// Decodes the samples of a native layout from `source`, warning or failing when cut short.
    static func decode(
        layout: WAVLayout, from source: some ByteSource, name: String, options: DecodingOptions
    ) throws(AudioDecodingError) -> PCMAudio {
        if let shortfall = layout.shortfall {
            try options.cutShort(path: name, reason: shortfall)
        }
        let format = layout.format
        let mixer = ChannelMixer(roles: format.channelRoles, selection: options.channels)
        // Before a byte is read: the frames the file holds say what decoding them would take.
        try AudioDecoder.checkHoldable(
            frames: layout.frameCount, channels: max(format.channels, mixer.outputChannels),
            sampleRate: format.sampleRate, name: name)
        let sampleCount = layout.frameCount * format.channels
        let raw = try source.bytes(at: layout.dataOffset, count: sampleCount * format.encoding.bytesPerSample)
        let bigEndian = layout.container == .rifx
        let samples = raw.withUnsafeBytes {
            convert($0, count: sampleCount, from: format.encoding, bigEndian: bigEndian)
        }
        return PCMAudio(
            sampleRate: format.sampleRate, channels: mixer.outputChannels, samples: mixer.mix(samples))
    }

    /// Reads the header facts of a WAV held in memory without converting any samples.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - name: The file name to use in error messages.
    /// - Returns: Rate, channels as decoded, frames present and the encoding.
    /// - Throws: ``AudioDecodingError`` naming `name` and what is wrong.
    public static func info(bytes: [UInt8], name: String) throws(AudioDecodingError) -> AudioFileInfo {
        let layout = try WAVLayout(of: bytes, name: name)
        return layout.isNative
            ? layout.info
            : try layout.libraryDecoder(source: bytes, name: name, options: DecodingOptions()).info
    }

    /// Converts `count` samples to Float; the layout has checked they are all there.
    static func convert(
        _ raw: UnsafeRawBufferPointer, count: Int, from encoding: WAVFormat.Encoding, bigEndian: Bool
    ) -> [Float] {
        if bigEndian, encoding.bytesPerSample > 1 {
            // RIFX: reverse each sample's bytes once, then read it as little-endian.
            let width = encoding.bytesPerSample
            var swapped = [UInt8](repeating: 0, count: count * width)
            for i in 0..<count {
                for byte in 0..<width { swapped[i * width + byte] = raw[i * width + width - 1 - byte] }
            }
            return swapped.withUnsafeBytes { convert($0, count: count, from: encoding, bigEndian: false) }
        }
        return [Float](unsafeUninitializedCapacity: count) { out, initialized in
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
            case .library:
                // Never reached: library encodings are decoded by libsndfile.
                for i in 0..<count { out[i] = 0 }
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
