import Testing

@testable import VoiceNotes

@Suite("Input level meter")
struct InputLevelTests {
    @Test("a half-scale sine peaks at -6.02 dBFS with an RMS of -9.03 dBFS")
    func sine() {
        let level = InputLevel(
            measuring: Tone.sine(frequency: 1_000, seconds: 0.1, rate: 48_000, amplitude: 0.5))
        #expect(abs(level.peak - -6.02) < 0.01)
        #expect(abs(level.rms - -9.03) < 0.01)
        #expect(abs(level.meterFraction(range: 60) - (60 - 6.02) / 60) < 0.001)
    }

    @Test("silence and an empty block sit on the floor; full scale is 0 dB and a full meter")
    func extremes() {
        #expect(InputLevel(measuring: [Float](repeating: 0, count: 100)) == .silence)
        #expect(InputLevel(measuring: []) == .silence)
        #expect(InputLevel.silence.meterFraction() == 0)
        let full = InputLevel(measuring: [1, -1, 1, -1])
        #expect(full.peak == 0 && full.rms == 0 && full.meterFraction() == 1)
    }

    @Test("quality levels map onto the Vorbis range in order")
    func qualities() {
        let values = VoiceNoteQuality.allCases.map(\.vorbisQuality)
        #expect(values == values.sorted())
        #expect(values.allSatisfy { (-0.1...1).contains($0) })
        #expect(VoiceNoteSettings() == VoiceNoteSettings(sampleRate: 12_000, channels: 1, quality: .high))
        #expect(throws: VoiceNoteError.self) { try VoiceNoteSettings(sampleRate: 4_000).validate() }
        #expect(throws: VoiceNoteError.self) { try VoiceNoteSettings(channels: 3).validate() }
    }
}
