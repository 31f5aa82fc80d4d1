import COpenAL

/// Owns one OpenAL buffer holding float or 16-bit PCM; deleting it is the last thing it does.
///
/// `@unchecked Sendable`: the buffer name is immutable after `init` and OpenAL Soft's buffer calls
/// are thread-safe. The device is kept alive by this reference, so the buffer never outlives it.
package final class OpenALBuffer: @unchecked Sendable {
    let device: OpenALDevice
    package let id: ALuint
    /// Bytes the device holds for it.
    private(set) var byteCount = 0

    /// Uploads `audio` (mono or stereo float samples) into a new buffer.
    /// - Parameter compact: Store it as 16-bit PCM when every sample is exactly a 16-bit value (a
    ///   16- or 8-bit source): half the memory, the same samples to the bit. Streams pass false, as
    ///   every buffer of one queue must share its format.
    package init(device: OpenALDevice, audio: PCMAudio, compact: Bool = false) throws(AudioEngineError) {
        guard audio.channels == 1 || audio.channels == 2 else {
            throw .invalidArgument(name: "channel count", value: "\(audio.channels)", expected: "1 or 2")
        }
        self.device = device
        var id: ALuint = 0
        try withOpenAL(device, "alGenBuffers") { alGenBuffers(1, &id) }
        self.id = id
        byteCount = try Self.fill(id, device: device, audio: audio, compact: compact)
    }

    /// Replaces the buffer's contents (float); used by streaming, where a buffer is refilled when it
    /// comes back from the source's queue.
    package func fill(_ audio: PCMAudio) throws(AudioEngineError) {
        byteCount = try Self.fill(id, device: device, audio: audio, compact: false)
    }

    /// Replaces the buffer's contents with float `samples` without copying them into an array first
    /// (a filtered voice's block, from its feeder's slot).
    func fill(_ samples: UnsafeBufferPointer<Float>, sampleRate: Int, channels: Int) throws(AudioEngineError)
    {
        let id = self.id
        let format = channels == 1 ? AL_FORMAT_MONO_FLOAT32 : AL_FORMAT_STEREO_FLOAT32
        try withOpenAL(device, "alBufferData(\(samples.count / max(channels, 1)) frames)") {
            alBufferData(
                id, format, samples.baseAddress, ALsizei(samples.count * MemoryLayout<Float>.size),
                ALsizei(sampleRate))
        }
        byteCount = samples.count * MemoryLayout<Float>.size
    }

    /// ``fill(_:sampleRate:channels:)`` for a caller already inside `device.withContext` (a refill of
    /// many voices under one lock).
    /// - Returns: False when OpenAL refused the data.
    func fillInContext(_ samples: UnsafeBufferPointer<Float>, sampleRate: Int, channels: Int) -> Bool {
        let format = channels == 1 ? AL_FORMAT_MONO_FLOAT32 : AL_FORMAT_STEREO_FLOAT32
        alBufferData(
            id, format, samples.baseAddress, ALsizei(samples.count * MemoryLayout<Float>.size),
            ALsizei(sampleRate))
        guard alGetError() == AL_NO_ERROR else { return false }
        byteCount = samples.count * MemoryLayout<Float>.size
        return true
    }

    /// Uploads `audio` and returns the bytes the device keeps.
    private static func fill(_ id: ALuint, device: OpenALDevice, audio: PCMAudio, compact: Bool)
        throws(AudioEngineError) -> Int
    {
        if compact, let pcm16 = exactPCM16(audio.samples) {
            let format = audio.channels == 1 ? AL_FORMAT_MONO16 : AL_FORMAT_STEREO16
            try withOpenAL(device, "alBufferData(\(audio.frameCount) frames, 16-bit)") {
                pcm16.withUnsafeBytes { raw in
                    alBufferData(id, format, raw.baseAddress, ALsizei(raw.count), ALsizei(audio.sampleRate))
                }
            }
            return pcm16.count * MemoryLayout<Int16>.size
        }
        let format = audio.channels == 1 ? AL_FORMAT_MONO_FLOAT32 : AL_FORMAT_STEREO_FLOAT32
        try withOpenAL(device, "alBufferData(\(audio.frameCount) frames)") {
            audio.samples.withUnsafeBytes { raw in
                alBufferData(id, format, raw.baseAddress, ALsizei(raw.count), ALsizei(audio.sampleRate))
            }
        }
        return audio.samples.count * MemoryLayout<Float>.size
    }

    /// The samples as 16-bit integers when each is exactly `n / 32768` for an `Int16` `n` (what a
    /// 16- or 8-bit source decodes to), else `nil`; a float source fails within its first samples.
    static func exactPCM16(_ samples: [Float]) -> [Int16]? {
        var result = [Int16]()
        result.reserveCapacity(samples.count)
        for sample in samples {
            let scaled = sample * 32_768
            guard scaled >= -32_768, scaled <= 32_767, scaled == scaled.rounded(.towardZero) else {
                return nil
            }
            result.append(Int16(scaled))
        }
        return result
    }

    /// Makes a looping source repeat only `range` of the buffer, so an intro plays once.
    func setLoopPoints(_ range: Range<Int>) throws(AudioEngineError) {
        var points: [ALint] = [ALint(range.lowerBound), ALint(range.upperBound)]
        let id = self.id
        try withOpenAL(device, "alBufferiv(AL_LOOP_POINTS_SOFT)") {
            alBufferiv(id, AL_LOOP_POINTS_SOFT, &points)
        }
    }

    deinit {
        var id = self.id
        device.withContext {
            alDeleteBuffers(1, &id)
            _ = alGetError()
        }
    }
}
