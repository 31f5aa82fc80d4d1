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
    /// The file's format, rate, channels (as decoded: 1 or 2) and length in frames, from its headers;
    /// the engine resamples to its own rate.
    public let info: AudioFileInfo
    /// The id its voices count under, and the ring of the engine that made it (which tells that
    /// engine's streams from others').
    let id: SoundID
    let ring: CommandRing

    init(name: String, path: String, info: AudioFileInfo, id: SoundID, ring: CommandRing) {
        (self.name, self.path, self.info, self.id, self.ring) = (name, path, info, id, ring)
    }

    /// Its length.
    public var duration: Duration { info.duration }

    /// The catalogue-style entry the stream feeder reads the file through.
    func entry(loop: Bool) -> SoundEntry {
        SoundEntry(name: name, path: path, resolvedPath: path, kind: .voice, loop: loop, stream: true)
    }
}
