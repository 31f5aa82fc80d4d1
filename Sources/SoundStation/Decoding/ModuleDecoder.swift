import CXMP

/// Renders tracker modules (MOD, XM, S3M, IT) through libxmp at 48 kHz stereo, following the song's
/// own structure: its orders, pattern jumps and loops, and its restart position.
///
/// One pass of the song ends where libxmp's loop counter first moves (the song returns to a place it
/// has played); with ``DecodingOptions/loopModules`` the decoder goes on for ever by the song's
/// structure instead and reports ``endlessFrameCount`` frames. Owns one `xmp_context`, freed in
/// `deinit`. Not thread-safe: use one decoder per stream.
public final class ModuleDecoder: StreamingDecoder {
    /// The rate modules are rendered at, the engine's mixing rate.
    public static let sampleRate = 48_000
    /// The frame count of an endless (looping) module stream: about 12 hours at 48 kHz.
    public static let endlessFrameCount = Int(Int32.max)
    /// Module files above this size are refused before anything is loaded.
    public static let maximumFileBytes = 64 << 20
    /// The size rule for ``maximumFileBytes``, shared by the file and the memory initialisers.
    static let wholeFile = WholeFileLimit(bytes: maximumFileBytes, kind: "a module")
    /// A whole decode refuses songs whose one pass is longer than this (they stream instead); a
    /// song still playing after it is treated as one that never ends.
    public static let maximumSeconds = 10 * 60
    /// Stereo separation in percent, libxmp's and the xmp player's default.
    static let stereoSeparation: Int32 = 70
    /// The pan of unpanned channels in percent, the xmp player's default.
    static let defaultPan: Int32 = 50

    /// Format, 48 kHz, 2 channels and the frames of one pass (libxmp's estimate until rendered).
    public let info: AudioFileInfo
    /// The module's title, as stored in the file.
    public let title: String

    private let name: String
    private let context: xmp_context
    private let options: DecodingOptions
    /// Rendered samples not yet handed out.
    private var pending: [Float] = []
    private var pendingStart = 0
    /// Frames rendered since the start of the song.
    private var rendered = 0
    private var ended = false

    /// Loads a module file.
    /// - Parameters:
    ///   - path: The file.
    ///   - options: Whether a streamed module loops by its song (``DecodingOptions/loopModules``).
    /// - Throws: ``AudioDecodingError`` naming the file and what libxmp found wrong.
    public convenience init(path: String, options: DecodingOptions = DecodingOptions())
        throws(AudioDecodingError)
    {
        try self.init(bytes: Self.wholeFile.read(path), name: path, options: options)
    }

    /// Loads a module held in memory.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - name: The file name to use in error messages.
    ///   - options: Whether a streamed module loops by its song.
    /// - Throws: ``AudioDecodingError`` naming `name` and what libxmp found wrong.
    public init(bytes: [UInt8], name: String, options: DecodingOptions = DecodingOptions())
        throws(AudioDecodingError)
    {
        try Self.wholeFile.check(bytes.count, name: name)
        guard let context = xmp_create_context() else {
            throw .unreadable(path: name, reason: "libxmp could not create a player context (out of memory?)")
        }
        // The pan of channels the module leaves unpanned is fixed when loading, so it is set first
        // (50 %, the xmp player's default, where libxmp alone would pan them hard).
        xmp_set_player(context, XMP_PLAYER_DEFPAN, Self.defaultPan)
        let loaded = bytes.withUnsafeBytes { xmp_load_module_from_memory(context, $0.baseAddress, $0.count) }
        guard loaded == 0 else {
            xmp_free_context(context)
            throw Self.loadError(-loaded, name: name)
        }
        guard xmp_start_player(context, Int32(Self.sampleRate), 0) == 0 else {
            xmp_release_module(context)
            xmp_free_context(context)
            throw .corrupt(path: name, reason: "libxmp loaded it but cannot play it")
        }
        Self.configure(context)
        var moduleInfo = xmp_module_info()
        xmp_get_module_info(context, &moduleInfo)
        var frameInfo = xmp_frame_info()
        xmp_get_frame_info(context, &frameInfo)
        let detected =
            (try? FormatDetection.detect(
                Array(bytes.prefix(FormatDetection.probeLength)), in: bytes, name: name)) ?? .mod
        var typeName: String?
        if let module = moduleInfo.mod {
            title = Self.text(module.pointee.name)
            typeName = Self.text(module.pointee.type)
        } else {
            title = ""
        }
        let onePass = Int(max(frameInfo.total_time, 0)) * Self.sampleRate / 1000
        info = AudioFileInfo(
            format: detected.isTrackerModule ? detected : .mod, sampleRate: Self.sampleRate, channels: 2,
            frameCount: options.loopModules ? Self.endlessFrameCount : onePass,
            encoding: typeName.flatMap { $0.isEmpty ? nil : $0 })
        self.context = context
        self.name = name
        self.options = options
    }

    deinit {
        xmp_end_player(context)
        xmp_release_module(context)
        xmp_free_context(context)
    }

    /// Renders the next frames.
    /// - Parameter maxFrames: The most frames to return; fewer only at the end of the song.
    /// - Returns: Interleaved stereo samples; empty once one pass has played (never when looping).
    /// - Throws: Never in practice; the signature is the protocol's.
    public func read(maxFrames: Int) throws(AudioDecodingError) -> [Float] {
        guard maxFrames > 0 else { return [] }
        let wanted = min(maxFrames, 1 << 20) * 2
        while pending.count - pendingStart < wanted, !ended {
            renderTick()
        }
        let count = min(wanted, pending.count - pendingStart)
        let out = Array(pending[pendingStart..<pendingStart + count])
        pendingStart += count
        if pendingStart > 1 << 16 {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        return out
    }

    /// Moves to a frame by rendering the song again from its start up to it, so the position is
    /// exact to the sample (modules have no random access: every note depends on what came before).
    /// - Parameter frame: The frame to read next; clamped to one pass unless looping.
    /// - Throws: ``AudioDecodingError`` when libxmp cannot restart the song.
    public func seek(toFrame frame: Int) throws(AudioDecodingError) {
        var target = max(frame, 0)
        if !options.loopModules { target = min(target, max(info.frameCount, 0)) }
        xmp_end_player(context)
        guard xmp_start_player(context, Int32(Self.sampleRate), 0) == 0 else {
            throw .corrupt(path: name, reason: "libxmp cannot restart the song")
        }
        Self.configure(context)
        pending = []
        pendingStart = 0
        rendered = 0
        ended = false
        while rendered < target, !ended {
            renderTick()
            // Drop whole ticks before the target; keep the tail of the one that crosses it.
            let excess = rendered - target
            let keep = max(0, excess) * 2
            if pending.count > keep {
                pending.removeFirst(pending.count - keep)
            }
        }
    }

    /// Renders one pass of the song (the whole module when it does not loop).
    /// - Returns: 48 kHz stereo audio.
    /// - Throws: ``AudioDecodingError`` when the song never ends within ``maximumSeconds``.
    public func readAll() throws(AudioDecodingError) -> PCMAudio {
        guard info.frameCount <= Self.maximumSeconds * Self.sampleRate else {
            throw .unsupportedFormat(
                path: name,
                reason:
                    "its song plays for \(info.frameCount / Self.sampleRate / 60) minutes, too long to hold "
                    + "decoded; stream it (\"stream\": true)")
        }
        var samples: [Float] = []
        while true {
            try checkCancellation(name)
            let chunk = try read(maxFrames: 16_384)
            if chunk.isEmpty { break }
            samples.append(contentsOf: chunk)
            if samples.count / 2 > Self.maximumSeconds * Self.sampleRate {
                throw .unsupportedFormat(
                    path: name,
                    reason: "its song plays for more than \(Self.maximumSeconds / 60) minutes without ending")
            }
        }
        return PCMAudio(sampleRate: Self.sampleRate, channels: 2, samples: samples)
    }

    /// Renders one tick (a few milliseconds) into `pending`, or marks the end of the pass.
    private func renderTick() {
        guard xmp_play_frame(context) == 0 else {
            ended = true
            return
        }
        var frameInfo = xmp_frame_info()
        xmp_get_frame_info(context, &frameInfo)
        let endOfPass = frameInfo.loop_count > 0 && !options.loopModules
        let tooLong = !options.loopModules && rendered > Self.maximumSeconds * Self.sampleRate
        guard !endOfPass, !tooLong, let buffer = frameInfo.buffer, frameInfo.buffer_size > 0,
            frameInfo.buffer_size <= frameInfo.total_size
        else {
            ended = endOfPass || tooLong || frameInfo.buffer == nil
            return
        }
        let count = Int(frameInfo.buffer_size) / 4 * 2
        let samples = buffer.bindMemory(to: Int16.self, capacity: count)
        pending.reserveCapacity(pending.count + count)
        for i in 0..<count {
            pending.append(Float(samples[i]) / 32_768)
        }
        rendered += count / 2
    }

    private static func configure(_ context: xmp_context) {
        xmp_set_player(context, XMP_PLAYER_INTERP, XMP_INTERP_SPLINE)
        xmp_set_player(context, XMP_PLAYER_MIX, stereoSeparation)
    }

    private static func text<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }
            return String(decoding: bytes, as: UTF8.self).trimmingTrailingSpaces()
        }
    }

    private static func loadError(_ code: Int32, name: String) -> AudioDecodingError {
        switch code {
        case XMP_ERROR_FORMAT:
            return .unsupportedFormat(
                path: name, reason: "libxmp does not recognise it as a module it can play")
        case XMP_ERROR_LOAD:
            return .corrupt(
                path: name, reason: "libxmp could not load it: the module is damaged or cut short")
        case XMP_ERROR_DEPACK:
            return .corrupt(path: name, reason: "libxmp could not unpack it")
        case XMP_ERROR_SYSTEM:
            return .unreadable(path: name, reason: "libxmp hit a system error while loading it")
        default:
            return .corrupt(path: name, reason: "libxmp could not load it (error \(code))")
        }
    }
}

extension String {
    /// The string without trailing spaces (module titles are space-padded).
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
