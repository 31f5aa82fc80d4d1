import Glibc
import SoundStation

/// One note of a part, positioned in beats from the start of the song.
struct Note: Sendable {
    /// Where the note starts, in beats from the start of the song (intro included).
    var beat: Double
    /// How long the key is held, in beats; the release rings on after this.
    var length: Double
    /// The MIDI note number; drums ignore it.
    var pitch: Int
    /// Loudness in 0...1, for accents and ghost notes.
    var velocity: Double
}

/// How one part of a song sounds.
struct Instrument: Sendable {
    /// What makes the sound.
    enum Source: Sendable {
        /// A pitched oscillator shaped by the envelope.
        case tone(Waveform)
        /// A synthesised drum; the envelope is not used.
        case drum(Drum)
    }

    /// What makes the sound.
    var source: Source
    /// The volume shape of each note.
    var envelope = Envelope(attack: 0.004, decay: 0.12, sustain: 0.7, release: 0.08)
    /// Linear level of the part in the mix.
    var gain: Double
    /// Stereo position, -1 (left) to 1 (right).
    var pan = 0.0
    /// A lowpass cutoff in Hz that tames bright waveforms, or nil for none.
    var cutoff: Double?
    /// Vibrato depth in semitones; it fades in after `vibratoDelay`, as singers and players do.
    var vibratoDepth = 0.0
    /// Vibrato speed in Hz.
    var vibratoRate = 5.5
    /// Seconds before vibrato starts, so short notes stay steady.
    var vibratoDelay = 0.18
    /// A second oscillator this many cents sharp thickens the tone; 0 means one oscillator.
    var detuneCents = 0.0
    /// How much of the part feeds the song's echo, in 0...1.
    var echoSend = 0.0
}

/// A sequence of notes played by one instrument.
struct Part: Sendable {
    /// The instrument.
    var instrument: Instrument
    /// The notes, in any order.
    var notes: [Note]
    /// The layer (stem) the part is rendered into: 0 is the track's own file, 1... its stems.
    var layer = 0
}

extension Part {
    /// This part with the notes of bar `source` also played in bar `target`.
    func copyingBar(_ source: Int, to target: Int, beatsPerBar: Int = 4) -> Part {
        let start = Double(source * beatsPerBar)
        let shift = Double((target - source) * beatsPerBar)
        let copies = notes.filter { $0.beat >= start && $0.beat < start + Double(beatsPerBar) }.map { note in
            var copy = note
            copy.beat += shift
            return copy
        }
        return Part(instrument: instrument, notes: notes + copies, layer: layer)
    }
}

/// A looping piece of music.
///
/// The song is `introBars` played once, then `bodyBars` that loop forever; with no intro the
/// whole song loops.
struct Song: Sendable {
    /// Tempo; 60 × the sample rate must divide by it, so every bar is a whole number of frames
    /// and the loop points fall exactly on bar lines.
    var beatsPerMinute: Int
    /// Beats in each bar.
    var beatsPerBar = 4
    /// Bars played once before the loop. The last of them should repeat the body's last bar:
    /// the first pass then enters the loop exactly as every repeat does, with the same notes
    /// ringing over the bar line.
    var introBars = 0
    /// Bars that loop.
    var bodyBars: Int
    /// The parts.
    var parts: [Part]
    /// The echo the parts' sends feed.
    var echo: Echo
    /// Seeds the drum noise.
    var seed: UInt64
}

/// A rendered song: interleaved stereo samples and where its loop lies.
struct RenderedSong {
    /// Each layer's interleaved left/right samples, all scaled by one gain so they sum to the whole
    /// song: layer 0 is the track's own file, the others its stems.
    var layers: [[Float]]
    /// Layer 0: the whole song when it has one layer.
    var samples: [Float] { layers[0] }
    /// The first frame of the looping body.
    var loopStart: Int
    /// One past the last frame of the body: the total frame count.
    var loopEnd: Int
}

/// Turns a `Song` into samples that loop without a gap or click.
enum Sequencer {
    /// Renders `song` and scales it so its loudest sample is `peak`.
    ///
    /// Notes and echoes of the body that ring past the loop end are rendered into a tail and
    /// added back at the loop start, exactly as they would sound when the body repeats, so the
    /// seam is as smooth as any other point of the track.
    ///
    /// Whatever of the intro rings past the loop start is cut off there: left in, it would
    /// sound again at every repeat although the intro does not. The cut is inaudible when the
    /// intro's last bar repeats the body's last bar (see `Song.introBars`), because the
    /// body's wrapped tail then carries on almost exactly where the intro's tail stops.
    static func render(_ song: Song, sampleRate: Int, peak: Double) -> RenderedSong {
        precondition((sampleRate * 60) % song.beatsPerMinute == 0, "tempo must give whole frames per beat")
        let framesPerBeat = sampleRate * 60 / song.beatsPerMinute
        let rate = Double(sampleRate)
        let introFrames = song.introBars * song.beatsPerBar * framesPerBeat
        let totalFrames = (song.introBars + song.bodyBars) * song.beatsPerBar * framesPerBeat
        let tailFrames = Int(tailSeconds(of: song, framesPerBeat: framesPerBeat, sampleRate: rate) * rate)
        precondition(tailFrames < totalFrames - introFrames, "the tail must be shorter than the loop")

        // Frames past a buffer's end are dropped by `add`, which is what cuts the intro off. Each
        // layer has its own buses; the echo is linear, so the layers' echoes sum to the song's.
        let layerCount = (song.parts.map(\.layer).max() ?? 0) + 1
        var intros = [Bus](repeating: Bus(frames: introFrames), count: layerCount)
        var bodies = [Bus](repeating: Bus(frames: totalFrames + tailFrames), count: layerCount)
        var random = SplitMix64(seed: song.seed)
        let secondsPerBeat = Double(framesPerBeat) / rate
        for part in song.parts {
            let instrument = part.instrument
            for note in part.notes {
                let start = Int((note.beat * Double(framesPerBeat)).rounded())
                let voice = render(
                    note, instrument, secondsPerBeat: secondsPerBeat, random: &random, sampleRate: rate)
                if start < introFrames {
                    intros[part.layer].add(voice, at: start, instrument: instrument)
                } else {
                    bodies[part.layer].add(voice, at: start, instrument: instrument)
                }
            }
        }

        let loopLength = totalFrames - introFrames
        let mixes = (0..<layerCount).map { layer -> StereoBuffer in
            var mix = StereoBuffer(frames: totalFrames)
            let bodyMix = bodies[layer].output(
                echo: song.echo, framesPerBeat: framesPerBeat, sampleRate: rate)
            mix.mix(bodyMix)
            mix.mix(intros[layer].output(echo: song.echo, framesPerBeat: framesPerBeat, sampleRate: rate))
            for frame in totalFrames..<bodyMix.frameCount {
                let target = introFrames + (frame - totalFrames) % loopLength
                mix.left[target] += bodyMix.left[frame]
                mix.right[target] += bodyMix.right[frame]
            }
            return mix
        }
        // One gain for every layer, from the peak of their sum, so the stems add up to the song.
        var whole = StereoBuffer(frames: totalFrames)
        for mix in mixes { whole.mix(mix) }
        let gain = peak / max(whole.peak, 1e-12)
        let layers = mixes.map { mix -> [Float] in
            var samples = [Float](repeating: 0, count: totalFrames * 2)
            for frame in 0..<totalFrames {
                samples[2 * frame] = Float(mix.left[frame] * gain)
                samples[2 * frame + 1] = Float(mix.right[frame] * gain)
            }
            return samples
        }
        return RenderedSong(layers: layers, loopStart: introFrames, loopEnd: totalFrames)
    }

    /// How long past the end the body can still sound: the longest release or drum, plus
    /// every audible echo repeat, plus a margin.
    private static func tailSeconds(of song: Song, framesPerBeat: Int, sampleRate: Double) -> Double {
        let ringing =
            song.parts.map { part -> Double in
                switch part.instrument.source {
                case .tone: return part.instrument.envelope.release
                case .drum(let drum): return drum.duration
                }
            }.max() ?? 0
        let echoSeconds =
            Double(song.echo.audibleRepeats) * song.echo.delayBeats * Double(framesPerBeat) / sampleRate
        return ringing + echoSeconds + 0.5
    }

    /// One note as mono samples, level and envelope applied.
    private static func render(
        _ note: Note, _ instrument: Instrument, secondsPerBeat: Double, random: inout SplitMix64,
        sampleRate: Double
    ) -> [Double] {
        let waveform: Waveform
        switch instrument.source {
        case .drum(let drum):
            return drum.render(random: &random, sampleRate: sampleRate).map {
                $0 * note.velocity * instrument.gain
            }
        case .tone(let shape):
            waveform = shape
        }
        let held = note.length * secondsPerBeat
        let count = Int((instrument.envelope.duration(held: held) * sampleRate).rounded(.up))
        let pitch = frequency(ofMIDINote: Double(note.pitch))
        let detune = pow(2, instrument.detuneCents / 1_200)
        var main = Oscillator(waveform)
        var doubled = Oscillator(waveform, phase: 0.37)
        var filter = Biquad(.lowpass, cutoff: instrument.cutoff ?? sampleRate, sampleRate: sampleRate)
        var samples = [Double](repeating: 0, count: count)
        for index in 0..<count {
            let time = Double(index) / sampleRate
            let vibratoAmount = min(max((time - instrument.vibratoDelay) / 0.2, 0), 1)
            let vibrato =
                instrument.vibratoDepth * vibratoAmount * sin(2 * Double.pi * instrument.vibratoRate * time)
            let current = pitch * pow(2, vibrato / 12)
            var value = main.next(frequency: current, sampleRate: sampleRate)
            if instrument.detuneCents != 0 {
                value = 0.5 * (value + doubled.next(frequency: current * detune, sampleRate: sampleRate))
            }
            if instrument.cutoff != nil { value = filter.process(value) }
            samples[index] = value * instrument.envelope.level(at: time, held: held)
        }
        return samples.map { $0 * note.velocity * instrument.gain }
    }
}

/// A dry mix and the echo send that goes with it.
private struct Bus {
    var dry: StereoBuffer
    var send: StereoBuffer

    init(frames: Int) {
        dry = StereoBuffer(frames: frames)
        send = StereoBuffer(frames: frames)
    }

    /// Mixes one rendered note in from `start`, feeding the echo as the instrument asks.
    mutating func add(_ voice: [Double], at start: Int, instrument: Instrument) {
        for (offset, sample) in voice.enumerated() {
            dry.add(sample, at: start + offset, pan: instrument.pan)
            if instrument.echoSend > 0 {
                send.add(sample * instrument.echoSend, at: start + offset, pan: instrument.pan)
            }
        }
    }

    /// The dry mix with the echo of the send added.
    func output(echo: Echo, framesPerBeat: Int, sampleRate: Double) -> StereoBuffer {
        var result = dry
        result.mix(echo.process(send, framesPerBeat: Double(framesPerBeat), sampleRate: sampleRate))
        return result
    }
}
