/// The demo game's two music tracks, written as chords, melodies and drum grooves.
enum Songs {
    /// The menu theme: a relaxed 125 BPM tune in C major, 16 bars that loop as a whole.
    static func main() -> Song {
        let chords = ["C", "Am", "F", "G", "C", "Am", "F", "G", "F", "G", "Em", "Am", "Dm", "G", "C", "G"]
            .map(Chord.init)
        let melody = [
            "E5:1 G5:.5 C6:.5 B5:.5 G5:.5 E5:1",
            "A5:1.5 G5:.5 E5:1 C5:1",
            "F5:.5 A5:.5 C6:1 A5:.5 F5:.5 A5:1",
            "G5:1.5 F5:.5 E5:.5 D5:.5 B4:1",
            "E5:1 G5:.5 C6:.5 D6:.5 C6:.5 G5:1",
            "A5:.5 C6:.5 E6:1 D6:.5 C6:.5 A5:1",
            "C6:.5 A5:.5 F5:.5 A5:.5 C6:1 D6:1",
            "B5:1 G5:1 D6:1.5 -:.5",
            "A5:1.5 C6:.5 A5:1 F5:1",
            "B5:1.5 D6:.5 B5:1 G5:1",
            "G5:.5 B5:.5 E6:1 D6:.5 B5:.5 G5:1",
            "A5:1 C6:1 E6:1.5 -:.5",
            "F6:1 E6:.5 D6:.5 C6:1 A5:1",
            "B5:1 D6:.5 B5:.5 G5:1 F5:1",
            "E5:.5 G5:.5 C6:.5 E6:.5 D6:1 C6:1",
            "B5:1 A5:.5 B5:.5 D6:1 -:1",
        ]
        let bars = chords.count
        return Song(
            beatsPerMinute: 125, bodyBars: bars,
            parts: [
                Part(instrument: Instruments.softLead, notes: phrases(melody, fromBar: 0)),
                Part(
                    instrument: Instruments.sparkle,
                    notes: Patterns.arpeggio(
                        chords, fromBar: 0, octave: 5, order: [0, 1, 2, 3, 2, 1, 2, 1], stepsPerBar: 8)),
                Part(
                    instrument: Instruments.triangleBass,
                    notes: Patterns.bass(
                        chords, fromBar: 0, octave: 2, offsets: [0, 12, 0, 12, 7, 12, 0, 12])),
                Part(instrument: Instruments.pad, notes: Patterns.pad(chords, fromBar: 0)),
                Part(
                    instrument: Instruments.kick,
                    notes: Patterns.groove("X.......X.......X.......X.x.....", bars: 0..<bars)),
                Part(
                    instrument: Instruments.snare,
                    notes: Patterns.groove("....X.......X...", bars: 0..<(bars - 1))
                        + Patterns.groove("....X...o.x.xXXX", bars: (bars - 1)..<bars)),
                Part(instrument: Instruments.hat, notes: Patterns.groove("x.o.x.o.x.o.x.o.", bars: 0..<bars)),
            ],
            echo: Echo(delayBeats: 0.75, feedback: 0.35, damping: 3_000), seed: 0x4D41_494E)
    }

    /// The in-game theme: a driving 150 BPM tune in G major, 16 bars that loop after a
    /// two-bar intro: a count-in bar, then the loop's own turnaround bar.
    static func game() -> Song {
        let chords = ["G", "D", "Em", "C", "G", "D", "C", "D", "Em", "C", "G", "D", "C", "D", "Em", "D"]
            .map(Chord.init)
        let melody = [
            "G5:.5 B5:.5 D6:.5 B5:.5 G5:.5 A5:.5 B5:1",
            "A5:.5 F#5:.5 D5:.5 F#5:.5 A5:1 -:1",
            "G5:.5 E5:.5 B5:.5 G5:.5 E6:1 D6:1",
            "C6:.5 B5:.5 A5:.5 G5:.5 E5:1 G5:1",
            "D6:.5 D6:.5 B5:.5 G5:.5 D6:.5 E6:.5 D6:1",
            "C6:.5 A5:.5 F#5:.5 A5:.5 D6:1.5 -:.5",
            "E6:.5 D6:.5 C6:.5 B5:.5 A5:.5 G5:.5 E5:1",
            "F#5:1 A5:1 D6:1 C6:1",
            "B5:.5 G5:.5 E5:.5 G5:.5 B5:.5 E6:.5 B5:1",
            "C6:.5 E6:.5 G6:1 E6:.5 C6:.5 G5:1",
            "B5:.5 D6:.5 G6:.5 D6:.5 B5:1 G5:1",
            "A5:.5 B5:.5 C6:.5 D6:.5 F#6:1 D6:1",
            "E6:1 G6:.5 E6:.5 C6:1 E6:1",
            "F#6:1 A6:.5 F#6:.5 D6:1 A5:1",
            "G6:.5 F#6:.5 E6:.5 D6:.5 B5:1 E6:1",
            "D6:1 C6:.5 B5:.5 A5:1 F#5:1",
        ]
        let introBars = 2
        let bars = chords.count
        let lastBar = introBars + bars - 1
        let body = introBars..<(introBars + bars)
        let groove = introBars..<lastBar
        let turnaround = lastBar..<(lastBar + 1)
        let countIn = 0..<1
        let countInChord = [Chord("G")]
        // Layers (see `gameLayers`): 0 bass and pad, 1 drums, 2 arpeggio, 3 lead.
        let parts = [
            Part(
                instrument: Instruments.brightLead,
                notes: phrases(["G4:.5 B4:.5 D5:.5 G5:.5 B4:.5 D5:.5 G5:.5 B5:.5"], fromBar: 0)
                    + phrases(melody, fromBar: introBars), layer: 3),
            Part(
                instrument: Instruments.sparkle,
                notes: Patterns.arpeggio(
                    chords, fromBar: introBars, octave: 4, order: [0, 1, 2, 3, 4, 3, 2, 1], stepsPerBar: 16,
                    gate: 0.5), layer: 2),
            Part(
                instrument: Instruments.pulseBass,
                notes: Patterns.bass(countInChord, fromBar: 0, octave: 2, offsets: [0, 0, 0, 0])
                    + Patterns.bass(
                        chords, fromBar: introBars, octave: 2, offsets: [0, 12, 0, 12, 7, 12, 0, 12])),
            Part(
                instrument: Instruments.pad,
                notes: Patterns.pad(countInChord, fromBar: 0, center: 64)
                    + Patterns.pad(chords, fromBar: introBars, center: 64)),
            Part(
                instrument: Instruments.kick,
                notes: Patterns.groove("X...X...X...X...", bars: countIn)
                    + Patterns.groove("X.....X...X.....X.....X...X...x.", bars: groove)
                    + Patterns.groove("X.....X.X.......", bars: turnaround), layer: 1),
            Part(
                instrument: Instruments.snare,
                notes: Patterns.groove("....X.......X...", bars: groove)
                    + Patterns.groove("....X...o.x.xXXX", bars: turnaround), layer: 1),
            Part(
                instrument: Instruments.hat,
                notes: Patterns.groove("x.x.x.x.x.x.x.x.", bars: countIn)
                    + Patterns.groove("x.X.x.X.x.X.x.X.x.X.x.X.x.X.x...", bars: groove)
                    + Patterns.groove("x.X.x.X.x.......", bars: turnaround), layer: 1),
            Part(
                instrument: Instruments.openHat,
                notes: Patterns.groove("..............................x.", bars: body), layer: 1),
        ]
        // The intro's second bar is the loop's turnaround, so the first pass enters the loop
        // exactly as every repeat does (see `Song.introBars`).
        return Song(
            beatsPerMinute: 150, introBars: introBars, bodyBars: bars,
            parts: parts.map { $0.copyingBar(lastBar, to: introBars - 1) },
            echo: Echo(delayBeats: 0.75, feedback: 0.3, damping: 3_500), seed: 0x4741_4D45)
    }

    /// The game track's layers: the file of each (layer 0 is the track's own) and the intensity at
    /// which it joins and is at full gain. Drums join from level 2, the arpeggio from 3, the lead from 4
    /// (see `GameAudio.intensity(forLevel:)`).
    static let gameLayers: [(suffix: String, from: Double, full: Double)] = [
        ("", 0, 0), ("-drums", 0.25, 0.35), ("-arp", 0.5, 0.6), ("-lead", 0.75, 0.85),
    ]

    /// Notes of consecutive one-bar phrases, the first starting at `firstBar`.
    private static func phrases(_ bars: [String], fromBar firstBar: Int, beatsPerBar: Int = 4) -> [Note] {
        var notes: [Note] = []
        for (index, text) in bars.enumerated() {
            precondition(
                Notation.length(of: text) == Double(beatsPerBar), "phrase must fill one bar: '\(text)'")
            notes += Notation.phrase(text, startingAt: Double((firstBar + index) * beatsPerBar))
        }
        return notes
    }
}

/// The instruments both songs draw from.
enum Instruments {
    /// A mellow quarter-pulse melody voice with gentle vibrato and echo.
    static let softLead = Instrument(
        source: .tone(.pulse(duty: 0.25)),
        envelope: Envelope(attack: 0.006, decay: 0.18, sustain: 0.6, release: 0.14),
        gain: 0.3, pan: -0.08, cutoff: 4_500, vibratoDepth: 0.15, echoSend: 0.35)
    /// A punchier square melody voice for the faster track.
    static let brightLead = Instrument(
        source: .tone(.pulse(duty: 0.5)),
        envelope: Envelope(attack: 0.004, decay: 0.1, sustain: 0.6, release: 0.09),
        gain: 0.26, pan: -0.08, cutoff: 5_000, vibratoDepth: 0.2, vibratoRate: 6, echoSend: 0.3)
    /// A thin, quiet arpeggio that glitters off to the right.
    static let sparkle = Instrument(
        source: .tone(.pulse(duty: 0.125)),
        envelope: Envelope(attack: 0.003, decay: 0.07, sustain: 0.35, release: 0.05),
        gain: 0.09, pan: 0.45, cutoff: 4_000)
    /// A round bass that leaves room for the melody.
    static let triangleBass = Instrument(
        source: .tone(.triangle), envelope: Envelope(attack: 0.004, decay: 0.12, sustain: 0.8, release: 0.05),
        gain: 0.45)
    /// A firmer, filtered pulse bass that drives the in-game track.
    static let pulseBass = Instrument(
        source: .tone(.pulse(duty: 0.25)),
        envelope: Envelope(attack: 0.003, decay: 0.1, sustain: 0.7, release: 0.04),
        gain: 0.3, cutoff: 900)
    /// Soft, slightly detuned chords that fill the space behind the lead.
    static let pad = Instrument(
        source: .tone(.saw), envelope: Envelope(attack: 0.08, decay: 0.4, sustain: 0.75, release: 0.35),
        gain: 0.05, pan: -0.35, cutoff: 1_400, detuneCents: 9)
    /// The kick drum.
    static let kick = Instrument(source: .drum(.kick), gain: 0.48)
    /// The snare drum.
    static let snare = Instrument(source: .drum(.snare), gain: 0.3, pan: 0.1)
    /// The closed hi-hat.
    static let hat = Instrument(source: .drum(.closedHat), gain: 0.12, pan: 0.3)
    /// The open hi-hat.
    static let openHat = Instrument(source: .drum(.openHat), gain: 0.08, pan: 0.3)
}
