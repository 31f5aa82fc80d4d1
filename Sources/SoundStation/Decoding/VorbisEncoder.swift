import CVorbis

/// Incremental Ogg Vorbis writer (libvorbisenc + libogg) for recordings and baked assets.
///
/// Pages go to the file as libogg produces them, and the headers are written at once, so the file
/// is a valid, decodable Ogg Vorbis stream from the start; ``flush()`` makes everything encoded so far
/// survive a crash. Output is deterministic: the same samples and settings give the same bytes.
/// Call ``finish()`` to end the stream; `deinit` only frees memory and closes the file.
public final class VorbisEncoder {
    /// The file being written.
    public let path: String
    /// Frames accepted by ``write(_:)`` so far.
    public private(set) var framesWritten = 0
    /// Bytes written to the file so far.
    public var bytesWritten: Int { output.bytesWritten }

    private let channels: Int
    private let codec: CodecState
    private let output: OutputFile
    /// Set once a write fails or the stream is finished: libogg's state no longer matches the file.
    private var closedReason: String?

    /// Frames handed to libvorbis per analysis buffer, bounding its internal allocation per call.
    private static let framesPerBuffer = 4096

    /// Creates (or truncates) `path` and writes the Vorbis headers to it.
    /// - Parameters:
    ///   - path: The output file.
    ///   - sampleRate: Frames per second of the samples that will be written.
    ///   - channels: 1 (mono) or 2 (stereo).
    ///   - quality: VBR quality from -0.1 (smallest) to 1.0 (best), as `vorbis_encode_init_vbr` takes it;
    ///     0.4 is a good default for game audio.
    ///   - serialNumber: The Ogg stream serial; fixed so repeated builds produce identical files.
    /// - Throws: ``AudioEncodingError/invalidSettings(reason:)`` for a channel count other than 1 or 2,
    ///   a sample rate not in 1...1,536,000 Hz, a quality outside -0.1...1.0 or settings libvorbisenc
    ///   refuses; ``AudioEncodingError/cannotCreate(path:reason:)`` when the file cannot be created;
    ///   ``AudioEncodingError/writeFailed(path:reason:)`` when the headers cannot be written.
    public init(
        path: String, sampleRate: Int, channels: Int, quality: Float, serialNumber: Int32 = 0x5353
    ) throws(AudioEncodingError) {
        guard channels == 1 || channels == 2 else {
            throw .invalidSettings(reason: "\(channels) channels for '\(path)'; use 1 (mono) or 2 (stereo)")
        }
        guard sampleRate > 0, sampleRate <= 1_536_000 else {
            throw .invalidSettings(reason: "a sample rate of \(sampleRate) Hz for '\(path)'")
        }
        guard (-0.1...1.0).contains(quality) else {
            throw .invalidSettings(reason: "quality \(quality) for '\(path)'; use -0.1...1.0")
        }
        let codec = try CodecState(
            sampleRate: sampleRate, channels: channels, quality: quality, serialNumber: serialNumber,
            path: path)
        self.path = path
        self.channels = channels
        self.codec = codec
        self.output = try OutputFile(path: path)
        try writePages(force: true)
    }

    /// Encodes interleaved samples; complete pages are written to the file immediately.
    /// - Parameter interleaved: Whole frames at the encoder's channel count, nominally in -1...1.
    /// - Throws: ``AudioEncodingError/invalidSettings(reason:)`` when the sample count is not a whole
    ///   number of frames; ``AudioEncodingError/writeFailed(path:reason:)`` when a page cannot be
    ///   written, or the stream was finished or broken by an earlier failure.
    public func write(_ interleaved: [Float]) throws(AudioEncodingError) {
        try checkOpen()
        guard interleaved.count % channels == 0 else {
            throw .invalidSettings(
                reason: "\(interleaved.count) samples written to '\(path)' is not a whole number of "
                    + "\(channels)-channel frames")
        }
        let frames = interleaved.count / channels
        var start = 0
        while start < frames {
            let count = min(Self.framesPerBuffer, frames - start)
            codec.submit(interleaved, fromFrame: start, frameCount: count)
            try drainPackets()
            start += count
        }
        framesWritten += frames
    }

    /// Forces out the packets libogg holds as a short page and syncs the file to disk, so a crash
    /// keeps everything encoded so far. Frames still in the encoder's look-ahead (about one block)
    /// reach the file with later writes or ``finish()``.
    /// - Throws: ``AudioEncodingError/writeFailed(path:reason:)`` when writing or syncing fails, or the
    ///   stream was finished or broken by an earlier failure.
    public func flush() throws(AudioEncodingError) {
        try checkOpen()
        try writePages(force: true)
        try sync()
    }

    /// Ends the stream, writes the last pages, syncs and closes the file.
    ///
    /// Explicit rather than in `deinit` because it can fail, and a failure must reach the caller.
    /// - Throws: ``AudioEncodingError/writeFailed(path:reason:)`` when the last pages cannot be
    ///   written, synced or closed, or the stream was already finished or broken by an earlier failure.
    public func finish() throws(AudioEncodingError) {
        try checkOpen()
        codec.endOfInput()
        try drainPackets()
        try writePages(force: true)
        try sync()
        closedReason = "the stream was already finished"
        try output.close()
    }

    private func checkOpen() throws(AudioEncodingError) {
        if let closedReason {
            throw .writeFailed(path: path, reason: closedReason)
        }
    }

    private func sync() throws(AudioEncodingError) {
        do {
            try output.sync()
        } catch {
            closedReason = "an earlier sync failed"
            throw error
        }
    }

    /// Runs the analysis loop and moves every finished packet into the Ogg stream.
    private func drainPackets() throws(AudioEncodingError) {
        while codec.nextPacket() {
            try writePages(force: false)
        }
    }

    /// Writes the pages libogg has ready; `force` also emits a partial page.
    private func writePages(force: Bool) throws(AudioEncodingError) {
        do {
            try codec.forEachPage(force: force) { (header, body) throws(AudioEncodingError) in
                try output.write(header)
                try output.write(body)
            }
        } catch {
            closedReason = "an earlier write failed"
            throw error
        }
    }
}

extension VorbisEncoder {
    /// The libvorbis and libogg structures, each heap-allocated once because the libraries keep
    /// pointers between them; cleared and freed together in `deinit`.
    private final class CodecState {
        private let info = UnsafeMutablePointer<vorbis_info>.allocate(capacity: 1)
        private let comment = UnsafeMutablePointer<vorbis_comment>.allocate(capacity: 1)
        private let dsp = UnsafeMutablePointer<vorbis_dsp_state>.allocate(capacity: 1)
        private let block = UnsafeMutablePointer<vorbis_block>.allocate(capacity: 1)
        private let stream = UnsafeMutablePointer<ogg_stream_state>.allocate(capacity: 1)
        private let channels: Int
        private var initialized = false

        init(
            sampleRate: Int, channels: Int, quality: Float, serialNumber: Int32, path: String
        ) throws(AudioEncodingError) {
            self.channels = channels
            vorbis_info_init(info)
            let result = vorbis_encode_init_vbr(info, channels, sampleRate, quality)
            guard result == 0 else {
                vorbis_info_clear(info)
                throw .invalidSettings(
                    reason: "libvorbisenc cannot encode \(sampleRate) Hz, \(channels) channels at quality "
                        + "\(quality) for '\(path)' (error \(result))")
            }
            vorbis_comment_init(comment)
            vorbis_comment_add_tag(comment, "ENCODER", "SoundStation")
            vorbis_analysis_init(dsp, info)
            vorbis_block_init(dsp, block)
            ogg_stream_init(stream, serialNumber)
            initialized = true

            var identification = ogg_packet()
            var commentPacket = ogg_packet()
            var codebooks = ogg_packet()
            vorbis_analysis_headerout(dsp, comment, &identification, &commentPacket, &codebooks)
            ogg_stream_packetin(stream, &identification)
            ogg_stream_packetin(stream, &commentPacket)
            ogg_stream_packetin(stream, &codebooks)
        }

        deinit {
            if initialized {
                ogg_stream_clear(stream)
                vorbis_block_clear(block)
                vorbis_dsp_clear(dsp)
                vorbis_comment_clear(comment)
                vorbis_info_clear(info)
            }
            stream.deallocate()
            block.deallocate()
            dsp.deallocate()
            comment.deallocate()
            info.deallocate()
        }

        /// De-interleaves `frameCount` frames into libvorbis's analysis buffer.
        func submit(_ interleaved: [Float], fromFrame start: Int, frameCount: Int) {
            guard let buffer = vorbis_analysis_buffer(dsp, Int32(frameCount)) else { return }
            interleaved.withUnsafeBufferPointer { samples in
                for channel in 0..<channels {
                    guard let destination = buffer[channel] else { continue }
                    for i in 0..<frameCount {
                        let value = samples[(start + i) * channels + channel]
                        // NaN or infinity would wreck the psychoacoustic model for the whole block.
                        destination[i] = value.isFinite ? value : 0
                    }
                }
            }
            vorbis_analysis_wrote(dsp, Int32(frameCount))
        }

        /// Tells libvorbis no more samples follow, so it can emit the final, end-of-stream packet.
        func endOfInput() {
            vorbis_analysis_wrote(dsp, 0)
        }

        /// Encodes as far as the input allows and puts the next finished packet into the Ogg stream.
        /// - Returns: false when libvorbis needs more input.
        func nextPacket() -> Bool {
            var packet = ogg_packet()
            while vorbis_bitrate_flushpacket(dsp, &packet) != 1 {
                guard vorbis_analysis_blockout(dsp, block) == 1 else { return false }
                vorbis_analysis(block, nil)
                vorbis_bitrate_addblock(block)
            }
            ogg_stream_packetin(stream, &packet)
            return true
        }

        /// Hands each ready page's header and body to `write`, which must not keep the buffers.
        func forEachPage(
            force: Bool,
            _ write: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(AudioEncodingError) -> Void
        ) throws(AudioEncodingError) {
            var page = ogg_page()
            while (force ? ogg_stream_flush(stream, &page) : ogg_stream_pageout(stream, &page)) != 0 {
                try write(
                    UnsafeRawBufferPointer(start: page.header, count: page.header_len),
                    UnsafeRawBufferPointer(start: page.body, count: page.body_len))
            }
        }
    }
}
