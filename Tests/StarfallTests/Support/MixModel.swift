import SoundStation

@testable import StarfallCore

/// What an autoplay render should contain, rebuilt from the decoded asset files and the summary
/// alone: the music sample by sample (each switch at its frame, a layered track's stems at the gains
/// its intensity gives them), and each effect as a shifted (and, for a pitch other than 1,
/// resampled) copy of its file.
struct MixModel {
    struct Layer {
        var samples: [Float]
        var stem: Stem?
    }

    struct Track {
        /// The track's own file, then its stems.
        var layers: [Layer]
        var volume: Float
        var loopStart: Int
        var loopEnd: Int
        var bpm: Double
        var beatsPerBar: Int

        /// The track's stereo frame heard `offset` frames after it started, following its loop.
        func frame(at offset: Int) -> Int {
            offset < loopEnd ? offset : loopStart + (offset - loopStart) % (loopEnd - loopStart)
        }

        /// Engine frames in one beat at `rate`.
        func framesPerBeat(rate: Int) -> Double { 60 / bpm * Double(rate) }
    }

    struct Effect {
        var samples: [Float]
        var volume: Float
    }

    /// A stretch where the music is known exactly (a track playing) or only roughly (fading out).
    struct MusicSpan {
        var start: Int
        var end: Int
        var track: String?
        var fadeEnd: Int
    }

    /// The intensity from `start` on, unknown while it glides (until `settled`).
    struct IntensitySpan {
        var start: Int
        var settled: Int
        var value: Double
    }

    let rate = Autoplay.sampleRate
    var tracks: [String: Track] = [:]
    var effects: [String: Effect] = [:]
    var spans: [MusicSpan] = []
    var intensities: [IntensitySpan] = []

    /// Frames after a gain change during which OpenAL Soft may still be smoothing it.
    static let settling = 1024

    init(summary: AutoplaySummary, frames: Int) throws {
        let catalogue = try Catalogue(assetsRoot: Fixtures.assetsRoot)
        for entry in catalogue.entries {
            let audio = try AudioDecoder.decode(fileAt: entry.resolvedPath)
            if entry.kind == .music {
                let loop =
                    entry.loopRange(sampleRate: audio.sampleRate, frameCount: audio.frameCount)
                    ?? 0..<audio.frameCount
                var layers = [Layer(samples: audio.samples, stem: nil)]
                for stem in entry.stems {
                    layers.append(
                        Layer(samples: try AudioDecoder.decode(fileAt: stem.resolvedPath).samples, stem: stem)
                    )
                }
                tracks[entry.name] = Track(
                    layers: layers, volume: entry.volume, loopStart: loop.lowerBound,
                    loopEnd: loop.upperBound, bpm: entry.tempo?.bpm ?? 0,
                    beatsPerBar: entry.tempo?.beatsPerBar ?? 4)
            } else {
                effects[entry.name] = Effect(samples: audio.samples, volume: entry.volume)
            }
        }
        let starts = summary.music.map { Self.frame($0.at) } + [frames]
        for (index, change) in summary.music.enumerated() {
            let start = starts[index]
            let fade = change.to == nil ? Int(GameAudio.gameOverFade * Double(rate)) : 0
            spans.append(
                MusicSpan(start: start, end: starts[index + 1], track: change.to, fadeEnd: start + fade))
        }
        intensities = summary.intensity.map { entry in
            let start = Self.frame(entry.at)
            let settled = entry.over > 0 ? Self.frame(entry.at + entry.over) + Self.settling : start
            return IntensitySpan(start: start, settled: settled, value: entry.to)
        }
    }

    static func frame(_ seconds: Double) -> Int { Int((seconds * Double(Autoplay.sampleRate)).rounded()) }

    /// The intensity at `frame`, or nil while it glides.
    func intensity(at frame: Int) -> Double? {
        guard let span = intensities.last(where: { $0.start <= frame }) else { return 1 }
        return frame < span.settled ? nil : span.value
    }

    /// Each layer of the track `span` plays, at `frame` on `channel`, at the track's volume.
    func layers(of span: MusicSpan, frame: Int, channel: Int) -> [Double] {
        guard let name = span.track, let track = tracks[name] else { return [] }
        let source = track.frame(at: frame - span.start)
        return track.layers.map { Double($0.samples[source * 2 + channel] * track.volume) }
    }

    /// The music's sample at `frame` on `channel`, or nil while a track fades out or its layers glide
    /// (those curves are the engine's business, so tests leave those frames to a fitted ramp).
    func music(frame: Int, channel: Int) -> Float? {
        guard let span = spans.last(where: { $0.start <= frame }) else { return 0 }
        guard let name = span.track, let track = tracks[name] else {
            return frame < span.fadeEnd ? nil : 0
        }
        let parts = layers(of: span, frame: frame, channel: channel)
        if parts.count == 1 { return Float(parts[0]) }
        guard let intensity = intensity(at: frame) else { return nil }
        var sum = parts[0]
        for (part, layer) in zip(parts.dropFirst(), track.layers.dropFirst()) {
            sum += part * Double(layer.stem?.gain(at: intensity) ?? 0)
        }
        return Float(sum)
    }

    /// Where ``music(frame:channel:)`` is nil, the signals the music is made of there (the layers of
    /// the track gliding, or of the track fading out), for a fit to weigh.
    func unknownMusic(frame: Int, channel: Int) -> [Double] {
        guard let index = spans.lastIndex(where: { $0.start <= frame }) else { return [] }
        if spans[index].track != nil { return layers(of: spans[index], frame: frame, channel: channel) }
        guard index > 0 else { return [] }
        return layers(of: spans[index - 1], frame: frame, channel: channel)
    }

    /// An effect's samples as heard `offset` frames after it started at `pitch`, before pan and volume.
    func effect(_ name: String, offset: Int, pitch: Float) -> Double {
        guard let samples = effects[name]?.samples, offset >= 0 else { return 0 }
        let position = Double(offset) * Double(pitch)
        let index = Int(position)
        guard index + 1 < samples.count else { return index < samples.count ? Double(samples[index]) : 0 }
        let fraction = position - Double(index)
        return Double(samples[index]) * (1 - fraction) + Double(samples[index + 1]) * fraction
    }

    /// Frames where an effect sounds (and 256 frames on, while OpenAL Soft lets it go).
    func busyFrames(_ summary: AutoplaySummary, frames: Int) -> [Bool] {
        var busy = [Bool](repeating: false, count: frames)
        for effect in summary.effects {
            let start = Self.frame(effect.at)
            let end = min(frames, start + length(of: effect.name, pitch: effect.pitch) + 256)
            for frame in start..<max(start, end) { busy[frame] = true }
        }
        return busy
    }

    /// Frames an effect lasts at `pitch`.
    func length(of name: String, pitch: Float) -> Int {
        Int(Double(effects[name]?.samples.count ?? 0) / Double(pitch))
    }
}
