/// Recognises an audio file's format from its bytes: magic numbers at fixed offsets, never the name.
enum FormatDetection {
    /// The bytes read for detection: enough for every magic number below, including a MOD's tag at
    /// byte 1080.
    static let probeLength = 1084

    /// The format of the file whose first bytes are `header` (up to ``probeLength`` of them).
    /// - Parameters:
    ///   - header: The file's first bytes.
    ///   - source: The whole file, read again only to skip an ID3v2 tag before MP3 frames.
    ///   - name: The file name for error messages.
    static func detect(_ header: [UInt8], in source: some ByteSource, name: String) throws(AudioDecodingError)
        -> AudioFileFormat
    {
        if header.isEmpty {
            throw .unreadable(path: name, reason: "the file is empty (0 bytes)")
        }
        if let format = riffFamily(header) ?? oggStream(header, name: name) ?? simpleMagic(header) {
            return format
        }
        if let id3End = id3v2End(header) {
            // An ID3v2 tag (often put before MP3 frames, sometimes before FLAC) says nothing about
            // the audio after it, so look past it.
            let after = try source.bytes(at: id3End, count: 4)
            if after.starts(with: Array("fLaC".utf8)) { return .flac }
            if isMPEGAudioFrame(after) { return .mp3 }
            throw .unsupportedFormat(
                path: name,
                reason: "an ID3 tag that is not followed by MP3 frames (\(after.count) bytes after it)")
        }
        if isMPEGAudioFrame(header) { return .mp3 }
        if let module = trackerModule(header) { return module }
        if header.count < 4 {
            throw .unsupportedFormat(path: name, reason: "it is only \(header.count) bytes long")
        }
        throw .unsupportedFormat(
            path: name, reason: "its first bytes match no audio format SoundStation knows")
    }

    private static func ascii(_ header: [UInt8], _ offset: Int, _ text: String) -> Bool {
        let magic = Array(text.utf8)
        return header.count >= offset + magic.count && Array(header[offset..<offset + magic.count]) == magic
    }

    /// RIFF, RIFX, RF64 and BW64 WAVE files; AIFF and AIFF-C.
    private static func riffFamily(_ header: [UInt8]) -> AudioFileFormat? {
        for magic in ["RIFF", "RIFX", "RF64", "BW64"] where ascii(header, 0, magic) {
            // WAVLayout tells a RIFF of another type (AVI, WebP) from a WAVE precisely.
            return .wav
        }
        if ascii(header, 0, "FORM"), ascii(header, 8, "AIFF") || ascii(header, 8, "AIFC") {
            return .aiff
        }
        return nil
    }

    /// Ogg: the codec is named in the first packet, at byte 28 of the first page.
    private static func oggStream(_ header: [UInt8], name: String) -> AudioFileFormat? {
        guard ascii(header, 0, "OggS") else { return nil }
        if ascii(header, 28, "OpusHead") { return .oggOpus }
        // Vorbis, and anything else in Ogg: VorbisFileDecoder names what it finds precisely.
        return .oggVorbis
    }

    private static func simpleMagic(_ header: [UInt8]) -> AudioFileFormat? {
        if ascii(header, 0, "fLaC") { return .flac }
        if ascii(header, 0, "Extended Module: ") { return .xm }
        if ascii(header, 0, "IMPM") { return .it }
        if ascii(header, 44, "SCRM") { return .s3m }
        return songMagic(header)
    }

    /// Chiptune rips and logs (the magic numbers Game Music Emu checks) and Standard MIDI files.
    private static func songMagic(_ header: [UInt8]) -> AudioFileFormat? {
        let magics: [(String, AudioFileFormat)] = [
            ("NESM\u{1A}", .nsf), ("NSFE", .nsfe), ("SNES-SPC700 Sound File Data", .spc), ("GBS", .gbs),
            ("Vgm ", .vgm), ("ZXAYEMUL", .ay), ("HESM", .hes), ("KSCC", .kss), ("KSSX", .kss),
            ("SAP\r\n", .sap), ("SAP\n", .sap), ("GYMX", .gym), ("MThd", .midi),
        ]
        if let found = magics.first(where: { ascii(header, 0, $0.0) }) { return found.1 }
        // gzip: only a compressed VGM is played (Game Music Emu unpacks it).
        if header.count >= 3, header[0] == 0x1F, header[1] == 0x8B, header[2] == 8 { return .vgz }
        return nil
    }

    /// The offset just past an ID3v2 tag at the start, or nil when there is none.
    private static func id3v2End(_ header: [UInt8]) -> Int? {
        guard ascii(header, 0, "ID3"), header.count >= 10, header[6..<10].allSatisfy({ $0 < 0x80 }) else {
            return nil
        }
        // The size is four 7-bit bytes ("syncsafe"), not counting the 10-byte header or a footer.
        let size = header[6..<10].reduce(0) { $0 << 7 | Int($1) }
        let footer = header[5] & 0x10 != 0 ? 10 : 0
        return 10 + size + footer
    }

    /// An MPEG audio frame header: 11 sync bits, a valid version, layer, bitrate and rate.
    private static func isMPEGAudioFrame(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 else { return false }
        let version = (bytes[1] >> 3) & 0x3
        let layer = (bytes[1] >> 1) & 0x3
        let bitrate = bytes[2] >> 4
        let rate = (bytes[2] >> 2) & 0x3
        return version != 1 && layer != 0 && bitrate != 0xF && bitrate != 0 && rate != 3
    }

    /// ProTracker and its relatives carry a four-letter tag at byte 1080.
    private static func trackerModule(_ header: [UInt8]) -> AudioFileFormat? {
        guard header.count >= 1084 else { return nil }
        let tag = Array(header[1080..<1084])
        let text = String(decoding: tag, as: UTF8.self)
        if ["M.K.", "M!K!", "M&K!", "FLT4", "FLT8", "4CHN", "6CHN", "8CHN", "OCTA", "CD81", "TDZ4"]
            .contains(text)
        {
            return .mod
        }
        // "xxCH" and "xxCN": 10 to 32 channels.
        let digits = tag[0...1].allSatisfy { (0x30...0x39).contains($0) }
        if digits, text.hasSuffix("CH") || text.hasSuffix("CN") { return .mod }
        return nil
    }
}
