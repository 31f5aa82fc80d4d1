/// The container and codec of an audio file, as recognised from its first bytes (never its name).
public enum AudioFileFormat: String, Sendable, CaseIterable {
    /// WAV in any of its variants: RIFF, RIFX (big-endian), RF64/BW64, PCM, float, mu-law, A-law, ADPCM.
    case wav
    /// AIFF or AIFF-C.
    case aiff
    /// Ogg container holding a Vorbis stream.
    case oggVorbis
    /// Ogg container holding an Opus stream.
    case oggOpus
    /// Native FLAC.
    case flac
    /// MPEG-1/2 audio layer III (also layer I/II), with or without an ID3v2 tag.
    case mp3
    /// Amiga ProTracker module and its 4 to 32 channel relatives.
    case mod
    /// FastTracker 2 Extended Module.
    case xm
    /// ScreamTracker 3 module.
    case s3m
    /// Impulse Tracker module.
    case it
    /// NES Sound Format rip (6502 code driving the NES's sound chips).
    case nsf
    /// Extended NES Sound Format rip (NSF with chunks: track names and lengths).
    case nsfe
    /// SNES SPC700 sound processor snapshot.
    case spc
    /// Game Boy Sound System rip.
    case gbs
    /// Video Game Music log: register writes to Sega (SN76489, YM2612) and other chips.
    case vgm
    /// A gzip-compressed VGM log.
    case vgz
    /// ZX Spectrum / Amstrad CPC AY rip.
    case ay
    /// PC Engine / TurboGrafx-16 rip.
    case hes
    /// MSX / Sega Master System KSS rip.
    case kss
    /// Atari 8-bit POKEY rip (SAP).
    case sap
    /// Sega Genesis YM2612 log (GYMX header).
    case gym
    /// Standard MIDI file, played through a SoundFont.
    case midi

    /// The name people know the format by, as `soundstation catalogue` shows it.
    public var displayName: String {
        switch self {
        case .wav: "WAV"
        case .aiff: "AIFF"
        case .oggVorbis: "Ogg Vorbis"
        case .oggOpus: "Ogg Opus"
        case .flac: "FLAC"
        case .mp3: "MP3"
        case .mod: "MOD"
        case .xm: "XM"
        case .s3m: "S3M"
        case .it: "IT"
        case .nsf: "NSF"
        case .nsfe: "NSFe"
        case .spc: "SPC"
        case .gbs: "GBS"
        case .vgm: "VGM"
        case .vgz: "VGZ"
        case .ay: "AY"
        case .hes: "HES"
        case .kss: "KSS"
        case .sap: "SAP"
        case .gym: "GYM"
        case .midi: "MIDI"
        }
    }

    /// Whether the file is a tracker module, rendered by libxmp rather than decoded.
    public var isTrackerModule: Bool {
        switch self {
        case .mod, .xm, .s3m, .it: true
        default: false
        }
    }

    /// Whether the file is a chiptune rip or log, played by emulating its sound chips (Game Music Emu).
    public var isChiptune: Bool {
        switch self {
        case .nsf, .nsfe, .spc, .gbs, .vgm, .vgz, .ay, .hes, .kss, .sap, .gym: true
        default: false
        }
    }

    /// Whether the file is a song the engine performs (a tracker module, a chiptune, a MIDI file)
    /// rather than recorded samples: its length is the song's, and a streamed one can loop by the
    /// song's own loop point rather than by a range of frames.
    public var isSong: Bool { isTrackerModule || isChiptune || self == .midi }
}

/// What a file holds, learned from its headers without decoding the audio.
///
/// The asset pipeline uses this to decide between loading a sound whole and streaming it.
public struct AudioFileInfo: Sendable, Equatable {
    /// The container and codec.
    public let format: AudioFileFormat
    /// Frames per second.
    public let sampleRate: Int
    /// Samples per frame as decoded: 1 (mono) or 2 (stereo); files with more channels are mixed to 2.
    public let channels: Int
    /// The number of frames the file declares (for a tracker module, one pass of its song, estimated
    /// by libxmp from its song structure).
    public let frameCount: Int
    /// How the samples are stored, e.g. "PCM 16-bit", "IMA ADPCM", "mu-law", "RIFX PCM 24-bit"; nil
    /// when the format has only one encoding.
    public let encoding: String?
    /// The channels in the file itself, before any downmix to stereo.
    public let fileChannels: Int

    /// Creates a description of an audio file.
    /// - Parameters:
    ///   - format: The container and codec.
    ///   - sampleRate: Frames per second.
    ///   - channels: Samples per frame as decoded.
    ///   - frameCount: The number of frames.
    ///   - encoding: How the samples are stored, when the format has several encodings.
    ///   - fileChannels: The channels in the file; defaults to `channels`.
    public init(
        format: AudioFileFormat, sampleRate: Int, channels: Int, frameCount: Int, encoding: String? = nil,
        fileChannels: Int? = nil
    ) {
        self.format = format
        self.sampleRate = sampleRate
        self.channels = channels
        self.frameCount = frameCount
        self.encoding = encoding
        self.fileChannels = fileChannels ?? channels
    }

    /// The length: frames over the sample rate.
    public var duration: Duration { sampleRate > 0 ? .frames(Int64(frameCount), rate: sampleRate) : .zero }

    /// Format and encoding in a few words, e.g. "WAV IMA ADPCM" or "FLAC"; with "6 ch" when mixed down.
    public var formatDescription: String {
        var words = [format.displayName]
        if let encoding { words.append(encoding) }
        if fileChannels != channels { words.append("\(fileChannels) ch") }
        return words.joined(separator: " ")
    }

    /// The same facts with the channel count as decoded, for decoders that mix channels down.
    func mixed(to channels: Int) -> AudioFileInfo {
        AudioFileInfo(
            format: format, sampleRate: sampleRate, channels: channels, frameCount: frameCount,
            encoding: encoding, fileChannels: fileChannels)
    }

    /// The same facts with another frame count, e.g. what a file cut short really holds.
    func withFrameCount(_ frames: Int) -> AudioFileInfo {
        AudioFileInfo(
            format: format, sampleRate: sampleRate, channels: channels, frameCount: frames,
            encoding: encoding, fileChannels: fileChannels)
    }
}
