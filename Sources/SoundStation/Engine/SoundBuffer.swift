/// Decoded audio uploaded to the engine's device, ready to play with no work left on the trigger path.
///
/// One buffer serves every voice that plays it; it is freed when the last reference goes away, and a
/// playing voice keeps a reference, so freeing never cuts a sound off.
public final class SoundBuffer: Sendable {
    /// The name it was loaded under (a catalogue name or a file name), used in events and messages.
    public let name: String
    /// Frames per second.
    public let sampleRate: Int
    /// 1 (mono) or 2 (stereo).
    public let channels: Int
    /// Length in frames.
    public let frameCount: Int
    /// Bytes of PCM held by the device.
    public let byteCount: Int
    let storage: OpenALBuffer

    init(name: String, audio: PCMAudio, device: OpenALDevice) throws(AudioEngineError) {
        self.name = name
        self.sampleRate = audio.sampleRate
        self.channels = audio.channels
        self.frameCount = audio.frameCount
        self.byteCount = audio.byteCount
        self.storage = try OpenALBuffer(device: device, audio: audio)
    }

    /// Length in seconds.
    public var duration: Double { Double(frameCount) / Double(sampleRate) }
}
