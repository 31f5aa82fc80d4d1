import CGME
import Glibc

/// Plays chiptune rips and logs (NSF, NSFe, SPC, GBS, VGM, VGZ, AY, HES, KSS, SAP, GYM) through Game
/// Music Emu at 48 kHz stereo, by emulating the console's sound chips running the song's own code or
/// register log.
///
/// One pass of a track is its intro and one time round its loop when the file says how long those are
/// (VGM, NSFe, SPC tags), else the length the file gives, else Game Music Emu's default of 150
/// seconds; a track that goes quiet for good ends sooner. With ``DecodingOptions/loopModules`` the
/// decoder plays on for ever instead, so the song loops where its own data loops (a VGM's loop offset,
/// the jump at the end of an NSF's or SPC's sequence), and reports ``endlessFrameCount`` frames.
/// Owns one `Music_Emu`, freed in `deinit`. Not thread-safe: use one decoder per stream.
public final class ChiptuneDecoder: StreamingDecoder {
    /// The rate songs are rendered at, the engine's mixing rate.
    public static let sampleRate = 48_000
    /// The frame count of an endless (looping) stream: about 12 hours at 48 kHz.
    public static let endlessFrameCount = Int(Int32.max)
    /// Files above this size are refused before anything is loaded (rips are kilobytes; the largest
    /// VGM logs a few megabytes).
    public static let maximumFileBytes = 32 << 20
    /// The size rule for ``maximumFileBytes``, shared by the file and the memory initialisers.
    static let wholeFile = WholeFileLimit(bytes: maximumFileBytes, kind: "a chiptune")

    /// Format, 48 kHz, 2 channels and the frames of one pass (endless when looping).
    public let info: AudioFileInfo
    /// The songs the file holds.
    public let trackCount: Int
    /// The song's title as the file names it (empty when it does not).
    public let title: String
    /// Where the song's loop begins, in frames from its start, when the file says (its intro's
    /// length); nil when it does not.
    public let loopStartFrame: Int?
    /// The length of the song's loop in frames, when the file says.
    public let loopFrames: Int?

    private let emulator: OpaquePointer
    private let name: String
    private let track: Int32
    private let looping: Bool
    /// Frames of one pass, the end of a stream that does not loop.
    private let passFrames: Int
    /// Frames handed out since the start of the track.
    private var position = 0

    /// Loads a rip from a file.
    /// - Parameters:
    ///   - path: The file.
    ///   - options: The track (``DecodingOptions/track``, from 1) and whether it loops.
    /// - Throws: ``AudioDecodingError`` naming the file and what Game Music Emu found wrong.
    public convenience init(path: String, options: DecodingOptions = DecodingOptions())
        throws(AudioDecodingError)
    {
        try self.init(bytes: Self.wholeFile.read(path), name: path, options: options)
    }

    /// Loads a rip held in memory (an asset pack, bytes a game holds).
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - name: The file name to use in error messages.
    ///   - options: The track (from 1) and whether it loops.
    /// - Throws: ``AudioDecodingError`` naming `name`: not a rip Game Music Emu plays, damaged, or a
    ///   track it does not hold.
    public init(bytes: [UInt8], name: String, options: DecodingOptions = DecodingOptions())
        throws(AudioDecodingError)
    {
        var opened: OpaquePointer?
        try Self.wholeFile.check(bytes.count, name: name)
        let failure = bytes.withUnsafeBytes { raw in
            gme_open_data(raw.baseAddress, raw.count, &opened, Int32(Self.sampleRate))
        }
        guard failure == nil, let emulator = opened else {
            if let opened { gme_delete(opened) }
            throw .corrupt(
                path: name, reason: "Game Music Emu cannot load it: \(Self.text(failure) ?? "unknown error")")
        }
        let count = Int(gme_track_count(emulator))
        guard (1...max(count, 1)).contains(options.track), count > 0 else {
            gme_delete(emulator)
            throw .unsupportedFormat(
                path: name,
                reason:
                    "it holds \(count) track\(count == 1 ? "" : "s") (1 to \(count)), not track \(options.track)"
            )
        }
        let track = Int32(options.track - 1)
        var details: UnsafeMutablePointer<gme_info_t>?
        var intro = -1
        var loop = -1
        var length = -1
        var playLength = 150_000
        var title = ""
        var system = ""
        if gme_track_info(emulator, &details, track) == nil, let details {
            intro = Int(details.pointee.intro_length)
            loop = Int(details.pointee.loop_length)
            length = Int(details.pointee.length)
            playLength = Int(details.pointee.play_length)
            title = Self.text(details.pointee.song) ?? ""
            system = Self.text(details.pointee.system) ?? ""
            gme_free_info(details)
        }
        // Lengths are in milliseconds; the song's own loop is the surest one pass.
        let passMilliseconds =
            loop > 0 ? max(intro, 0) + loop : length > 0 ? length : max(playLength, 1000)
        // The decoder ends a pass itself (a hard stop at the loop point, so a loop of the decoded
        // pass is seamless), not by Game Music Emu's fade at its estimated length.
        gme_set_autoload_playback_limit(emulator, 0)
        if let error = gme_start_track(emulator, track) {
            gme_delete(emulator)
            throw .corrupt(
                path: name,
                reason: "Game Music Emu cannot start track \(options.track): \(Self.text(error) ?? "")")
        }
        let rate = Self.sampleRate
        passFrames = passMilliseconds * rate / 1000
        loopStartFrame = loop > 0 ? max(intro, 0) * rate / 1000 : nil
        loopFrames = loop > 0 ? loop * rate / 1000 : nil
        trackCount = count
        self.title = title
        self.emulator = emulator
        self.name = name
        self.track = track
        looping = options.loopModules
        let detected =
            (try? FormatDetection.detect(
                Array(bytes.prefix(FormatDetection.probeLength)), in: bytes, name: name))
            ?? .vgm
        var encoding = system.isEmpty ? [] : [system]
        if count > 1 { encoding.append("track \(options.track) of \(count)") }
        info = AudioFileInfo(
            format: detected.isChiptune ? detected : .vgm, sampleRate: rate, channels: 2,
            frameCount: looping ? Self.endlessFrameCount : passFrames,
            encoding: encoding.isEmpty ? nil : encoding.joined(separator: ", "))
    }

    deinit {
        gme_delete(emulator)
    }

    /// Renders the next frames.
    /// - Parameter maxFrames: The most frames to return; fewer only at the end of a pass.
    /// - Returns: Interleaved stereo samples; empty once one pass has played (when looping, only if
    ///   the song itself stops, e.g. a VGM log without a loop).
    /// - Throws: ``AudioDecodingError`` when the emulator reports an error mid-song.
    public func read(maxFrames: Int) throws(AudioDecodingError) -> [Float] {
        var frames = min(max(maxFrames, 0), 1 << 16)
        if !looping { frames = min(frames, passFrames - position) }
        guard frames > 0, gme_track_ended(emulator) == 0 else { return [] }
        var shorts = [Int16](repeating: 0, count: frames * 2)
        let error = shorts.withUnsafeMutableBufferPointer {
            gme_play(emulator, Int32($0.count), $0.baseAddress)
        }
        if let error {
            throw .corrupt(path: name, reason: "Game Music Emu stopped: \(Self.text(error) ?? "")")
        }
        position += frames
        return shorts.map { Float($0) / 32_768 }
    }

    /// Moves to a frame by starting the track again and playing up to it (Game Music Emu's own skip
    /// leaves its resampler at another phase), so the position is exact to the sample.
    /// - Parameter frame: The frame to read next; clamped to one pass unless looping.
    /// - Throws: ``AudioDecodingError`` when the emulator cannot restart the track.
    public func seek(toFrame frame: Int) throws(AudioDecodingError) {
        var target = max(frame, 0)
        if !looping { target = min(target, passFrames) }
        if let error = gme_start_track(emulator, track) {
            throw .corrupt(
                path: name, reason: "Game Music Emu cannot restart the track: \(Self.text(error) ?? "")")
        }
        position = 0
        var scratch = [Int16](repeating: 0, count: 8_192 * 2)
        while position < target, gme_track_ended(emulator) == 0 {
            let frames = min(target - position, 8_192)
            let error = scratch.withUnsafeMutableBufferPointer {
                gme_play(emulator, Int32(frames * 2), $0.baseAddress)
            }
            if let error {
                throw .corrupt(path: name, reason: "Game Music Emu stopped: \(Self.text(error) ?? "")")
            }
            position += frames
        }
    }

    /// Renders one pass of the track.
    /// - Returns: 48 kHz stereo audio.
    /// - Throws: ``AudioDecodingError`` when the emulator fails mid-song.
    public func readAll() throws(AudioDecodingError) -> PCMAudio {
        guard !looping else {
            throw .unsupportedFormat(path: name, reason: "a looping chiptune never ends; decode one pass")
        }
        return try renderPass(expectedFrames: passFrames, name: name)
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)).prefix(256).map {
            (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
