import COpenAL

/// Owns one OpenAL buffer holding float PCM; deleting it is the last thing it does.
///
/// `@unchecked Sendable`: the buffer name is immutable after `init` and OpenAL Soft's buffer calls
/// are thread-safe. The device is kept alive by this reference, so the buffer never outlives it.
final class OpenALBuffer: @unchecked Sendable {
    let device: OpenALDevice
    let id: ALuint

    /// Uploads `audio` (mono or stereo float samples) into a new buffer.
    init(device: OpenALDevice, audio: PCMAudio) throws(AudioEngineError) {
        guard audio.channels == 1 || audio.channels == 2 else {
            throw .invalidArgument(name: "channel count", value: "\(audio.channels)", expected: "1 or 2")
        }
        self.device = device
        var id: ALuint = 0
        try withOpenAL(device, "alGenBuffers") { alGenBuffers(1, &id) }
        self.id = id
        try Self.fill(id, device: device, audio: audio)
    }

    /// Replaces the buffer's contents; used by streaming, where a buffer is refilled when it comes back
    /// from the source's queue.
    func fill(_ audio: PCMAudio) throws(AudioEngineError) {
        try Self.fill(id, device: device, audio: audio)
    }

    private static func fill(_ id: ALuint, device: OpenALDevice, audio: PCMAudio) throws(AudioEngineError) {
        let format = audio.channels == 1 ? AL_FORMAT_MONO_FLOAT32 : AL_FORMAT_STEREO_FLOAT32
        try withOpenAL(device, "alBufferData(\(audio.frameCount) frames)") {
            audio.samples.withUnsafeBytes { raw in
                alBufferData(id, format, raw.baseAddress, ALsizei(raw.count), ALsizei(audio.sampleRate))
            }
        }
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
