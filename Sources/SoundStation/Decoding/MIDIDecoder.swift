import CFluidSynth
import Glibc

/// Where MIDI files find their instruments: the SoundFont a catalogue names, or the General MIDI
/// SoundFont a Debian package installs, looked for when a song is opened (so a player's machine
/// uses its own).
public enum SoundFonts {
    /// The Debian package to install when no SoundFont is found: TimGM6mb, 6 MB.
    public static let package = "timgm6mb-soundfont"

    /// Where a General MIDI SoundFont is looked for, in order: the `default-GM` alternative Debian's
    /// SoundFont packages register (TimGM6mb, FluidR3, MuseScore's), then the packages' own files.
    public static let defaultCandidates = [
        "/usr/share/sounds/sf2/default-GM.sf2", "/etc/alternatives/default-GM.sf2",
        "/usr/share/sounds/sf2/TimGM6mb.sf2", "/usr/share/sounds/sf2/FluidR3_GM.sf2",
        "/usr/share/sounds/sf3/default-GM.sf3", "/usr/share/sounds/sf3/MuseScore_General.sf3",
        "/usr/share/sounds/sf3/FluidR3Mono_GM.sf3",
    ]

    /// The SoundFont a MIDI file plays through.
    /// - Parameters:
    ///   - named: The one the catalogue names, or nil for the system's default.
    ///   - song: The MIDI file, for messages.
    ///   - candidates: Where to look for the default.
    /// - Returns: A readable SoundFont's path.
    /// - Throws: ``AudioDecodingError/unreadable(path:reason:)`` naming the missing SoundFont, or the
    ///   Debian package to install when there is no default.
    public static func find(
        named: String?, for song: String, candidates: [String] = SoundFonts.defaultCandidates
    ) throws(AudioDecodingError) -> String {
        if let named {
            guard access(named, R_OK) == 0 else {
                throw .unreadable(path: song, reason: "its SoundFont '\(named)' cannot be read")
            }
            return named
        }
        if let found = candidates.first(where: { access($0, R_OK) == 0 }) { return found }
        throw .unreadable(
            path: song,
            reason:
                "a MIDI file needs a SoundFont and none is installed: install Debian's \(package) "
                + "(apt install \(package)) or name one with the catalogue's \"soundfont\" key")
    }
}

/// Plays Standard MIDI files through FluidSynth and a SoundFont, at 48 kHz stereo.
///
/// One pass is the song and one second after its end for the last notes to fade. With
/// ``DecodingOptions/loopModules`` the song plays on for ever: at its end it goes back to its loop
/// start (the first controller 111, else its beginning), and the decoder reports
/// ``endlessFrameCount`` frames. FluidSynth's messages are kept off the terminal. Owns one synth and
/// player, freed in `deinit`. Not thread-safe: use one decoder per stream.
public final class MIDIDecoder: StreamingDecoder {
    /// The rate songs are rendered at, the engine's mixing rate.
    public static let sampleRate = 48_000
    /// The frame count of an endless (looping) stream: about 12 hours at 48 kHz.
    public static let endlessFrameCount = Int(Int32.max)
    /// MIDI files above this size are refused (songs are kilobytes).
    public static let maximumFileBytes = 16 << 20
    /// The size rule for ``maximumFileBytes``, shared by the file and the memory initialisers.
    static let wholeFile = WholeFileLimit(bytes: maximumFileBytes, kind: "a MIDI file")
    /// The seconds a pass goes on after the song's last event, for notes to fade.
    public static let tailSeconds = 1.0
    /// The synth's output gain: FluidSynth's default (0.2) leaves a General MIDI song far below full
    /// scale; 0.5 keeps a dense one clear of clipping.
    static let gain = 0.5

    /// Format, 48 kHz, 2 channels and the frames of one pass (endless when looping).
    public let info: AudioFileInfo
    /// The SoundFont the song plays through.
    public let soundFont: String
    /// The frame the song's loop starts at: its first controller 111, else 0.
    public let loopStartFrame: Int
    /// The frame the song ends at (its last End of Track).
    public let endFrame: Int

    private let bytes: [UInt8]
    private let name: String
    private let looping: Bool
    private let song: MIDISong
    private let settings: OpaquePointer
    private var synth: OpaquePointer
    private var player: OpaquePointer?
    /// Frames handed out of the current time through the song (back at the loop start after a loop).
    private var songFrame = 0
    /// Frames handed out since the start of the stream.
    private var position = 0
    private let passFrames: Int

    /// Loads a MIDI file held in memory.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - name: The file name to use in error messages.
    ///   - options: The SoundFont and whether it loops.
    /// - Throws: ``AudioDecodingError`` naming `name`: not a MIDI file, damaged, or no SoundFont.
    public init(bytes: [UInt8], name: String, options: DecodingOptions = DecodingOptions())
        throws(AudioDecodingError)
    {
        try Self.wholeFile.check(bytes.count, name: name)
        let song = try MIDISong(bytes: bytes, name: name)
        let font = try SoundFonts.find(named: options.soundFont, for: name)
        var failure = [CChar](repeating: 0, count: 256)
        guard ssfs_load(&failure, Int32(failure.count)) == 0 else {
            let reason = String(
                decoding: failure.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .unreadable(
                path: name,
                reason:
                    "MIDI plays through FluidSynth, which cannot be loaded (\(reason)): install Debian's libfluidsynth3"
            )
        }
        guard let settings = ssfs_new_fluid_settings() else {
            throw .unreadable(path: name, reason: "FluidSynth could not make its settings (out of memory?)")
        }
        ssfs_fluid_settings_setnum(settings, "synth.sample-rate", Double(Self.sampleRate))
        ssfs_fluid_settings_setnum(settings, "synth.gain", Self.gain)
        // The player follows the samples rendered, not the wall clock: rendering faster than real
        // time (a whole decode, a seek) keeps the song's timing.
        ssfs_fluid_settings_setstr(settings, "player.timing-source", "sample")
        ssfs_fluid_settings_setint(settings, "synth.threadsafe-api", 0)
        let synth: OpaquePointer
        do { synth = try Self.makeSynth(settings, font: font, name: name) } catch {
            ssfs_delete_fluid_settings(settings)
            throw error
        }
        let rate = Double(Self.sampleRate)
        endFrame = Int((song.endSeconds * rate).rounded())
        loopStartFrame = Int((song.loopSeconds * rate).rounded())
        passFrames = endFrame + Int(Self.tailSeconds * rate)
        self.song = song
        self.bytes = bytes
        self.name = name
        self.settings = settings
        self.synth = synth
        soundFont = font
        looping = options.loopModules
        let fontName = PathText.lastComponent(font)
        info = AudioFileInfo(
            format: .midi, sampleRate: Self.sampleRate, channels: 2,
            frameCount: looping ? Self.endlessFrameCount : passFrames,
            encoding: "\(song.trackCount) track\(song.trackCount == 1 ? "" : "s"), \(fontName)")
        try startPlayer()
    }

    /// Loads a MIDI file.
    /// - Parameters:
    ///   - path: The file.
    ///   - options: The SoundFont (``DecodingOptions/soundFont``) and whether it loops.
    /// - Throws: ``AudioDecodingError`` naming the file and what is wrong.
    public convenience init(path: String, options: DecodingOptions = DecodingOptions())
        throws(AudioDecodingError)
    {
        try self.init(bytes: Self.wholeFile.read(path), name: path, options: options)
    }

    deinit {
        if let player {
            ssfs_fluid_player_stop(player)
            ssfs_delete_fluid_player(player)
        }
        ssfs_delete_fluid_synth(synth)
        ssfs_delete_fluid_settings(settings)
    }

    /// A synth with the SoundFont loaded (FluidSynth keeps a loaded SoundFont's samples in a cache
    /// for the process, so a second synth on it loads at once).
    private static func makeSynth(_ settings: OpaquePointer, font: String, name: String)
        throws(AudioDecodingError) -> OpaquePointer
    {
        guard let synth = ssfs_new_fluid_synth(settings) else {
            throw .unreadable(path: name, reason: "FluidSynth could not make a synth")
        }
        guard ssfs_fluid_synth_sfload(synth, font, 1) != FLUID_FAILED else {
            ssfs_delete_fluid_synth(synth)
            throw .unreadable(
                path: name,
                reason: "FluidSynth cannot load its SoundFont '\(font)' (damaged, or not a SoundFont)")
        }
        return synth
    }

    /// A new player at the song's start.
    private func startPlayer() throws(AudioDecodingError) {
        guard let player = ssfs_new_fluid_player(synth) else {
            throw .unreadable(path: name, reason: "FluidSynth could not make a player")
        }
        self.player = player
        let added = bytes.withUnsafeBytes { ssfs_fluid_player_add_mem(player, $0.baseAddress, $0.count) }
        // Looping, the player starts again by itself should it reach the end before the decoder
        // sends it to the loop start (it ends on a 64-frame block boundary).
        if looping { ssfs_fluid_player_set_loop(player, -1) }
        guard added == FLUID_OK, ssfs_fluid_player_play(player) == FLUID_OK else {
            throw .corrupt(path: name, reason: "FluidSynth cannot play it")
        }
        songFrame = 0
        position = 0
    }

    /// Renders the next frames.
    /// - Parameter maxFrames: The most frames to return; fewer only at the end of a pass.
    /// - Returns: Interleaved stereo samples; empty once one pass has played (never when looping).
    /// - Throws: Never in practice; the signature is the protocol's.
    public func read(maxFrames: Int) throws(AudioDecodingError) -> [Float] {
        var wanted = min(max(maxFrames, 0), 1 << 16)
        if !looping { wanted = min(wanted, passFrames - position) }
        guard wanted > 0 else { return [] }
        var out = [Float](repeating: 0, count: wanted * 2)
        var done = 0
        while done < wanted {
            var frames = wanted - done
            if looping {
                if songFrame >= endFrame, let player {
                    // The song's end: back to its loop start; the notes still sounding are released.
                    ssfs_fluid_player_seek(player, Int32(song.hasLoopMarker ? song.loopTick : 0))
                    songFrame = loopStartFrame
                }
                frames = min(frames, max(endFrame - songFrame, 1))
            }
            render(into: &out, at: done, frames: frames)
            done += frames
            songFrame += frames
        }
        position += wanted
        return out
    }

    private func render(into out: inout [Float], at frame: Int, frames: Int) {
        out.withUnsafeMutableBufferPointer { buffer in
            let base = UnsafeMutableRawPointer(buffer.baseAddress! + frame * 2)
            _ = ssfs_fluid_synth_write_float(synth, Int32(frames), base, 0, 2, base, 1, 2)
        }
    }

    /// Moves to a frame by playing the song again from its start up to it (each note depends on the
    /// controllers and notes before it) on a new synth, so the position is exact to the sample.
    /// - Parameter frame: The frame to read next; clamped to one pass unless looping, and within the
    ///   loop when beyond the song's end.
    /// - Throws: ``AudioDecodingError`` when FluidSynth cannot restart the song.
    public func seek(toFrame frame: Int) throws(AudioDecodingError) {
        var target = max(frame, 0)
        if looping, target > endFrame {
            let loop = max(endFrame - loopStartFrame, 1)
            target = loopStartFrame + (target - loopStartFrame) % loop
        } else if !looping {
            target = min(target, passFrames)
        }
        // A new synth: a reset one would keep its reverb's tail and its place in a 64-frame block,
        // and the samples would differ from a first play's.
        if let player {
            ssfs_fluid_player_stop(player)
            ssfs_delete_fluid_player(player)
            self.player = nil
        }
        let fresh = try Self.makeSynth(settings, font: soundFont, name: name)
        ssfs_delete_fluid_synth(synth)
        synth = fresh
        try startPlayer()
        var scratch = [Float](repeating: 0, count: 8192 * 2)
        var left = target
        while left > 0 {
            let frames = min(left, 8192)
            render(into: &scratch, at: 0, frames: frames)
            left -= frames
        }
        songFrame = target
        position = max(frame, 0)
    }

    /// Renders one pass of the song and its tail.
    /// - Returns: 48 kHz stereo audio.
    /// - Throws: ``AudioDecodingError`` when the decoder loops (it never ends).
    public func readAll() throws(AudioDecodingError) -> PCMAudio {
        guard !looping else {
            throw .unsupportedFormat(path: name, reason: "a looping MIDI song never ends; decode one pass")
        }
        return try renderPass(expectedFrames: passFrames, name: name)
    }
}
