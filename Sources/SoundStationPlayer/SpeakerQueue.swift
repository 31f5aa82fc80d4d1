import COpenAL
import SoundStation

/// The pieces ``RemoteSpeaker`` keeps queued on its one streaming source, in queue order, and the
/// buffers free to fill: it says how many frames the device has taken, and never counts a piece the
/// device did not play.
///
/// OpenAL counts every buffer of a stopped source as processed, those queued after it stopped
/// included. A source that runs dry while the next pieces are being rendered stops before they are
/// appended, so the count taken after it would have them played; they were never heard, and each
/// such piece was lost from the stream (20 ms of a Starfall session, cut at its music's switch,
/// whose start made that render slow). ``append(_:)`` reads the state after it appends: a stopped
/// source has run dry before the new pieces came (it stops only at the end of its queue), so only
/// the pieces before them have played.
///
/// Used on the speaker's thread only.
struct SpeakerQueue {
    let source: OpenALSource
    let pieceFrames: Int
    /// The buffers on the source, in queue order.
    private(set) var queued: [OpenALBuffer] = []
    /// Buffers to fill with the next pieces.
    var free: [OpenALBuffer] = []

    init(source: OpenALSource, pieceFrames: Int) {
        self.source = source
        self.pieceFrames = pieceFrames
    }

    /// Takes the pieces the source has finished with off the queue into ``free``.
    /// - Returns: Whether the source has stopped (run dry, or stopped by the speaker), read before
    ///   the count so a stopped source's count is its whole queue, and the frames taken off.
    mutating func reclaim() -> (dry: Bool, frames: Int) {
        let dry = source.state != .playing
        let processed = min(source.processedBuffers, queued.count)
        guard processed > 0, (try? source.unqueue(count: processed)) != nil else { return (dry, 0) }
        free += queued.prefix(processed)
        queued.removeFirst(processed)
        return (dry, processed * pieceFrames)
    }

    /// Stops the source and takes its whole queue off (``OpenALSource/stop()`` detaches it: the
    /// buffers are free at once, none is left counted as queued).
    /// - Returns: The frames of the pieces dropped unheard.
    mutating func stopAndEmpty() -> Int {
        source.stop()
        defer {
            free += queued
            queued = []
        }
        return queued.count * pieceFrames
    }

    /// Appends filled buffers to the queue.
    /// - Returns: Whether the source had run dry before they came (it is stopped, and must play
    ///   again), and the frames of the pieces before them, which it played and which are now taken
    ///   off (the new ones stay queued, to play from the start).
    mutating func append(_ buffers: [OpenALBuffer]) -> (ranDry: Bool, frames: Int) {
        guard !buffers.isEmpty, (try? source.queue(buffers)) != nil else { return (false, 0) }
        queued += buffers
        guard source.state == .stopped else { return (false, 0) }
        let played = queued.count - buffers.count
        guard played > 0 else { return (true, 0) }
        // Off and on again: a stopped source counts the whole queue as processed.
        guard (try? source.unqueue(count: queued.count)) != nil else { return (true, 0) }
        free += queued.prefix(played)
        queued = []
        guard (try? source.queue(buffers)) != nil else {
            free += buffers
            return (true, played * pieceFrames)
        }
        queued = buffers
        return (true, played * pieceFrames)
    }
}
