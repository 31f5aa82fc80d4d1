/// Where a channel of a multichannel file is meant to play.
enum ChannelRole: Equatable {
    case left, right, centre, lfe, surroundLeft, surroundRight, backCentre
    case topLeft, topRight, topCentre
    /// A channel with no position (e.g. ambisonic or unassigned): mixed to both sides at -6 dB.
    case unknown

    /// The WAVE_FORMAT_EXTENSIBLE speaker bits, lowest first (dwChannelMask).
    static let waveMaskOrder: [ChannelRole] = [
        .left, .right, .centre, .lfe, .surroundLeft, .surroundRight, .left, .right, .backCentre,
        .surroundLeft, .surroundRight, .topCentre, .topLeft, .topCentre, .topRight, .topLeft, .topCentre,
        .topRight,
    ]

    /// The roles of a WAVE_FORMAT_EXTENSIBLE file's channels from its speaker mask; nil when the mask
    /// does not name every channel.
    static func fromWaveMask(_ mask: UInt32, channels: Int) -> [ChannelRole]? {
        let roles = waveMaskOrder.indices.filter { mask & (1 << UInt32($0)) != 0 }.map { waveMaskOrder[$0] }
        return roles.count >= channels ? Array(roles.prefix(channels)) : nil
    }

    /// The usual order of WAV, FLAC and AIFF files without a channel mask (the SMPTE/Microsoft order).
    static func smpteDefault(channels: Int) -> [ChannelRole] {
        let layout: [ChannelRole]
        switch channels {
        case 3: layout = [.left, .right, .centre]
        case 4: layout = [.left, .right, .surroundLeft, .surroundRight]
        case 5: layout = [.left, .right, .centre, .surroundLeft, .surroundRight]
        case 6: layout = [.left, .right, .centre, .lfe, .surroundLeft, .surroundRight]
        case 7: layout = [.left, .right, .centre, .lfe, .backCentre, .surroundLeft, .surroundRight]
        case 8:
            layout = [
                .left, .right, .centre, .lfe, .surroundLeft, .surroundRight, .surroundLeft, .surroundRight,
            ]
        default: layout = [.left, .right]
        }
        return padded(layout, to: channels)
    }

    /// The order the Vorbis specification (and Opus mapping family 1) fixes for 1 to 8 channels.
    static func vorbisOrder(channels: Int) -> [ChannelRole] {
        let layout: [ChannelRole]
        switch channels {
        case 3: layout = [.left, .centre, .right]
        case 4: layout = [.left, .right, .surroundLeft, .surroundRight]
        case 5: layout = [.left, .centre, .right, .surroundLeft, .surroundRight]
        case 6: layout = [.left, .centre, .right, .surroundLeft, .surroundRight, .lfe]
        case 7: layout = [.left, .centre, .right, .surroundLeft, .surroundRight, .backCentre, .lfe]
        case 8:
            layout = [
                .left, .centre, .right, .surroundLeft, .surroundRight, .surroundLeft, .surroundRight, .lfe,
            ]
        default: layout = [.left, .right]
        }
        return padded(layout, to: channels)
    }

    private static func padded(_ layout: [ChannelRole], to channels: Int) -> [ChannelRole] {
        Array((layout + Array(repeating: .unknown, count: max(0, channels - layout.count))).prefix(channels))
    }

    /// The gains into the left and right outputs (ITU-R BS.775: centre and surrounds at -3 dB, LFE
    /// dropped).
    var gains: (left: Float, right: Float) {
        let minus3dB: Float = 0.707_106_77
        switch self {
        case .left: return (1, 0)
        case .right: return (0, 1)
        case .centre: return (minus3dB, minus3dB)
        case .lfe: return (0, 0)
        case .surroundLeft, .topLeft: return (minus3dB, 0)
        case .surroundRight, .topRight: return (0, minus3dB)
        case .backCentre, .topCentre, .unknown: return (0.5, 0.5)
        }
    }
}

/// Turns interleaved frames of any channel count into mono or stereo: unchanged up to two channels,
/// above that mixed down with the ITU coefficients or cut to the first two.
struct ChannelMixer {
    let inputChannels: Int
    let outputChannels: Int
    /// For each input channel, its gain into the left and right outputs.
    private let matrix: [(left: Float, right: Float)]

    init(roles: [ChannelRole], selection: ChannelSelection) {
        inputChannels = roles.count
        outputChannels = min(roles.count, 2)
        switch selection {
        case .downmix: matrix = roles.map(\.gains)
        case .firstTwo: matrix = roles.indices.map { $0 == 0 ? (1, 0) : $0 == 1 ? (0, 1) : (0, 0) }
        }
    }

    /// True when the samples pass through unchanged.
    var isIdentity: Bool { inputChannels <= 2 }

    /// Mixes whole interleaved input frames; a trailing partial frame is dropped.
    func mix(_ samples: [Float]) -> [Float] {
        guard !isIdentity else { return samples }
        let frames = samples.count / inputChannels
        return [Float](unsafeUninitializedCapacity: frames * 2) { out, initialized in
            samples.withUnsafeBufferPointer { input in
                for frame in 0..<frames {
                    var left: Float = 0
                    var right: Float = 0
                    let base = frame * inputChannels
                    for channel in 0..<inputChannels {
                        let sample = input[base + channel]
                        left += sample * matrix[channel].left
                        right += sample * matrix[channel].right
                    }
                    // Full-scale channels add up past 1; PCMAudio promises -1...1, so clip.
                    out[frame * 2] = min(max(left, -1), 1)
                    out[frame * 2 + 1] = min(max(right, -1), 1)
                }
            }
            initialized = frames * 2
        }
    }
}
