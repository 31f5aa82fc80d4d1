/// Stands in for a streamed track's decoder on an engine nobody hears (silent and remote output):
/// it gives silence of the track's length (in one channel, whatever the file's), so the voice plays,
/// loops and ends exactly when the track would, without decoding a sample of it.
///
/// The real decoder is opened first (a file that cannot be opened is refused as on a device) and
/// dropped once its ``AudioFileInfo`` is known; damage later in the file goes unnoticed, as nothing
/// reads it.
final class SilentDecoder: StreamingDecoder {
    let info: AudioFileInfo
    private var position = 0

    /// - Parameter info: The track's format and length, from its real decoder.
    init(info: AudioFileInfo) {
        self.info = info
    }

    func read(maxFrames: Int) -> [Float] {
        let frames = max(min(maxFrames, info.frameCount - position), 0)
        position += frames
        return [Float](repeating: 0, count: frames * info.channels)
    }

    func seek(toFrame frame: Int) {
        position = min(max(frame, 0), max(info.frameCount, 0))
    }
}
