/// A sound played from its file as it is heard, for audio too long to hold decoded: a voice note of
/// an hour, a long recording, a track outside the catalogue.
///
/// Making one reads only the file's headers. Each ``AudioEngine/play(_:options:at:)-(SoundStream,_,_)``
/// opens the file anew and decodes it a few chunks ahead on the engine's streaming worker (offline:
/// as the render reaches them), through the same queue that streams catalogue music, so the memory a
/// playing stream holds is bounded whatever the file's length (``AudioEngine/streamedBytes``).
/// Streamed voices pause, resume and seek (``AudioEngine/seek(_:toFrame:)``) to the exact frame.
///
/// ```swift
/// let talk = try engine.makeStream(fileAt: "/home/me/notes/lecture.ogg")
/// let voice = engine.play(talk, options: PlayOptions(bus: .voice))
/// ```
public final class SoundStream: Sendable {
    /// The name events and messages use for it (the file name unless given).
    public let name: String
    /// The file it plays.
    public let path: String
    /// Frames per second of the file (the engine resamples to its own rate).
    public let sampleRate: Int
    /// 1 (mono) or 2 (stereo): what decoding gives, files with more channels mixed down.
    public let channels: Int
    /// Length in frames, from the file's headers.
    public let frameCount: Int
    /// The id its voices count under (for instance limits and events).
    let id: SoundID
    /// The ring of the engine that made it, which tells that engine's streams from others'.
    let ring: CommandRing

    init(name: String, path: String, info: AudioFileInfo, id: SoundID, ring: CommandRing) {
        self.name = name
        self.path = path
        self.sampleRate = info.sampleRate
        self.channels = info.channels
        self.frameCount = info.frameCount
        self.id = id
        self.ring = ring
    }

    /// Its length.
    public var duration: Duration { .seconds(Double(frameCount) / Double(max(sampleRate, 1))) }

    /// The catalogue-style entry the stream feeder reads the file through.
    func entry(loop: Bool) -> SoundEntry {
        SoundEntry(name: name, path: path, resolvedPath: path, kind: .voice, loop: loop, stream: true)
    }
}
