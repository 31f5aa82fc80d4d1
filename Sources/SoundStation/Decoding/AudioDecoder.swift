/// The entry point for loading sounds: picks the decoder from the file's contents (magic bytes,
/// never the extension), so a mislabelled file still loads.
///
/// | Format | Decoder |
/// | --- | --- |
/// | WAV (RIFF, RIFX, RF64), PCM 8/16/24/32-bit and float 32/64-bit, plain or extensible | ``WAVDecoder``, ``WAVStreamDecoder`` (Swift) |
/// | compressed WAV (mu-law, A-law, IMA/MS ADPCM, GSM), AIFF, FLAC, Opus | ``SndFileDecoder`` (libsndfile) |
/// | MP3 (and MP2, MP1) | libmpg123, quiet (a damaged file never writes on the terminal) |
/// | Ogg Vorbis | ``VorbisFileDecoder`` (libvorbisfile) |
/// | MOD, XM, S3M, IT | ``ModuleDecoder`` (libxmp, 48 kHz stereo) |
/// | NSF, NSFe, SPC, GBS, VGM, VGZ, AY, HES, KSS, SAP, GYM | ``ChiptuneDecoder`` (Game Music Emu, 48 kHz stereo) |
/// | MIDI (Standard MIDI file) | ``MIDIDecoder`` (FluidSynth and a SoundFont, 48 kHz stereo) |
public enum AudioDecoder {
    /// Reads format, rate, channels and length from the headers only; cheap enough to call for every
    /// asset (a module is loaded, not rendered).
    /// - Parameters:
    ///   - path: The file to inspect.
    ///   - options: Channel handling; with `strict`, a file cut short is an error here already.
    /// - Returns: What the file holds; `channels` is what decoding gives (at most 2).
    /// - Throws: ``AudioDecodingError`` naming the file and what is wrong.
    public static func info(
        ofFileAt path: String, options: DecodingOptions = DecodingOptions()
    ) throws(AudioDecodingError) -> AudioFileInfo {
        let file = try InputFile(path: path)
        let format = try detect(file, name: path)
        switch format {
        case .wav:
            let layout = try WAVLayout(of: file, name: path)
            if options.strict, let shortfall = layout.shortfall {
                throw .truncated(path: path, reason: shortfall)
            }
            return layout.isNative
                ? layout.info
                : try layout.libraryDecoder(source: file, name: path, options: options).info
        default:
            return try openStream(file: file, format: format, options: options).info
        }
    }

    /// Decodes a whole file into memory.
    /// - Parameters:
    ///   - path: A file in any supported format.
    ///   - options: Channel handling and strictness; by default more than two channels are mixed
    ///     down and a file cut short loads what is there with a warning.
    /// - Returns: Mono or stereo float samples at the file's rate (48 kHz for modules).
    /// - Throws: ``AudioDecodingError`` naming the file and what is wrong.
    public static func decode(
        fileAt path: String, options: DecodingOptions = DecodingOptions()
    ) throws(AudioDecodingError) -> PCMAudio {
        let file = try InputFile(path: path)
        return try decode(source: file, format: try detect(file, name: path), name: path, options: options)
    }

    /// Decodes a whole file already in memory, e.g. from an asset pack.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - name: The file name to use in error messages.
    ///   - options: Channel handling and strictness.
    /// - Returns: Mono or stereo float samples.
    /// - Throws: ``AudioDecodingError`` naming `name` and what is wrong.
    public static func decode(
        bytes: [UInt8], name: String, options: DecodingOptions = DecodingOptions()
    ) throws(AudioDecodingError) -> PCMAudio {
        if bytes.isEmpty { throw .unreadable(path: name, reason: "the file is empty (0 bytes)") }
        return try decode(source: bytes, format: try detect(bytes, name: name), name: name, options: options)
    }

    /// Opens a file for streaming with the decoder its contents call for.
    /// - Parameters:
    ///   - path: A file in any supported format.
    ///   - options: Channel handling, and for modules whether they loop by their song structure.
    /// - Returns: A decoder positioned at the first frame.
    /// - Throws: ``AudioDecodingError`` naming the file and what is wrong.
    public static func openStream(
        fileAt path: String, options: DecodingOptions = DecodingOptions()
    ) throws(AudioDecodingError) -> any StreamingDecoder {
        let file = try InputFile(path: path)
        return try openStream(file: file, format: try detect(file, name: path), options: options)
    }

    /// The format of a file from its first bytes.
    /// - Parameter path: The file to look at.
    /// - Returns: The format its magic bytes name.
    /// - Throws: ``AudioDecodingError`` when it is unreadable or no known format.
    public static func format(ofFileAt path: String) throws(AudioDecodingError) -> AudioFileFormat {
        try detect(try InputFile(path: path), name: path)
    }

    static func detect(_ source: some ByteSource, name: String) throws(AudioDecodingError) -> AudioFileFormat
    {
        try FormatDetection.detect(
            source.bytes(at: 0, count: FormatDetection.probeLength), in: source, name: name)
    }

    private static func openStream(
        file: InputFile, format: AudioFileFormat, options: DecodingOptions
    ) throws(AudioDecodingError) -> any StreamingDecoder {
        switch format {
        case .oggVorbis:
            return try VorbisFileDecoder(file: file, options: options)
        case .mod, .xm, .s3m, .it:
            return try ModuleDecoder(
                bytes: ModuleDecoder.wholeFile.read(file), name: file.path, options: options)
        case .midi, .nsf, .nsfe, .spc, .gbs, .vgm, .vgz, .ay, .hes, .kss, .sap, .gym:
            return try songDecoder(format: format, source: file, name: file.path, options: options)
        case .wav:
            let layout = try WAVLayout(of: file, name: file.path)
            if layout.isNative {
                return try WAVStreamDecoder(file: file, layout: layout, options: options)
            }
            return try layout.libraryDecoder(source: file, name: file.path, options: options)
        case .mp3:
            return try MPEGDecoder(source: file, name: file.path, options: options)
        case .aiff, .oggOpus, .flac:
            return try libraryDecoder(format: format, source: file, name: file.path, options: options)
        }
    }

    /// Decodes `source`, already known to hold `format` (also the decoded-PCM cache's way in).
    static func decode(
        source: some ByteSource, format: AudioFileFormat, name: String, options: DecodingOptions
    ) throws(AudioDecodingError) -> PCMAudio {
        switch format {
        case .wav:
            let layout = try WAVLayout(of: source, name: name)
            if layout.isNative {
                return try WAVDecoder.decode(layout: layout, from: source, name: name, options: options)
            }
            return try layout.libraryDecoder(source: source, name: name, options: options).readAll()
        case .oggVorbis:
            // libvorbisfile plays every whole page before a cut; the cut is reported here.
            var options = options
            if let shortfall = try OggPages.completeExtent(of: source).shortfall {
                try options.cutShort(path: name, reason: shortfall)
                // A file cut short is decoded in one pass, as it always was.
                options.splitsLongDecodes = false
            }
            let decoder: VorbisFileDecoder
            if let file = source as? InputFile {
                decoder = try VorbisFileDecoder(file: file, options: options)
            } else {
                decoder = try VorbisFileDecoder(
                    bytes: source.bytes(at: 0, count: source.byteCount), name: name, options: options)
            }
            return try decoder.readAll()
        case .mod, .xm, .s3m, .it:
            guard source.byteCount <= ModuleDecoder.maximumFileBytes else {
                throw .unsupportedFormat(
                    path: name, reason: "a module of \(source.byteCount) bytes (at most 64 MiB)")
            }
            // A whole decode is one pass of the song, whatever the looping option.
            var onePass = options
            onePass.loopModules = false
            return try ModuleDecoder(
                bytes: source.bytes(at: 0, count: source.byteCount), name: name, options: onePass
            )
            .readAll()
        case .midi, .nsf, .nsfe, .spc, .gbs, .vgm, .vgz, .ay, .hes, .kss, .sap, .gym:
            // A whole decode is one pass of the song, whatever the looping option.
            var onePass = options
            onePass.loopModules = false
            let decoder = try songDecoder(format: format, source: source, name: name, options: onePass)
            return try decoder.readRemaining(
                declaredFrames: 0, byteCount: decoder.info.frameCount, name: name, options: onePass)
        case .mp3:
            return try MPEGDecoder(source: source, name: name, options: options).readAll()
        case .aiff, .oggOpus, .flac:
            return try libraryDecoder(format: format, source: source, name: name, options: options).readAll()
        }
    }

    /// The decoder of a chiptune or MIDI song, from its bytes (a file's, or a game's in memory).
    /// - Parameters:
    ///   - format: A chiptune format or `.midi`.
    ///   - source: The file's contents.
    ///   - name: The file name for messages.
    ///   - options: Track, SoundFont and looping.
    static func songDecoder(
        format: AudioFileFormat, source: some ByteSource, name: String, options: DecodingOptions
    ) throws(AudioDecodingError) -> any StreamingDecoder {
        let limit = format == .midi ? MIDIDecoder.maximumFileBytes : ChiptuneDecoder.maximumFileBytes
        guard source.byteCount <= limit else {
            throw .unsupportedFormat(
                path: name,
                reason:
                    "a \(format.displayName) file of \(source.byteCount) bytes (at most \(limit >> 20) MiB)")
        }
        let bytes = try source.bytes(at: 0, count: source.byteCount)
        if format == .midi { return try MIDIDecoder(bytes: bytes, name: name, options: options) }
        return try ChiptuneDecoder(bytes: bytes, name: name, options: options)
    }

    /// Opens bytes held in memory for streaming, with the decoder their contents call for: the way a
    /// game's own bytes (not a file) play as a streamed, looping song.
    /// - Parameters:
    ///   - bytes: A whole file's contents.
    ///   - name: The name to use in messages.
    ///   - options: Channel handling, track, SoundFont and looping.
    /// - Returns: A decoder positioned at the first frame.
    /// - Throws: ``AudioDecodingError`` naming `name` and what is wrong.
    public static func openStream(
        bytes: [UInt8], name: String, options: DecodingOptions = DecodingOptions()
    ) throws(AudioDecodingError) -> any StreamingDecoder {
        if bytes.isEmpty { throw .unreadable(path: name, reason: "the file is empty (0 bytes)") }
        let format = try detect(bytes, name: name)
        switch format {
        case .mod, .xm, .s3m, .it:
            return try ModuleDecoder(bytes: bytes, name: name, options: options)
        case .oggVorbis:
            return try VorbisFileDecoder(bytes: bytes, name: name, options: options)
        case .midi, .nsf, .nsfe, .spc, .gbs, .vgm, .vgz, .ay, .hes, .kss, .sap, .gym:
            return try songDecoder(format: format, source: bytes, name: name, options: options)
        case .wav:
            return try WAVLayout(of: bytes, name: name).libraryDecoder(
                source: bytes, name: name, options: options)
        case .mp3:
            return try MPEGDecoder(source: bytes, name: name, options: options)
        case .aiff, .oggOpus, .flac:
            return try libraryDecoder(format: format, source: bytes, name: name, options: options)
        }
    }

    /// The libsndfile decoder for AIFF, Opus, FLAC and MP3, with what each needs to report a file cut
    /// short: AIFF's declared frame count, and for Opus the whole pages there are (libsndfile finds an
    /// Opus stream's length on its last page and refuses a file cut mid-page).
    private static func libraryDecoder(
        format: AudioFileFormat, source: some ByteSource, name: String, options: DecodingOptions
    ) throws(AudioDecodingError) -> SndFileDecoder {
        switch format {
        case .oggOpus:
            let (complete, shortfall) = try OggPages.completeExtent(of: source)
            let pages = PrefixBytes(source: source, byteCount: complete)
            do {
                return try SndFileDecoder(
                    source: pages, name: name, options: options, knownShortfall: shortfall)
            } catch {
                guard let shortfall else { throw error }
                throw .truncated(path: name, reason: "\(shortfall), before any whole page of audio")
            }
        case .aiff:
            let declared = try AIFFHeader.declaredFrames(in: source)
            return try SndFileDecoder(source: source, name: name, options: options, declaredFrames: declared)
        default:
            return try SndFileDecoder(source: source, name: name, options: options)
        }
    }
}
