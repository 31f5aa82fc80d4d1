/// Offline output's driver: no thread. ``AudioEngine/render(frames:)`` turns the mixer on its
/// caller's thread, carrying out every command written before it at its frame, and the clock is
/// the frames rendered so far, so the same calls always give the same samples.
final class OfflineDriver: OutputDriver {
    var isHeard: Bool { true }
    var rendersOnCaller: Bool { true }
    var isDevice: Bool { false }
    func clockFrame(rendered: Int64) -> Int64 { rendered }
    func start(engine: AudioEngine) {}
    func stop(wait: Bool) {}

    /// Mixes the next `frames` frames into `buffer` (every sample written), holding the mixer.
    func render(_ mixer: Mixer, into buffer: UnsafeMutableBufferPointer<Float>, frames: Int) {
        mixer.run { mixer.mixChunks(into: buffer, frames: frames) }
    }
}
