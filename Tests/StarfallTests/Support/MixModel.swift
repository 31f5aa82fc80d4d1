import SoundStation

@testable import StarfallCore

/// What an autoplay render should contain, rebuilt from the decoded asset files and the summary
/// alone: the scene music sample by sample, and each effect as a shifted (and, for a pitch other
/// than 1, resampled) copy of its file.
struct MixModel {
    struct Track {
        var samples: [Float]
        var volume: Float
        var loopStart: Int
        var loopEnd: Int

        /// The track's stereo frame heard `offset` frames after it started, following its loop.
        func frame(at offset: Int) -> Int {
            offset < loopEnd ? offset : loopStart + (offset - loopStart) % (loopEnd - loopStart)
        }
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

    let rate = Autoplay.sampleRate
    var tracks: [String: Track] = [:]
    var effects: [String: Effect] = [:]
    var spans: [MusicSpan] = []

    init(summary: AutoplaySummary, frames: Int) throws {
        let catalogue = try Catalogue(assetsRoot: Fixtures.assetsRoot)
        for entry in catalogue.entries {
            let audio = try AudioDecoder.decode(fileAt: entry.resolvedPath)
            if entry.kind == .music {
                let loop =
                    entry.loopRange(sampleRate: audio.sampleRate, frameCount: audio.frameCount)
                    ?? 0..<audio.frameCount
                tracks[entry.name] = Track(
                    samples: audio.samples, volume: entry.volume, loopStart: loop.lowerBound,
                    loopEnd: loop.upperBound)
            } else {
                effects[entry.name] = Effect(samples: audio.samples, volume: entry.volume)
            }
        }
        let starts = summary.scenes.map { Self.frame($0.at) } + [frames]
        for (index, scene) in summary.scenes.enumerated() {
            let start = starts[index]
            let fade = scene.music == nil ? Int(GameAudio.gameOverFade * Double(rate)) : 0
            spans.append(
                MusicSpan(start: start, end: starts[index + 1], track: scene.music, fadeEnd: start + fade))
        }
    }

    static func frame(_ seconds: Double) -> Int { Int((seconds * Double(Autoplay.sampleRate)).rounded()) }

    /// The music's sample at `frame` on `channel`, or nil while a track fades out (its curve is the
    /// engine's business, so tests leave those frames to a fitted ramp).
    func music(frame: Int, channel: Int) -> Float? {
        guard let span = spans.last(where: { $0.start <= frame }) else { return 0 }
        guard let name = span.track, let track = tracks[name] else {
            return frame < span.fadeEnd ? nil : 0
        }
        let source = track.frame(at: frame - span.start)
        return track.samples[source * 2 + channel] * track.volume
    }

    /// The music a fading span faded from, at `frame`: what the previous track would have played.
    func fadingMusic(frame: Int, channel: Int) -> Float {
        guard let index = spans.lastIndex(where: { $0.start <= frame }), index > 0,
            let name = spans[index - 1].track, let track = tracks[name]
        else { return 0 }
        let source = track.frame(at: frame - spans[index - 1].start)
        return track.samples[source * 2 + channel] * track.volume
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

    /// Frames an effect lasts at `pitch`.
    func length(of name: String, pitch: Float) -> Int {
        Int(Double(effects[name]?.samples.count ?? 0) / Double(pitch))
    }
}
