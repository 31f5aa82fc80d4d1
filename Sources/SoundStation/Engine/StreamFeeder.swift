import COpenAL

/// Plays a long Ogg Vorbis track through a short queue of OpenAL buffers, decoding the next piece
/// whenever the mixer hands one back, so memory stays bounded whatever the track's length.
///
/// Refills run in the engine's housekeeping: on the render clock offline, on the driver thread
/// otherwise, never on the thread that asked for the music.
/// `@unchecked Sendable`: it is only touched under the engine's lock.
final class StreamFeeder: @unchecked Sendable {
    /// Frames per queued buffer and how many buffers are queued: 4 x 8192 frames is 170 ms at 48 kHz,
    /// 256 KiB of stereo float PCM.
    static let chunkFrames = 8192
    static let bufferCount = 4

    let name: String
    let channels: Int
    let sampleRate: Int
    let frameCount: Int
    private let decoder: any StreamingDecoder
    private let loop: Bool
    private let loopStart: Int
    private let loopEnd: Int
    private var buffers: [OpenALBuffer] = []
    /// The track frame each queued buffer begins at, oldest first.
    private var queuedStarts: [Int] = []
    /// The next frame the decoder will produce.
    private var cursor = 0
    private(set) var isExhausted = false
    /// Underruns not yet counted by the engine (see ``takeUnderruns()``).
    private var underruns = 0

    init(entry: SoundEntry, device: OpenALDevice) throws(SoundLoadError) {
        do {
            decoder = try AudioDecoder.openStream(fileAt: entry.resolvedPath, options: entry.decodingOptions)
        } catch {
            throw .catalogue(.undecodable(name: entry.name, path: entry.path, reason: error.description))
        }
        name = entry.name
        channels = decoder.info.channels
        sampleRate = decoder.info.sampleRate
        frameCount = decoder.info.frameCount
        loop = entry.loop
        let range = entry.loopRange(sampleRate: sampleRate, frameCount: frameCount) ?? 0..<max(frameCount, 1)
        loopStart = range.lowerBound
        loopEnd = range.upperBound
        let silence = PCMAudio(
            sampleRate: sampleRate, channels: channels, samples: [Float](repeating: 0, count: channels))
        do {
            for _ in 0..<Self.bufferCount { buffers.append(try OpenALBuffer(device: device, audio: silence)) }
        } catch {
            throw .engine(name: name, error)
        }
    }

    /// Makes a fresh queue on a reopened device (the old buffers went with the old device).
    func rebind(to device: OpenALDevice) throws(AudioEngineError) {
        let silence = PCMAudio(
            sampleRate: sampleRate, channels: channels, samples: [Float](repeating: 0, count: channels))
        var fresh: [OpenALBuffer] = []
        for _ in 0..<Self.bufferCount { fresh.append(try OpenALBuffer(device: device, audio: silence)) }
        buffers = fresh
        queuedStarts = []
    }

    /// Fills every buffer from `frame` on and queues them on `source`.
    func prime(source: OpenALSource, from frame: Int) throws(AudioEngineError) {
        cursor = min(max(frame, 0), loopEnd - 1)
        isExhausted = false
        queuedStarts = []
        do { try decoder.seek(toFrame: cursor) } catch { isExhausted = true }
        var ready: [OpenALBuffer] = []
        for buffer in buffers {
            let start = cursor
            let chunk = nextChunk()
            if chunk.isEmpty { break }
            try buffer.fill(PCMAudio(sampleRate: sampleRate, channels: channels, samples: chunk))
            ready.append(buffer)
            queuedStarts.append(start)
        }
        try source.queue(ready)
    }

    /// Refills the buffers the mixer has finished with; restarts the source after an underrun.
    /// - Returns: False once the track has played to its end (never for a looping track).
    func refill(source: OpenALSource) -> Bool {
        let processed = source.processedBuffers
        if processed > 0, let names = try? source.unqueue(count: processed) {
            queuedStarts.removeFirst(min(processed, queuedStarts.count))
            for name in names {
                guard !isExhausted, let buffer = buffers.first(where: { $0.id == name }) else { continue }
                let start = cursor
                let chunk = nextChunk()
                guard !chunk.isEmpty,
                    (try? buffer.fill(PCMAudio(sampleRate: sampleRate, channels: channels, samples: chunk)))
                        != nil,
                    (try? source.queue([buffer])) != nil
                else { continue }
                queuedStarts.append(start)
            }
        }
        if queuedStarts.isEmpty { return false }
        if source.state == .stopped {
            underruns += 1
            try? source.play()
        }
        return true
    }

    /// How many times the queue ran dry since the last call, for the engine's running count.
    func takeUnderruns() -> Int {
        defer { underruns = 0 }
        return underruns
    }

    /// The track frame being heard.
    func position(source: OpenALSource) -> Int {
        (queuedStarts.first ?? cursor) + source.sampleOffset
    }

    /// Decodes the next buffer's worth, wrapping from the loop end to the loop start.
    private func nextChunk() -> [Float] {
        var chunk: [Float] = []
        chunk.reserveCapacity(Self.chunkFrames * channels)
        while chunk.count < Self.chunkFrames * channels, !isExhausted {
            let wanted = min(Self.chunkFrames - chunk.count / channels, loopEnd - cursor)
            let piece = wanted > 0 ? ((try? decoder.read(maxFrames: wanted)) ?? []) : []
            if piece.isEmpty {
                guard loop, cursor != loopStart, (try? decoder.seek(toFrame: loopStart)) != nil else {
                    isExhausted = true
                    break
                }
                cursor = loopStart
                continue
            }
            chunk += piece
            cursor += piece.count / channels
        }
        return chunk
    }
}
