import CSoundStationRT
import CVorbis
import Glibc

/// Streaming Ogg Vorbis reader for music and long ambiences: decodes on demand instead of holding
/// the whole sound in memory.
///
/// Owns one `OggVorbis_File`, allocated once on the heap because libvorbisfile keeps pointers into
/// it, and cleared in `deinit`. Not thread-safe: use one decoder per stream.
public final class VorbisFileDecoder: StreamingDecoder {
    /// Rate, channels as read (more than two are mixed down) and total frames of the stream.
    public let info: AudioFileInfo

    private let name: String
    private let options: DecodingOptions
    private let mixer: ChannelMixer
    private let source: VorbisDataSource
    private let file: UnsafeMutablePointer<OggVorbis_File>

    /// Opens an Ogg Vorbis file for streaming.
    /// - Parameters:
    ///   - path: The file to read; it stays open until the decoder is released.
    ///   - options: What to do with more than two channels.
    /// - Throws: ``AudioDecodingError/unreadable(path:reason:)`` naming the file when it is missing,
    ///   not a regular file, empty or unreadable; ``AudioDecodingError/unsupportedFormat(path:reason:)`` when it is not Ogg
    ///   Vorbis (or a chained stream whose links differ in rate or channels);
    ///   ``AudioDecodingError/truncated(path:reason:)`` when it ends mid-page;
    ///   ``AudioDecodingError/corrupt(path:reason:)`` when its headers are invalid.
    public convenience init(path: String, options: DecodingOptions = DecodingOptions())
        throws(AudioDecodingError)
    {
        try self.init(file: InputFile(path: path), options: options)
    }

    /// Streams from a file already opened, e.g. after its magic bytes were checked.
    convenience init(file: InputFile, options: DecodingOptions = DecodingOptions()) throws(AudioDecodingError)
    {
        try self.init(source: VorbisDataSource(file: file), name: file.path, options: options)
    }

    /// Decodes an Ogg Vorbis file held in memory.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - name: The file name to use in error messages.
    ///   - options: What to do with more than two channels.
    /// - Throws: ``AudioDecodingError/unreadable(path:reason:)`` naming `name` when `bytes` is empty;
    ///   ``AudioDecodingError/unsupportedFormat(path:reason:)`` when it is not Ogg
    ///   Vorbis (or a chained stream whose links differ in rate or channels);
    ///   ``AudioDecodingError/truncated(path:reason:)`` when it ends mid-page;
    ///   ``AudioDecodingError/corrupt(path:reason:)`` when its headers are invalid.
    public convenience init(
        bytes: [UInt8], name: String, options: DecodingOptions = DecodingOptions()
    ) throws(AudioDecodingError) {
        guard !bytes.isEmpty else {
            throw .unreadable(path: name, reason: "the file is empty (0 bytes)")
        }
        try self.init(source: VorbisDataSource(bytes: bytes), name: name, options: options)
    }

    private init(source: VorbisDataSource, name: String, options: DecodingOptions) throws(AudioDecodingError)
    {
        guard source.bytes(at: 0, count: 4) == Array("OggS".utf8) else {
            throw .unsupportedFormat(
                path: name, reason: "it does not start with 'OggS', so it is not an Ogg file")
        }
        let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        let opened = ov_open_callbacks(
            Unmanaged.passUnretained(source).toOpaque(), file, nil, 0, VorbisDataSource.callbacks)
        guard opened == 0 else {
            // On failure libvorbisfile has already cleared the struct; only the memory remains.
            file.deallocate()
            throw Self.diagnoseOpenFailure(opened, source: source, name: name)
        }
        do throws(AudioDecodingError) {
            let fileInfo = try Self.readInfo(file, name: name)
            let mixer = ChannelMixer(
                roles: ChannelRole.vorbisOrder(channels: fileInfo.fileChannels), selection: options.channels)
            self.mixer = mixer
            self.info = fileInfo.mixed(to: mixer.outputChannels)
            // libvorbisfile 1.3.7 can leave a freshly opened chained file positioned at its last
            // link, so reading would skip the earlier ones; an explicit seek starts at the beginning.
            if ov_streams(file) > 1 && ov_pcm_seek(file, 0) != 0 {
                throw .corrupt(path: name, reason: "the chained Ogg stream cannot be rewound")
            }
        } catch {
            ov_clear(file)
            file.deallocate()
            throw error
        }
        self.file = file
        self.source = source
        self.name = name
        self.options = options
    }

    deinit {
        ov_clear(file)
        file.deallocate()
    }

    /// Reads the next frames.
    /// - Parameter maxFrames: The most frames to return; fewer come back only at the end of the stream.
    /// - Returns: Interleaved samples, a multiple of `info.channels`; empty at the end of the stream.
    /// - Throws: ``AudioDecodingError/corrupt(path:reason:)`` or
    ///   ``AudioDecodingError/unreadable(path:reason:)`` naming the file when libvorbisfile cannot
    ///   decode the next packets; ``AudioDecodingError/unsupportedFormat(path:reason:)`` when a
    ///   chained link changes rate or channels.
    public func read(maxFrames: Int) throws(AudioDecodingError) -> [Float] {
        guard maxFrames > 0 else { return [] }
        // Callers may pass Int.max to mean "as much as there is": it is read in chunks no larger
        // than a reservation's, so nothing is allocated for frames the file cannot hold.
        let channels = info.fileChannels
        var output: [Float] = []
        var left = maxFrames
        while left > 0 {
            let wanted = min(left, 65_536)
            let chunk = try decodeInPlace(frames: wanted)
            if output.isEmpty { output = chunk } else { output += chunk }
            left -= chunk.count / channels
            // Short only at the end of the stream.
            if chunk.count < wanted * channels { break }
        }
        return mixer.mix(output)
    }

    /// Moves to a frame so the next ``read(maxFrames:)`` starts exactly there.
    /// - Parameter frame: The frame to play next; values beyond the ends are clamped.
    /// - Throws: ``AudioDecodingError/corrupt(path:reason:)`` or
    ///   ``AudioDecodingError/unreadable(path:reason:)`` naming the file when libvorbisfile cannot
    ///   seek in it.
    public func seek(toFrame frame: Int) throws(AudioDecodingError) {
        let target = Int64(min(max(frame, 0), info.frameCount))
        let result = ov_pcm_seek(file, target)
        guard result == 0 else {
            throw Self.streamError(Int(result), name: name)
        }
    }

    /// Decodes from the current position to the end.
    /// - Returns: The rest of the stream; everything when called on a fresh decoder.
    /// - Throws: As ``read(maxFrames:)``.
    public func readAll() throws(AudioDecodingError) -> PCMAudio {
        // The declared length comes from the file, so a forged one must not drive a huge allocation.
        let declared = min(info.frameCount, source.byteCount * 16)
        try AudioDecoder.checkHoldable(
            frames: declared, channels: info.channels, sampleRate: info.sampleRate, name: name)
        var samples: [Float]
        // Whoever reads on after the declared frames: this decoder, or the one that decoded the
        // second half.
        var rest = self
        if mixer.isIdentity, options.splitsLongDecodes, let split = decodeInHalves(frames: declared) {
            (samples, rest) = split
        } else {
            samples = mixer.isIdentity ? try decodeInPlace(frames: declared) : []
        }
        if !mixer.isIdentity { samples.reserveCapacity(declared * info.channels) }
        // More than two channels to mix down, or more frames than declared: chunk by chunk.
        while true {
            try checkCancellation(name)
            let chunk = try rest.read(maxFrames: 4096)
            if chunk.isEmpty { break }
            samples.append(contentsOf: chunk)
            try AudioDecoder.checkDecodedSoFar(samples: samples.count, name: name)
        }
        // This decoder ends where a whole read ends, whichever decoder read.
        if rest !== self { _ = ov_pcm_seek(file, ov_pcm_total(file, -1)) }
        return PCMAudio(sampleRate: info.sampleRate, channels: info.channels, samples: samples)
    }

    /// The fewest frames a decode is split at: below about 10 s the second decoder's opening and
    /// seek are not worth a thread.
    static let splitFrames = 480_000

    /// Decodes the `frames` declared frames of a fresh, seekable, single-link mono or stereo stream
    /// in two halves at once: two more decoders over the same bytes, the second sought to the middle
    /// (libvorbisfile's `ov_pcm_seek` is sample-exact: it decodes the page before and drops the
    /// overlap, so the samples are those of one pass, which `vorbisSplitDecodeMatchesOnePass`
    /// checks), the second half on a thread of its own into the same array.
    /// - Returns: The samples and the decoder that reached the declared end (it reads on past it);
    ///   nil when the stream does not qualify or either half came out short or failed, and the
    ///   caller decodes in one pass as before (so errors and warnings are exactly as before).
    func decodeInHalves(frames declared: Int) -> ([Float], VorbisFileDecoder)? {
        guard declared >= Self.splitFrames, ov_streams(file) == 1, ov_seekable(file) != 0,
            ov_pcm_tell(file) == 0
        else { return nil }
        let middle = declared / 2
        guard
            let first = try? VorbisFileDecoder(
                source: VorbisDataSource(sharing: source), name: name, options: options),
            let second = try? VorbisFileDecoder(
                source: VorbisDataSource(sharing: source), name: name, options: options),
            first.info == info, second.info == info, (try? second.seek(toFrame: middle)) != nil
        else { return nil }
        let channels = info.channels
        var complete = false
        let samples = [Float](unsafeUninitializedCapacity: declared * channels) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            let half = HalfDecode(decoder: second, into: base + middle * channels, frames: declared - middle)
            half.start()
            let got = try? first.decode(into: base, frames: middle)
            let other = half.finish()
            complete = got == middle && other == declared - middle
            if complete { initialized = declared * channels }
        }
        return complete ? (samples, second) : nil
    }

    /// Decodes up to `frames` frames of the file's channels into `base` (room for that many),
    /// interleaving libvorbisfile's planar floats in place.
    /// - Returns: The frames decoded: fewer only at the end of the stream.
    fileprivate func decode(into base: UnsafeMutablePointer<Float>, frames capacity: Int)
        throws(AudioDecodingError)
        -> Int
    {
        let channels = info.fileChannels
        var frames = 0
        while frames < capacity {
            var channelData: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
            var link: Int32 = 0
            let got = ov_read_float(file, &channelData, Int32(clamping: min(4096, capacity - frames)), &link)
            // A gap from lost or damaged pages: the decoder resynchronises, so keep going.
            if got == OV_HOLE { continue }
            if got < 0 { throw Self.streamError(got, name: name) }
            if got == 0 { break }
            try checkLink(link)
            guard let channelData else { break }
            let count = Int(got)
            ssdsp_interleave(base + frames * channels, channelData, channels, count)
            frames += count
        }
        return frames
    }

    /// Decodes up to `frames` frames straight into one array, in the file's channels: libvorbisfile's
    /// planar floats are interleaved in place, with no chunk arrays, zero fill or second copy in
    /// between (what a preload's decode spent besides libvorbis itself, and a stream's refill on the
    /// mixing side).
    /// - Returns: The samples: fewer frames than asked only at the end of the stream.
    private func decodeInPlace(frames capacity: Int) throws(AudioDecodingError) -> [Float] {
        let channels = info.fileChannels
        var failure: AudioDecodingError?
        let samples = [Float](unsafeUninitializedCapacity: capacity * channels) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            do throws(AudioDecodingError) {
                initialized = try decode(into: base, frames: capacity) * channels
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return samples
    }

    /// Chained streams are allowed only when every link has the same layout, since one decoder
    /// feeds one OpenAL source format.
    private func checkLink(_ link: Int32) throws(AudioDecodingError) {
        guard let current = ov_info(file, link)?.pointee else { return }
        if Int(current.rate) != info.sampleRate || Int(current.channels) != info.fileChannels {
            throw Self.chainError(
                name: name, rate: Int(current.rate), channels: Int(current.channels), info: info)
        }
    }

    private static func readInfo(
        _ file: UnsafeMutablePointer<OggVorbis_File>, name: String
    ) throws(AudioDecodingError) -> AudioFileInfo {
        guard let first = ov_info(file, 0)?.pointee else {
            throw .corrupt(path: name, reason: "the Vorbis headers could not be read")
        }
        let rate = Int(first.rate)
        let channels = Int(first.channels)
        let info = AudioFileInfo(
            format: .oggVorbis, sampleRate: rate, channels: channels,
            frameCount: max(0, Int(ov_pcm_total(file, -1))), fileChannels: channels)
        guard channels >= 1, channels <= 255 else {
            throw .corrupt(path: name, reason: "the Vorbis header declares \(channels) channels")
        }
        guard rate > 0 else {
            throw .corrupt(path: name, reason: "the Vorbis header declares a sample rate of 0 Hz")
        }
        for link in 1..<max(1, Int(ov_streams(file))) {
            guard let other = ov_info(file, Int32(link))?.pointee else { continue }
            if Int(other.rate) != rate || Int(other.channels) != channels {
                throw chainError(name: name, rate: Int(other.rate), channels: Int(other.channels), info: info)
            }
        }
        return info
    }

    private static func chainError(name: String, rate: Int, channels: Int, info: AudioFileInfo)
        -> AudioDecodingError
    {
        .unsupportedFormat(
            path: name,
            reason: "a chained Ogg stream whose links differ (\(info.sampleRate) Hz \(info.channels) ch, "
                + "then \(rate) Hz \(channels) ch); re-encode it as one stream")
    }

    /// A seekable open also scans to the last page, so a file cut short fails as "not Vorbis" or
    /// "bad header". When the first page does hold a Vorbis header, walking the Ogg pages tells
    /// whether the real problem is an end cut mid-page, which deserves a truncation message.
    private static func diagnoseOpenFailure(
        _ code: Int32, source: VorbisDataSource, name: String
    ) -> AudioDecodingError {
        let vorbisIdentification: [UInt8] = [1] + Array("vorbis".utf8)
        guard code == OV_ENOTVORBIS || code == OV_EBADHEADER,
            source.bytes(at: 28, count: 7) == vorbisIdentification
        else {
            return openError(code, name: name)
        }
        var offset = 0
        while offset < source.byteCount {
            let header = source.bytes(at: offset, count: 27)
            guard header.count == 27 else { break }
            guard Array(header[0..<4]) == Array("OggS".utf8) else {
                return .corrupt(path: name, reason: "the Ogg page structure is broken at byte \(offset)")
            }
            let lacing = source.bytes(at: offset + 27, count: Int(header[26]))
            offset += 27 + Int(header[26]) + lacing.reduce(0) { $0 + Int($1) }
        }
        guard offset != source.byteCount else {
            return openError(code, name: name)
        }
        return .truncated(
            path: name,
            reason: "it ends after \(source.byteCount) bytes in the middle of an Ogg page, as when a "
                + "download or recording is cut off")
    }

    private static func openError(_ code: Int32, name: String) -> AudioDecodingError {
        switch code {
        case OV_EREAD:
            return .unreadable(path: name, reason: "reading the Ogg data failed")
        case OV_ENOTVORBIS:
            return .unsupportedFormat(
                path: name, reason: "the Ogg stream is not Vorbis (Opus or FLAC in Ogg?)")
        case OV_EVERSION:
            return .unsupportedFormat(path: name, reason: "a Vorbis version this libvorbis cannot decode")
        case OV_EBADHEADER:
            return .corrupt(path: name, reason: "the Vorbis headers are invalid")
        default:
            return .corrupt(path: name, reason: "libvorbisfile could not open it (error \(code))")
        }
    }

    private static func streamError(_ code: Int, name: String) -> AudioDecodingError {
        switch code {
        case Int(OV_EREAD):
            return .unreadable(path: name, reason: "reading the Ogg data failed")
        case Int(OV_EBADLINK):
            return .corrupt(path: name, reason: "a link in the chained Ogg stream is invalid")
        case Int(OV_ENOSEEK):
            return .corrupt(path: name, reason: "the stream cannot be seeked")
        default:
            return .corrupt(path: name, reason: "libvorbisfile failed while decoding (error \(code))")
        }
    }
}

/// The second half of a split decode (``VorbisFileDecoder/readAll()``) on a POSIX thread of its own,
/// joined before the array it writes into is handed out.
///
/// `@unchecked Sendable`: the decoder and the destination are touched only by the thread between
/// ``start()`` and ``finish()``, which joins it.
private final class HalfDecode: @unchecked Sendable {
    private let decoder: VorbisFileDecoder
    private let destination: UnsafeMutablePointer<Float>
    private let frames: Int
    private var decoded = -1
    private var thread: pthread_t?

    init(decoder: VorbisFileDecoder, into destination: UnsafeMutablePointer<Float>, frames: Int) {
        self.decoder = decoder
        self.destination = destination
        self.frames = frames
    }

    /// Starts the thread; without one (the system refused), ``finish()`` decodes on the caller.
    func start() {
        var created = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(
            &created, nil,
            { context in
                guard let context else { return nil }
                let half = Unmanaged<HalfDecode>.fromOpaque(context).takeRetainedValue()
                half.run()
                return nil
            }, context)
        if status == 0 {
            thread = created
        } else {
            Unmanaged<HalfDecode>.fromOpaque(context).release()
        }
    }

    /// Waits for the half (or decodes it now) and returns its frames, -1 when it failed.
    func finish() -> Int {
        if let thread {
            pthread_join(thread, nil)
        } else {
            run()
        }
        return decoded
    }

    private func run() {
        decoded = (try? decoder.decode(into: destination, frames: frames)) ?? -1
    }
}
