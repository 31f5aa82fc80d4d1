import Synchronization

/// The game's side of a fed stream over SSH: what the game writes into a ``PCMFeed`` is encoded as
/// Opus in 20 ms packets and sent to the player, in order with the commands.
///
/// Encoding runs on the writing thread, inside ``PCMFeed/write(_:)`` (one writer at a time, as the
/// feed's ring already enforces): about 0.1 ms of CPU per 20 ms packet at complexity 5, never a wait,
/// and no thread of the engine's own wakes for it. A rate Opus does not take (44.1 kHz, say) is
/// resampled to 48 kHz linearly first.
final class RemoteStreamSender: Sendable {
    /// The server sound id the stream's voice plays.
    let id: SoundID
    let channels: Int
    private let link: RemoteLink
    /// The server's clock frames in one packet.
    private let packetServerFrames: Int64
    private let state: Mutex<Encoding>

    private struct Encoding: @unchecked Sendable {
        let encoder: OpusPacketEncoder
        /// Input frames per output frame (1 unless resampled).
        let step: Double
        /// Samples waiting for a whole packet, at the encoder's rate.
        var pending: [Float] = []
        /// The server frame the first pending sample was written at.
        var pendingFrame: Int64 = 0
        /// Where the next output sample falls between the last input frame and the next (resampling).
        var phase = 0.0
        /// The last input frame (resampling interpolates from it).
        var last: [Float]
        var sequence: UInt32 = 0
        var ended = false
    }

    /// Starts a stream and tells the player it opened (before the voice's play command).
    /// - Parameters:
    ///   - link: The session.
    ///   - id: The server sound id its voice plays.
    ///   - channels: 1 or 2.
    ///   - sampleRate: What the game writes.
    ///   - serverRate: The engine's rate (the clock the packets' frames are on).
    init(link: RemoteLink, id: SoundID, channels: Int, sampleRate: Int, serverRate: Int)
        throws(AudioEngineError)
    {
        let rate = StreamCodec.opusRates.contains(sampleRate) ? sampleRate : StreamCodec.decodedRate
        let encoder = try OpusPacketEncoder(channels: channels, sampleRate: rate)
        self.link = link
        self.id = id
        self.channels = channels
        packetServerFrames = Int64(serverRate / 50)
        state = Mutex(
            Encoding(
                encoder: encoder, step: Double(sampleRate) / Double(rate),
                last: [Float](repeating: 0, count: channels)))
        link.post(.streamOpen(id, channels: channels))
    }

    /// Takes frames the feed accepted; sends every whole packet.
    /// - Parameter samples: Interleaved, `channels` a frame, already clipped to -1...1.
    func append(_ samples: UnsafeBufferPointer<Float>) {
        state.withLock { state in
            guard !state.ended else { return }
            if state.pending.isEmpty { state.pendingFrame = link.now }
            if state.step == 1 {
                state.pending.append(contentsOf: samples)
            } else {
                Self.resample(samples, channels: channels, into: &state)
            }
            let packet = state.encoder.packetFrames * channels
            var start = 0
            while state.pending.count - start >= packet {
                state.pending.withUnsafeBufferPointer { send($0.baseAddress! + start, &state) }
                start += packet
            }
            if start > 0 { state.pending.removeFirst(start) }
        }
    }

    /// Sends what is left (the last packet filled with silence) and the stream's end, once.
    func finish() {
        state.withLock { state in
            guard !state.ended else { return }
            state.ended = true
            if !state.pending.isEmpty {
                let packet = state.encoder.packetFrames * channels
                state.pending += [Float](repeating: 0, count: packet - state.pending.count)
                state.pending.withUnsafeBufferPointer { send($0.baseAddress!, &state) }
                state.pending.removeAll()
            }
            link.post(.streamEnd(id, packets: state.sequence))
        }
    }

    private func send(_ samples: UnsafePointer<Float>, _ state: inout Encoding) {
        if let data = state.encoder.encode(samples) {
            link.post(.streamPacket(id, sequence: state.sequence, frame: state.pendingFrame, data: data))
        }
        // A packet libopus could not make is concealed on the player's side (its sequence is skipped).
        state.sequence &+= 1
        state.pendingFrame += packetServerFrames
    }

    /// Linear interpolation from the game's rate to 48 kHz.
    private static func resample(
        _ samples: UnsafeBufferPointer<Float>, channels: Int, into state: inout Encoding
    ) {
        let frames = samples.count / channels
        var position = state.phase
        // Output frames fall at `position` input frames after the frame before the first (`last`).
        while position < Double(frames) {
            let index = Int(position)
            let fraction = Float(position - Double(index))
            for channel in 0..<channels {
                let before = index == 0 ? state.last[channel] : samples[(index - 1) * channels + channel]
                let after = samples[index * channels + channel]
                state.pending.append(before + (after - before) * fraction)
            }
            position += state.step
        }
        state.phase = position - Double(frames)
        for channel in 0..<channels { state.last[channel] = samples[(frames - 1) * channels + channel] }
    }
}
