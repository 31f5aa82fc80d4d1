/// A compact text notation for writing tunes in code.
///
/// A phrase is a list of `pitch:beats` tokens separated by spaces, where pitch is a note name
/// such as `C5`, `F#4` or `Bb3` (C4 is middle C) and `-` is a rest: `"E5:1 G5:.5 -:.5"`.
/// Reading tunes this way keeps `Songs.swift` close to how music is written down.
enum Notation {
    /// The MIDI number of a note name (C4 = 60), or nil if it is not one.
    static func midiNote(_ name: Substring) -> Int? {
        var characters = name[...]
        guard let letter = characters.popFirst(), let step = Self.steps[letter] else { return nil }
        var semitone = step
        if characters.first == "#" {
            semitone += 1
            characters.removeFirst()
        } else if characters.first == "b" {
            semitone -= 1
            characters.removeFirst()
        }
        guard let octave = Int(characters), (0...9).contains(octave) else { return nil }
        return 12 * (octave + 1) + semitone
    }

    /// The notes of a phrase, the first starting at `beat`.
    ///
    /// The phrases are part of this program, so a typo is a programming error that stops the
    /// tool with the offending token rather than producing a wrong tune.
    static func phrase(_ text: String, startingAt beat: Double, velocity: Double = 1) -> [Note] {
        var notes: [Note] = []
        var position = beat
        for token in text.split(separator: " ") {
            let fields = token.split(separator: ":")
            guard fields.count == 2, let length = Double(fields[1]), length > 0 else {
                preconditionFailure("bad phrase token '\(token)': expected pitch:beats")
            }
            if fields[0] != "-" {
                guard let pitch = midiNote(fields[0]) else {
                    preconditionFailure("bad note name '\(fields[0])' in phrase token '\(token)'")
                }
                notes.append(Note(beat: position, length: length, pitch: pitch, velocity: velocity))
            }
            position += length
        }
        return notes
    }

    /// The total length of a phrase in beats, rests included.
    static func length(of text: String) -> Double {
        text.split(separator: " ").reduce(0) { total, token in
            total + (token.split(separator: ":").last.flatMap { Double($0) } ?? 0)
        }
    }

    private static let steps: [Character: Int] = ["C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11]
}

/// A major or minor triad, named the usual way: `"C"`, `"Am"`, `"F#m"`.
struct Chord: Sendable {
    /// The root's pitch class, 0 (C) to 11 (B).
    let root: Int
    /// Whether the third is minor.
    let isMinor: Bool

    /// Reads a chord symbol; symbols are written in this program, so a bad one is a bug.
    init(_ symbol: String) {
        isMinor = symbol.hasSuffix("m")
        let name = isMinor ? symbol.dropLast() : Substring(symbol)
        guard let note = Notation.midiNote(name + "0") else {
            preconditionFailure("bad chord symbol '\(symbol)'")
        }
        root = note % 12
    }

    /// The MIDI number of the root in `octave` (octave 4 holds middle C).
    func rootNote(octave: Int) -> Int {
        12 * (octave + 1) + root
    }

    /// Root, third, fifth and octave, starting in `octave`.
    func tones(octave: Int) -> [Int] {
        let base = rootNote(octave: octave)
        return [base, base + (isMinor ? 3 : 4), base + 7, base + 12]
    }
}
