import Dispatch

/// Plays a long track through a short queue of OpenAL buffers, decoded ahead on a worker so that
/// memory stays bounded whatever the track's length and no decoding happens under the engine's lock.
///
/// Two sides share it:
/// - the decoding side opens the file and decodes chunks ahead, on the streaming worker queue for a
///   device or silent output (``decodeAhead()``), or inline on the rendering thread offline, so an
///   offline render gets the same chunks in the same order every time;
/// - the mixing side (under the engine's lock) only fills finished chunks into OpenAL buffers and
///   queues them (``prime(source:)``, ``refill(source:)``).
///
/// `@unchecked Sendable`: the mixing side's fields are touched only under the engine's lock; the
/// decoder only under `decoding`; what passes between them only under `ahead`.
final class StreamFeeder: @unchecked Sendable {
    /// Frames per queued buffer and how many buffers are queued: 4 x 8192 frames is 680 ms at 48 kHz.
    static let chunkFrames = 8192
    static let bufferCount = 4
    /// Chunks kept decoded beyond the queue while playing: 340 ms of slack for a busy worker.
    static let readyTarget = 2

    /// The queue every stream of the process decodes on, below the driver thread's priority.
    private static let worker = DispatchQueue(label: "SoundStation streaming", qos: .userInitiated)

    let name: String
    private let entry: SoundEntry
    /// Decode on the caller of ``prime(source:)`` and ``refill(source:)`` (offline) rather than ahead.
    private let inline: Bool
    /// Stream silence of the track's length instead of decoding it (an engine nobody hears).
    private let quiet: Bool
    /// Wakes the mixing side when chunks are ready (the engine's ring).
    private let wake: @Sendable () -> Void

    /// A decoded piece of the track and the track frame it begins at.
    private struct Chunk {
        var start: Int
        var samples: [Float]
    }

    /// The file's format, known once it is open.
    struct Format {
        var channels: Int
        var sampleRate: Int
        var frameCount: Int
        /// Where the track goes back at its loop end (or its end, to repeat); nil when it plays once.
        var wrap: BufferQueue.Wrap?
    }

    private struct Ahead {
        var chunks: [Chunk] = []
        var exhausted = false
        var failure: String?
        var format: Format?
        /// Where the decoder must continue from, when the mixing side asked for a new start.
        var seek: Int?
        /// Bumped by every new start, so chunks decoded for an old one are dropped.
        var epoch = 0
        var workScheduled = false
        /// How many chunks to keep ready: the whole queue before priming, ``readyTarget`` after.
        var target = StreamFeeder.bufferCount
    }

    private struct Decoding {
        var decoder: (any StreamingDecoder)?
        var cursor = 0
        var exhausted = false
        var loopStart = 0
        var loopEnd = 1
        /// Passes started again for the entry's ``SoundEntry/repeats``.
        var repeated = 0
    }

    private let ahead = Locked(Ahead())
    private let decoding = Locked(Decoding())

    // Mixing side, under the engine's lock.
    /// The source's queue: each queued buffer keeps its samples (shared with the decoded chunk, not
    /// copied), so a voice that gets a cutoff filter mid-play can hand what it has not played yet to
    /// a ``FilteredFeeder`` (``handOver(source:)``).
    private let queue = BufferQueue()
    /// Decoded samples a ``FilteredFeeder`` reads before the next chunk (``nextBlock(maxFrames:)``).
    private var carry: [Chunk] = []
    /// Set by ``restart(from:source:)``: the queue is empty and is primed again, at the new place,
    /// by the next ``refill(source:)`` that finds the first chunks decoded.
    private var awaitingPrime = false

    /// Prepares a stream of `entry`; nothing is opened until ``start(from:)``.
    /// - Parameters:
    ///   - inline: Decode on the mixing side's thread (offline rendering) rather than on the worker.
    ///   - quiet: Give silence of the track's length rather than its samples (``SilentDecoder``).
    ///   - wake: Called when the worker has chunks ready, to wake the mixing side.
    init(entry: SoundEntry, inline: Bool, quiet: Bool = false, wake: @escaping @Sendable () -> Void) {
        self.entry = entry
        self.name = entry.name
        self.inline = inline
        self.quiet = quiet
        self.wake = wake
    }

    /// The file's format, once it has been opened.
    var format: Format? { ahead.withLock { $0.format } }

    /// Why the stream cannot play (the file would not open or decode), once known.
    var failure: String? { ahead.withLock { $0.failure } }

    /// Asks for playback from `frame`: the decoder seeks there and decodes the first chunks ahead.
    /// Called by the mixing side when the voice is claimed, long before it begins.
    func start(from frame: Int) {
        ahead.withLock { ahead in
            ahead.epoch += 1
            ahead.chunks = []
            ahead.exhausted = false
            ahead.seek = max(frame, 0)
            ahead.target = Self.bufferCount
        }
        queue.next = max(frame, 0)
        carry = []
        scheduleDecoding()
    }

    /// Moves a playing or paused stream to `frame`: empties the source's queue and decodes from there.
    /// The queue fills again at the next ``refill(source:)`` of a playing voice (a paused one, once
    /// resumed), so the first frame heard is exactly `frame`. Mixing side, under the engine's lock.
    func restart(from frame: Int, source: OpenALSource) {
        source.stop()
        queue.clear()
        awaitingPrime = true
        start(from: frame)
    }

    /// Bytes of decoded audio held: the queue's OpenAL buffers and the chunks decoded ahead of them.
    /// Mixing side, under the engine's lock.
    var residentBytes: Int {
        let queued = queue.buffers.reduce(0) { $0 + $1.byteCount }
        let ready = ahead.withLock { $0.chunks.reduce(0) { $0 + $1.samples.count } }
        return queued + ready * MemoryLayout<Float>.size
    }

    /// Whether enough is decoded to begin (or the track is shorter than the queue, or failed).
    var isReadyToBegin: Bool {
        if inline { return true }
        return ahead.withLock { $0.chunks.count >= Self.bufferCount || $0.exhausted || $0.failure != nil }
    }

    /// Lets go of the queue's OpenAL buffers now, on the mixing side while the device is open, when
    /// the voice lets go of the stream. The streaming worker may hold the feeder a little longer (a
    /// chunk being decoded): buffers freed there after the engine closed would call OpenAL from that
    /// thread, racing OpenAL Soft's own teardown if the process exits then (its `LockLists`
    /// assertion).
    func releaseBuffers() { queue.forgetBuffers() }

    /// The OpenAL buffers its queue owns now.
    var bufferCount: Int { queue.buffers.count }

    /// Makes a fresh queue on a reopened device (the old buffers went with the old device).
    func rebind() {
        queue.forgetBuffers()
        awaitingPrime = false
    }

    /// Fills the queue's buffers with the first chunks and queues them on `source`.
    /// - Throws: ``AudioEngineError`` when OpenAL refuses, or `.invalidArgument` naming the file when
    ///   it could not be decoded.
    func prime(source: OpenALSource) throws(AudioEngineError) {
        if inline { decodeAhead() }
        let (format, failure) = ahead.withLock { ($0.format, $0.failure) }
        guard let format else {
            throw .invalidArgument(
                name: "stream", value: entry.path, expected: "a decodable file (\(failure ?? "not decoded"))")
        }
        try queue.prime(
            source: source, count: Self.bufferCount, sampleRate: format.sampleRate, channels: format.channels
        ) { buffer throws(AudioEngineError) in
            try fill(buffer, format: format)
        }
        ahead.withLock { $0.target = Self.readyTarget }
        scheduleDecoding()
    }

    /// Fills `buffer` with the next decoded chunk; nil when none is ready.
    private func fill(_ buffer: OpenALBuffer, format: Format) throws(AudioEngineError) -> BufferQueue.Block? {
        guard let chunk = takeChunk(format: format) else { return nil }
        try buffer.fill(
            PCMAudio(sampleRate: format.sampleRate, channels: format.channels, samples: chunk.samples))
        return BufferQueue.Block(
            start: chunk.start, frames: chunk.samples.count / max(format.channels, 1), samples: chunk.samples)
    }

    /// Refills the buffers the mixer has finished with; restarts the source after an underrun.
    /// - Returns: False once the track has played to its end (never for a looping track).
    func refill(source: OpenALSource) -> Bool {
        if awaitingPrime {
            // After a seek: wait for the first chunks at the new place, then queue and play them.
            guard isReadyToBegin else { return true }
            awaitingPrime = false
            guard (try? prime(source: source)) != nil, !queue.blocks.isEmpty else { return false }
            try? source.play()
            return true
        }
        guard let format = ahead.withLock({ $0.format }) else { return false }
        queue.reclaim(source: source)
        if !queue.idle.isEmpty {
            if inline { decodeAhead() }
            queue.fillIdle(source: source) { buffer throws(AudioEngineError) in
                try fill(buffer, format: format)
            }
            scheduleDecoding()
        }
        // Nothing queued: the end, unless the worker is merely behind.
        return queue.settle(source: source) {
            ahead.withLock { $0.exhausted && $0.chunks.isEmpty || $0.failure != nil }
        }
    }

    /// How many times the queue ran dry since the last call, for the engine's running count.
    func takeUnderruns() -> Int { queue.takeUnderruns() }

    /// The track frame being heard.
    func position(source: OpenALSource) -> Int { queue.position(source: source) }

    /// Once the whole rest of the track is queued (it does not loop, and the decoder is done): the
    /// track frames left to play, so housekeeping can look again when it ends rather than at the next
    /// refill. Mixing side, under the engine's lock.
    func framesLeft(source: OpenALSource) -> Int? {
        guard !awaitingPrime, ahead.withLock({ $0.exhausted && $0.chunks.isEmpty }) else { return nil }
        return queue.framesAhead(source: source)
    }

    /// Takes the next decoded chunk, if one is ready.
    private func takeChunk(format: Format) -> Chunk? {
        let chunk = ahead.withLock { ahead -> Chunk? in
            ahead.chunks.isEmpty ? nil : ahead.chunks.removeFirst()
        }
        queue.wrap = format.wrap
        if let chunk {
            queue.next = queue.wrapped(chunk.start + chunk.samples.count / max(format.channels, 1))
        }
        return chunk
    }

    /// Queues ``decodeAhead()`` on the worker unless it is queued already, or decoding is inline.
    private func scheduleDecoding() {
        guard !inline else { return }
        let schedule = ahead.withLock { ahead -> Bool in
            let needed = ahead.chunks.count < ahead.target && !ahead.exhausted && ahead.failure == nil
            guard needed, !ahead.workScheduled else { return false }
            ahead.workScheduled = true
            return true
        }
        if schedule { Self.worker.async { [self] in decodeAhead() } }
    }

    /// Opens the file if needed and decodes until ``Ahead/target`` chunks are ready. Runs on the
    /// worker (or inline offline); takes no lock of the engine's.
    func decodeAhead() {
        decoding.withLock { decoding in
            if decoding.decoder == nil, !open(&decoding) { return }
            while true {
                let (epoch, seek, missing) = ahead.withLock { ahead -> (Int, Int?, Bool) in
                    defer { ahead.seek = nil }
                    return (ahead.epoch, ahead.seek, ahead.chunks.count < ahead.target)
                }
                if let seek {
                    decoding.cursor = min(seek, decoding.loopEnd - 1)
                    decoding.exhausted = (try? decoding.decoder?.seek(toFrame: decoding.cursor)) == nil
                }
                guard missing, !decoding.exhausted else { break }
                let start = decoding.cursor
                let samples = nextChunk(&decoding)
                let exhausted = decoding.exhausted
                ahead.withLock { ahead in
                    guard ahead.epoch == epoch else { return }
                    if !samples.isEmpty { ahead.chunks.append(Chunk(start: start, samples: samples)) }
                    ahead.exhausted = exhausted
                }
                if samples.isEmpty { break }
            }
        }
        ahead.withLock { $0.workScheduled = false }
        if !inline {
            // A new start (a seek) that came after the loop's last look would otherwise wait for
            // work nobody scheduled.
            scheduleDecoding()
            wake()
        }
    }

    /// Opens the decoder and publishes the format, or the failure.
    private func open(_ decoding: inout Decoding) -> Bool {
        do {
            let opened = try AudioDecoder.openStream(
                fileAt: entry.resolvedPath, options: entry.decodingOptions)
            // Silence needs one channel: half a stereo track's buffers and mixing.
            let decoder: any StreamingDecoder = quiet ? SilentDecoder(info: opened.info.mixed(to: 1)) : opened
            let info = decoder.info
            let range =
                entry.loopRange(sampleRate: info.sampleRate, frameCount: info.frameCount)
                ?? 0..<max(info.frameCount, 1)
            decoding.decoder = decoder
            decoding.loopStart = range.lowerBound
            decoding.loopEnd = range.upperBound
            // As ``nextChunk(_:)`` goes back: to the loop start, or to the start for a repeat.
            let back: Int? = entry.loop ? range.lowerBound : (entry.repeats > 0 ? 0 : nil)
            let format = Format(
                channels: info.channels, sampleRate: info.sampleRate, frameCount: info.frameCount,
                wrap: back.map { BufferQueue.Wrap(end: range.upperBound, to: $0) })
            ahead.withLock { $0.format = format }
            return true
        } catch {
            ahead.withLock { $0.failure = error.description }
            return false
        }
    }

    /// Decodes the next buffer's worth, wrapping from the loop end to the loop start.
    private func nextChunk(_ decoding: inout Decoding) -> [Float] {
        guard let decoder = decoding.decoder else { return [] }
        let channels = decoder.info.channels
        var chunk: [Float] = []
        chunk.reserveCapacity(Self.chunkFrames * channels)
        while chunk.count < Self.chunkFrames * channels, !decoding.exhausted {
            let wanted = min(Self.chunkFrames - chunk.count / channels, decoding.loopEnd - decoding.cursor)
            let piece = wanted > 0 ? ((try? decoder.read(maxFrames: wanted)) ?? []) : []
            if piece.isEmpty {
                // A loop wraps to its loop start; a repeat plays the whole track again.
                let again: Int? =
                    entry.loop ? decoding.loopStart : (decoding.repeated < entry.repeats ? 0 : nil)
                guard let again, decoding.cursor != again, (try? decoder.seek(toFrame: again)) != nil else {
                    decoding.exhausted = true
                    break
                }
                if !entry.loop { decoding.repeated += 1 }
                decoding.cursor = again
                continue
            }
            chunk += piece
            decoding.cursor += piece.count / channels
        }
        return chunk
    }
}

// MARK: Read by a filtered voice

extension StreamFeeder: PCMBlocks {
    var channels: Int { format?.channels ?? 1 }
    var sampleRate: Int { format?.sampleRate ?? 48_000 }
    var wrap: BufferQueue.Wrap? { format?.wrap }

    var isFinished: Bool {
        carry.isEmpty && ahead.withLock { $0.exhausted && $0.chunks.isEmpty || $0.failure != nil }
    }

    /// The next decoded samples for a ``FilteredFeeder``: what ``handOver(source:)`` kept first, then
    /// the decoder's chunks, cut to `maxFrames`.
    func nextBlock(maxFrames: Int) -> (start: Int, samples: [Float])? {
        if carry.isEmpty {
            if inline, ahead.withLock({ $0.chunks.isEmpty }) { decodeAhead() }
            guard let format, let chunk = takeChunk(format: format) else {
                scheduleDecoding()
                return nil
            }
            carry.append(chunk)
            scheduleDecoding()
        }
        let channels = max(self.channels, 1)
        let chunk = carry[0]
        let frames = min(maxFrames, chunk.samples.count / channels)
        if frames * channels == chunk.samples.count {
            carry.removeFirst()
            return (chunk.start, chunk.samples)
        }
        carry[0] = Chunk(
            start: queue.wrapped(chunk.start + frames), samples: Array(chunk.samples[(frames * channels)...]))
        return (chunk.start, Array(chunk.samples[..<(frames * channels)]))
    }

    /// Stops `source` and keeps what its queue had not played yet, for a ``FilteredFeeder`` to read
    /// first; the source is left stopped and empty.
    func handOver(source: OpenALSource) {
        let channels = max(self.channels, 1)
        // The offset counts from the first buffer still on the queue, played ones included.
        var offset = source.sampleOffset
        source.stop()
        var kept: [Chunk] = []
        for block in queue.blocks {
            let frames = block.samples.count / channels
            if offset >= frames {
                offset -= frames
                continue
            }
            kept.append(
                offset == 0
                    ? Chunk(start: block.start, samples: block.samples)
                    : Chunk(
                        start: queue.wrapped(block.start + offset),
                        samples: Array(block.samples[(offset * channels)...])))
            offset = 0
        }
        carry = kept + carry
        queue.clear()
    }
}
