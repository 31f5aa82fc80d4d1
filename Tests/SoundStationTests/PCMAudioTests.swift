import Testing

@testable import SoundStation

@Test func partialFrameIsDropped() {
    let audio = PCMAudio(sampleRate: 48000, channels: 2, samples: [0, 0, 1])
    #expect(audio.frameCount == 1)
    #expect(audio.samples.count == 2)
}
