import COpus

/// How a fed stream travels over SSH: Opus, 20 ms a packet.
///
/// The bit rate is 64 kbit/s for mono and 96 kbit/s for stereo, constrained VBR: Opus's own guidance
/// puts full-band music at about that rate as transparent for most listeners, and a game's fed
/// stream is music (a tracker, an emulator's chip, a synth) more often than speech. With the frame's
/// base64 and framing that is about 11 (mono) to 17 (stereo) KiB a second on the link, a fiftieth of
/// what the catalogue's files may take (``RemoteLink/assetBytesPerSecond``), and 50 messages a second,
/// far under the player's 2000.
///
/// The game's side encodes here (``OpusPacketEncoder``); the player's side decodes in the
/// SoundStationPlayer target (`OpusPacketDecoder`), which the library games load does not hold.
package enum StreamCodec {
    /// The rate the player decodes at (Opus decodes to 48 kHz whatever it was fed).
    package static let decodedRate = 48_000
    /// Frames of a packet at 48 kHz: 20 ms.
    package static let packetFrames = 960
    /// The rates libopus encodes directly; any other is resampled to 48 kHz first.
    static let opusRates: Set<Int> = [8000, 12_000, 16_000, 24_000, 48_000]

    /// The bit rate for `channels`.
    /// - Parameter channels: 1 or 2.
    /// - Returns: Bits per second.
    static func bitrate(channels: Int) -> Int32 { channels == 1 ? 64_000 : 96_000 }

    /// A libopus error code in words.
    package static func describe(_ code: Int32) -> String {
        String(cString: opus_strerror(code))
    }
}

/// An Opus encoder for one stream: 20 ms packets of interleaved float samples at `sampleRate`.
///
/// `@unchecked Sendable`: its owner (``RemoteStreamSender``) calls it under its own lock only.
final class OpusPacketEncoder: @unchecked Sendable {
    let channels: Int
    let sampleRate: Int
    /// Frames a packet takes at `sampleRate`.
    let packetFrames: Int
    private let encoder: OpaquePointer
    private var output = [UInt8](repeating: 0, count: RemoteMessage.maxStreamPacket)

    /// Makes an encoder.
    /// - Parameters:
    ///   - channels: 1 or 2.
    ///   - sampleRate: One of ``StreamCodec/opusRates``.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` when libopus refuses them.
    init(channels: Int, sampleRate: Int) throws(AudioEngineError) {
        var error: Int32 = 0
        guard StreamCodec.opusRates.contains(sampleRate), channels == 1 || channels == 2,
            let encoder = opus_encoder_create(
                Int32(sampleRate), Int32(channels), OPUS_APPLICATION_AUDIO, &error),
            error == OPUS_OK
        else {
            throw .invalidArgument(
                name: "Opus stream", value: "\(channels) channels at \(sampleRate) Hz",
                expected: "1 or 2 channels at 8, 12, 16, 24 or 48 kHz (\(StreamCodec.describe(error)))")
        }
        self.encoder = encoder
        self.channels = channels
        self.sampleRate = sampleRate
        packetFrames = sampleRate / 50
        _ = ss_opus_set_bitrate(encoder, StreamCodec.bitrate(channels: channels))
        _ = ss_opus_set_vbr_constraint(encoder, 1)
        // 5 of 10: about half the CPU of the default for a quality loss few can hear at these rates;
        // the encoder runs on the game's writing thread.
        _ = ss_opus_set_complexity(encoder, 5)
    }

    deinit { opus_encoder_destroy(encoder) }

    /// Encodes one packet.
    /// - Parameter samples: `packetFrames * channels` interleaved samples.
    /// - Returns: The packet, or `nil` when libopus fails (it does not for valid input).
    func encode(_ samples: UnsafePointer<Float>) -> [UInt8]? {
        let count = output.withUnsafeMutableBufferPointer { buffer in
            opus_encode_float(encoder, samples, Int32(packetFrames), buffer.baseAddress!, Int32(buffer.count))
        }
        guard count > 0 else { return nil }
        return Array(output[..<Int(count)])
    }
}
