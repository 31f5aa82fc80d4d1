extension SoundBank {
    /// The grid of a loaded music track: its tempo, markers, loop and file rate.
    /// - Parameter name: A catalogue name.
    /// - Returns: `nil` when it is not loaded.
    func grid(of name: String) -> TrackGrid? {
        table.withLock { table in
            table.loaded[name].map {
                TrackGrid(entry: $0.entry, sampleRate: $0.info.sampleRate, frameCount: $0.info.frameCount)
            }
        }
    }
}

extension SoundBank {
    /// The stems of a loaded layered track, in catalogue order (empty for any other sound).
    /// - Parameter name: A catalogue name.
    /// - Returns: One buffer per stem.
    func stems(of name: String) -> [SoundBuffer] {
        table.withLock { $0.loaded[name]?.stems ?? [] }
    }

    /// Decodes and uploads a layered track's stems, each checked to have the rate and length of the
    /// track's own file (so they stay on one frame through every loop); for a streamed track only
    /// checks them (each streams beside the track when it plays) and returns none.
    static func decodeStems(
        of entry: SoundEntry, like info: AudioFileInfo, options: DecodingOptions, streamed: Bool,
        engine: AudioEngine, cache: PCMCache? = nil
    ) throws(SoundLoadError) -> [SoundBuffer] {
        var buffers: [SoundBuffer] = []
        for (index, stem) in entry.stems.enumerated() {
            let audio: PCMAudio
            do {
                if streamed {
                    let found = try AudioDecoder.info(ofFileAt: stem.resolvedPath, options: options)
                    try check(
                        stem, index, of: entry, frames: found.frameCount, rate: found.sampleRate, like: info)
                    continue
                }
                audio = try decodeWhole(stem.resolvedPath, options: options, cache: cache)
            } catch let error as SoundLoadError {
                throw error
            } catch {
                throw .catalogue(.undecodable(name: entry.name, path: stem.path, reason: "\(error)"))
            }
            try check(stem, index, of: entry, frames: audio.frameCount, rate: audio.sampleRate, like: info)
            let loop = entry.loopRange(sampleRate: audio.sampleRate, frameCount: audio.frameCount)
            let path = stem.resolvedPath
            do {
                buffers.append(
                    // Not sent to a remote player: the stem's file travels with the catalogue.
                    try engine.makeBuffer(
                        audio, name: "\(entry.name) stem \(index)", loopPoints: loop, id: nil, origin: nil
                    ) {
                        try AudioDecoder.decode(fileAt: path, options: options)
                    })
            } catch {
                throw .engine(name: entry.name, error)
            }
        }
        return buffers
    }

    /// Throws unless a stem has the track's rate and length.
    private static func check(
        _ stem: Stem, _ index: Int, of entry: SoundEntry, frames: Int, rate: Int, like info: AudioFileInfo
    ) throws(SoundLoadError) {
        guard rate == info.sampleRate, frames == info.frameCount else {
            throw .catalogue(
                .timingMismatch(
                    name: entry.name, key: "stems.\(index)",
                    reason:
                        "\(stem.path) is \(frames) frames at \(rate) Hz, the track "
                        + "\(info.frameCount) frames at \(info.sampleRate) Hz; stems must match it exactly"))
        }
    }
}
