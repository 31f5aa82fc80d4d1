/// Generators for the repetitive parts of a song (bass, arpeggios, pads, drum grooves), so
/// `Songs.swift` only spells out the chords and the melody.
enum Patterns {
    /// A bass line: each bar plays `offsets` (semitones above the chord root) as evenly spaced
    /// notes, held for `gate` of their step so they bounce.
    static func bass(
        _ chords: [Chord], fromBar firstBar: Int, octave: Int, offsets: [Int], beatsPerBar: Int = 4,
        gate: Double = 0.75
    ) -> [Note] {
        let step = Double(beatsPerBar) / Double(offsets.count)
        var notes: [Note] = []
        for (bar, chord) in chords.enumerated() {
            let barStart = Double((firstBar + bar) * beatsPerBar)
            for (index, offset) in offsets.enumerated() {
                let accent = index % 2 == 0 ? 1.0 : 0.8
                notes.append(
                    Note(
                        beat: barStart + Double(index) * step, length: step * gate,
                        pitch: chord.rootNote(octave: octave) + offset, velocity: accent))
            }
        }
        return notes
    }

    /// An arpeggio: each bar steps through the chord's tones in `order` (indices into root,
    /// third, fifth, octave, tenth, twelfth), `stepsPerBar` notes per bar.
    static func arpeggio(
        _ chords: [Chord], fromBar firstBar: Int, octave: Int, order: [Int], stepsPerBar: Int,
        beatsPerBar: Int = 4, gate: Double = 0.6
    ) -> [Note] {
        let step = Double(beatsPerBar) / Double(stepsPerBar)
        var notes: [Note] = []
        for (bar, chord) in chords.enumerated() {
            let low = chord.tones(octave: octave)
            let tones = low + [low[1] + 12, low[2] + 12]
            let barStart = Double((firstBar + bar) * beatsPerBar)
            for index in 0..<stepsPerBar {
                notes.append(
                    Note(
                        beat: barStart + Double(index) * step, length: step * gate,
                        pitch: tones[order[index % order.count]], velocity: index % 4 == 0 ? 1 : 0.75))
            }
        }
        return notes
    }

    /// Sustained triads, one per bar, voiced close together around `center` so the harmony
    /// moves smoothly instead of jumping by whole octaves between chords.
    static func pad(_ chords: [Chord], fromBar firstBar: Int, center: Int = 62, beatsPerBar: Int = 4)
        -> [Note]
    {
        var notes: [Note] = []
        for (bar, chord) in chords.enumerated() {
            let pitchClasses = Array(chord.tones(octave: 0).prefix(3)).map { $0 % 12 }
            for pitchClass in pitchClasses {
                let pitch = center - 6 + ((pitchClass - (center - 6)) % 12 + 12) % 12
                notes.append(
                    Note(
                        beat: Double((firstBar + bar) * beatsPerBar), length: Double(beatsPerBar) * 0.95,
                        pitch: pitch, velocity: 1))
            }
        }
        return notes
    }

    /// A drum groove from a step pattern repeated over `bars`, one character per sixteenth:
    /// `X` accent, `x` normal, `o` ghost, `.` rest. A pattern may span several bars.
    static func groove(_ pattern: String, bars: Range<Int>, beatsPerBar: Int = 4) -> [Note] {
        let steps = Array(pattern)
        let stepsPerBar = beatsPerBar * 4
        precondition(steps.count % stepsPerBar == 0, "a groove must fill whole bars: '\(pattern)'")
        var notes: [Note] = []
        var step = 0
        let totalSteps = bars.count * stepsPerBar
        while step < totalSteps {
            let velocity: Double
            switch steps[step % steps.count] {
            case "X": velocity = 1
            case "x": velocity = 0.75
            case "o": velocity = 0.4
            case ".": velocity = 0
            default: preconditionFailure("bad groove step in '\(pattern)'")
            }
            if velocity > 0 {
                let beat = Double(bars.lowerBound * beatsPerBar) + Double(step) / 4
                notes.append(Note(beat: beat, length: 0.25, pitch: 0, velocity: velocity))
            }
            step += 1
        }
        return notes
    }
}
