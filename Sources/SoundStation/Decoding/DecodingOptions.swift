import Glibc

/// What to do with a file of more than two channels.
public enum ChannelSelection: String, Sendable, CaseIterable {
    /// Mix to stereo with the ITU-R BS.775 coefficients: front left and right at 0 dB, centre and
    /// surrounds at -3 dB (0.7071), LFE dropped. The catalogue's default (`"channels": "downmix"`).
    case downmix
    /// Keep the first two channels as they are and drop the rest (`"channels": "first-two"`).
    case firstTwo = "first-two"
}

/// Something wrong with a file that still loads: what is there is played, and this says what is not.
public struct AudioDecodingWarning: Sendable, Equatable, CustomStringConvertible {
    /// The file the warning is about.
    public let path: String
    /// What is wrong, e.g. "it is cut short: the header declares 48000 frames, 12000 are present".
    public let reason: String

    /// Creates a warning.
    /// - Parameters:
    ///   - path: The file.
    ///   - reason: What is wrong.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// One line naming the file and what is wrong.
    public var description: String {
        "Audio file '\(path)' \(reason); playing the part that is there. Re-export or re-copy it."
    }
}

/// How a file is decoded: what happens to extra channels, and whether a file cut short is an error.
public struct DecodingOptions: Sendable {
    /// More than two channels: downmix (the default) or keep the first two.
    public var channels: ChannelSelection
    /// True: a file cut short is a ``AudioDecodingError/truncated(path:reason:)`` error. False (the
    /// default): what is there loads and ``warn`` is told.
    public var strict: Bool
    /// For a streamed tracker module, chiptune or MIDI song: go on by the song's own structure (its restart position,
    /// backward jumps) for ever instead of ending after one pass.
    public var loopModules: Bool
    /// Which song of a chiptune rip that holds several (NSF, SPC sets, GBS, AY, ...), from 1; 1 by
    /// default (catalogue key `track`). Files of one song accept only 1.
    public var track: Int
    /// The SoundFont (.sf2/.sf3) a MIDI file plays through; nil for the default one a Debian package
    /// installs, found at run time (``SoundFonts/defaultCandidates``; catalogue key `soundfont`).
    public var soundFont: String?
    /// Receives warnings about files that load anyway; the default (``noticeWarning``) hands them to
    /// every open engine's notice handler (``AudioEngine/onNotice(_:)``): a library never writes on
    /// the terminal.
    public var warn: @Sendable (AudioDecodingWarning) -> Void
    /// Whether a long Ogg Vorbis file's whole decode may run in two halves on two threads
    /// (``VorbisFileDecoder/readAll()``; the samples are the same): set by ``SoundBank/preload(_:progress:)``,
    /// which loads on every core and must not wait for its longest file on one of them. Not part of
    /// what the decoded-PCM cache keys on, since it changes nothing in the result.
    var splitsLongDecodes = false

    /// Creates decoding options.
    /// - Parameters:
    ///   - channels: What to do with more than two channels.
    ///   - strict: Whether a file cut short is an error.
    ///   - loopModules: Whether a streamed module, chiptune or MIDI song plays on by its own loop.
    ///   - track: Which song of a chiptune rip, from 1.
    ///   - soundFont: The SoundFont a MIDI file plays through; nil for the system's default.
    ///   - warn: Receives warnings; the default hands them to the open engines' notice handlers.
    public init(
        channels: ChannelSelection = .downmix, strict: Bool = false, loopModules: Bool = false,
        track: Int = 1, soundFont: String? = nil,
        warn: @escaping @Sendable (AudioDecodingWarning) -> Void = DecodingOptions.noticeWarning
    ) {
        self.channels = channels
        self.strict = strict
        self.loopModules = loopModules
        self.track = track
        self.soundFont = soundFont
        self.warn = warn
    }

    /// Hands `warning` to every open engine's notice handler (``AudioEngine/onNotice(_:)``), as one
    /// line: the default, so that decoding never writes on a game's terminal.
    /// - Parameter warning: The warning.
    public static let noticeWarning: @Sendable (AudioDecodingWarning) -> Void = { warning in
        LibraryNotices.post(warning.description)
    }

    /// A file cut short: an error when strict, else a warning and what is there.
    func cutShort(path: String, reason: String) throws(AudioDecodingError) {
        if strict { throw .truncated(path: path, reason: reason) }
        warn(AudioDecodingWarning(path: path, reason: "is cut short: \(reason)"))
    }
}

extension DecodingOptions {
    /// These options with warnings kept (each once) instead of passed to ``warn``, and a way to read
    /// them: for a loader that reports them with the sound's name.
    package func collectingWarnings() -> (
        options: DecodingOptions, warnings: @Sendable () -> [AudioDecodingWarning]
    ) {
        let collected = Locked<[AudioDecodingWarning]>([])
        var options = self
        options.warn = { warning in
            collected.withLock { if !$0.contains(warning) { $0.append(warning) } }
        }
        return (options, { collected.withLock { $0 } })
    }
}
