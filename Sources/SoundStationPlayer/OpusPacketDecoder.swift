import COpus
import SoundStation

/// An Opus decoder for one stream on the player's side: packets to 48 kHz interleaved floats.
///
/// `@unchecked Sendable`: its owner (``RemoteStreamPlayer``) calls it under its own lock only.
final class OpusPacketDecoder: @unchecked Sendable {
    let channels: Int
    private let decoder: OpaquePointer
    /// Room for the longest packet Opus has (120 ms).
    private var output: [Float]

    /// Makes a decoder.
    /// - Parameter channels: 1 or 2.
    /// - Throws: ``WireError/invalidValue(field:value:)`` when libopus refuses them.
    init(channels: Int) throws(WireError) {
        var error: Int32 = 0
        guard channels == 1 || channels == 2,
            let decoder = opus_decoder_create(Int32(StreamCodec.decodedRate), Int32(channels), &error),
            error == OPUS_OK
        else {
            throw .invalidValue(field: "stream channels", value: "\(channels)")
        }
        self.decoder = decoder
        self.channels = channels
        output = [Float](repeating: 0, count: StreamCodec.decodedRate / 1000 * 120 * channels)
    }

    deinit { opus_decoder_destroy(decoder) }

    /// Decodes one packet, or with `nil` conceals one that never came (libopus's packet loss
    /// concealment, 20 ms).
    /// - Parameter packet: An Opus packet.
    /// - Returns: The interleaved samples at 48 kHz.
    /// - Throws: ``WireError/invalidValue(field:value:)`` naming libopus's reason for a packet it
    ///   cannot decode.
    func decode(_ packet: [UInt8]?) throws(WireError) -> [Float] {
        let capacity = Int32(output.count / channels)
        let frames: Int32 = output.withUnsafeMutableBufferPointer { out in
            if let packet {
                return packet.withUnsafeBufferPointer {
                    opus_decode_float(decoder, $0.baseAddress, Int32($0.count), out.baseAddress!, capacity, 0)
                }
            }
            return opus_decode_float(
                decoder, nil, 0, out.baseAddress!, Int32(StreamCodec.packetFrames), 0)
        }
        guard frames >= 0 else {
            throw .invalidValue(
                field: "Opus packet",
                value: "of \(packet?.count ?? 0) bytes (\(StreamCodec.describe(frames)))")
        }
        return Array(output[..<(Int(frames) * channels)])
    }
}
