/// One sound named in the catalogue manifest, with every default already applied.
///
/// Entries are produced by `Catalogue`, which has checked each value's range and that the
/// file exists inside the assets root, so code that plays sounds can trust the fields as-is.
public struct SoundEntry: Sendable, Equatable {
    /// The unique name games use to ask for the sound.
    public let name: String
    /// The file's path relative to the assets root, exactly as the manifest writes it.
    public let path: String
    /// The absolute path of the file: the real assets root joined with `path`.
    public let resolvedPath: String
    /// What the sound is for.
    public let kind: SoundKind
    /// Linear gain in 0...4; values above 1 boost quiet recordings. Defaults to 1.
    public let volume: Float
    /// Whether playback wraps around. Defaults to true for music, false otherwise.
    public internal(set) var loop: Bool
    /// Whole passes a play of a sound that does not loop adds after its first, set by the call that
    /// plays it (a music call's `repeats`); 0 in a catalogue.
    var repeats = 0
    /// 0...255, higher wins when voices run short. Defaults to 128.
    public let priority: Int
    /// How many copies may play at once, at least 1. Defaults to 8 for effects, 1 otherwise.
    public let maxInstances: Int
    /// What happens when `maxInstances` is reached. Defaults to `.oldest` (key `steal`).
    public let steal: StealPolicy
    /// Whether to decode while playing instead of loading up front. Defaults to false.
    public let stream: Bool
    /// Requests to play this sound closer together than this are merged into one, so a burst
    /// of identical triggers in one frame does not stack into a loud spike (key `coalesceMs`).
    /// Defaults to 5 for effects and 0 otherwise.
    public let coalesceMilliseconds: Double
    /// Where a loop restarts; nil means the start of the file.
    public let loopStart: LoopPoint?
    /// Where a loop wraps; nil means the end of the file.
    public let loopEnd: LoopPoint?
    /// What to do with a file of more than two channels (key `channels`): mix it down (the default)
    /// or keep the first two.
    public let channels: ChannelSelection
    /// Whether a file cut short is an error (key `strict`) instead of loading what is there with a
    /// warning. Defaults to false.
    public let strict: Bool
    /// The track's tempo (keys `bpm`, `beatsPerBar`, `downbeat`); music only, nil when it has none.
    public let tempo: Tempo?
    /// Named positions in seconds from the start of the file (key `markers`), for switches that
    /// wait for them and starts that begin there; music only.
    public let markers: [String: Double]
    /// The layers of a layered track (key `stems`), played with its own file on the same frame;
    /// music only.
    public let stems: [Stem]
    /// Decibels the music dips to while this sound plays (key `duckMusic`, -60...0; 0, the default,
    /// for none): a stinger heard over the music. Not on music.
    public let duckMusic: Float
    /// The sound the generator renders instead of a file (key `synth`); `nil` for a sound on a file.
    /// A synthesised entry has no `path` (its `path` and `resolvedPath` are empty).
    public internal(set) var synth: SynthSound?
    /// Which song of a chiptune rip plays, from 1 (key `track`); 1 by default.
    public let track: Int
    /// The SoundFont a MIDI file plays through, as the manifest writes it (key `soundfont`); nil for
    /// the system's default General MIDI SoundFont.
    public let soundFont: String?
    /// The absolute path of ``soundFont``, under the assets root.
    public let resolvedSoundFont: String?

    /// Creates an entry directly, applying the manifest's defaults for every nil argument.
    ///
    /// Meant for tests and tools that build sounds without a manifest; unlike `Catalogue`,
    /// it does not check ranges or that the file exists.
    /// - Parameters:
    ///   - name: The unique name games use to ask for the sound.
    ///   - path: The file's path relative to the assets root, as a manifest would write it.
    ///   - resolvedPath: The absolute path of the file, used to load it.
    ///   - kind: Effect, music or voice; picks the defaults below.
    ///   - volume: Linear gain in 0...4 (1 leaves the file as recorded).
    ///   - loop: Whether playback wraps around; nil for the kind's default (``defaultLoop(for:)``).
    ///   - priority: 0...255, higher wins when voices run short.
    ///   - maxInstances: How many copies may play at once; nil for the kind's default
    ///     (``defaultMaxInstances(for:)``).
    ///   - steal: What happens when `maxInstances` copies are already playing.
    ///   - stream: Whether to decode while playing instead of loading up front.
    ///   - coalesceMilliseconds: Requests closer together than this many milliseconds play once;
    ///     nil for the kind's default (``defaultCoalesceMilliseconds(for:)``).
    ///   - loopStart: Where a loop restarts; nil for the start of the file.
    ///   - loopEnd: Where a loop wraps; nil for the end of the file.
    ///   - channels: How a file of more than two channels becomes stereo.
    ///   - strict: Whether a file cut short is an error instead of a warning.
    ///   - tempo: The track's tempo, for music that switches on beats and bars; nil for none.
    ///   - markers: Named positions in seconds from the start of the file; music only.
    ///   - stems: The layers of a layered track; music only.
    ///   - duckMusic: Decibels (-60...0) the music dips to while this sound plays; 0 for none.
    ///   - track: Which song of a chiptune rip, from 1.
    ///   - soundFont: The SoundFont of a MIDI file as the manifest writes it; nil for the default.
    ///   - resolvedSoundFont: Its absolute path; nil for the default.
    public init(
        name: String, path: String, resolvedPath: String, kind: SoundKind,
        volume: Float = SoundEntry.defaultVolume, loop: Bool? = nil,
        priority: Int = SoundEntry.defaultPriority, maxInstances: Int? = nil,
        steal: StealPolicy = SoundEntry.defaultSteal, stream: Bool = false,
        coalesceMilliseconds: Double? = nil, loopStart: LoopPoint? = nil, loopEnd: LoopPoint? = nil,
        channels: ChannelSelection = .downmix, strict: Bool = false, tempo: Tempo? = nil,
        markers: [String: Double] = [:], stems: [Stem] = [], duckMusic: Float = 0, track: Int = 1,
        soundFont: String? = nil, resolvedSoundFont: String? = nil
    ) {
        self.duckMusic = duckMusic
        self.track = track
        self.soundFont = soundFont
        self.resolvedSoundFont = resolvedSoundFont
        self.name = name
        self.path = path
        self.resolvedPath = resolvedPath
        self.kind = kind
        self.volume = volume
        self.loop = loop ?? Self.defaultLoop(for: kind)
        self.priority = priority
        self.maxInstances = maxInstances ?? Self.defaultMaxInstances(for: kind)
        self.steal = steal
        self.stream = stream
        self.coalesceMilliseconds = coalesceMilliseconds ?? Self.defaultCoalesceMilliseconds(for: kind)
        self.loopStart = loopStart
        self.loopEnd = loopEnd
        self.channels = channels
        self.strict = strict
        self.tempo = tempo
        self.markers = markers
        self.stems = stems
    }

    /// How this entry's file is decoded: its `channels` and `strict` keys, a chiptune's `track`, a
    /// MIDI file's `soundfont`, and for a looping song with no loop points of its own, looping by the
    /// song's structure.
    public var decodingOptions: DecodingOptions {
        DecodingOptions(
            channels: channels, strict: strict, loopModules: loopsBySongStructure, track: track,
            soundFont: resolvedSoundFont)
    }

    /// True when a song (module, chiptune, MIDI) plays on by its own song structure: it loops and the catalogue sets
    /// no loop points that would override the song's.
    public var loopsBySongStructure: Bool { loop && loopStart == nil && loopEnd == nil }

    /// The manifest's default for `loop`, per kind.
    /// - Parameter kind: The entry's kind.
    /// - Returns: True for music, false for effects and voice.
    public static func defaultLoop(for kind: SoundKind) -> Bool { kind == .music }

    /// The manifest's default for `maxInstances`, per kind.
    /// - Parameter kind: The entry's kind.
    /// - Returns: 8 for effects, 1 for music and voice.
    public static func defaultMaxInstances(for kind: SoundKind) -> Int { kind == .effect ? 8 : 1 }

    /// The manifest's default for `coalesceMs`, per kind.
    /// - Parameter kind: The entry's kind.
    /// - Returns: 5 milliseconds for effects, 0 (no merging) for music and voice.
    public static func defaultCoalesceMilliseconds(for kind: SoundKind) -> Double {
        kind == .effect ? 5 : 0
    }

    /// The manifest's default for `volume`.
    public static let defaultVolume: Float = 1
    /// The manifest's default for `priority`.
    public static let defaultPriority = 128
    /// The manifest's default for `steal`.
    public static let defaultSteal = StealPolicy.oldest
}
