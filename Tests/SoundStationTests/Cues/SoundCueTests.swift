import Testing

@testable import SoundStation

@Suite struct SoundCueTests {
    @Test(arguments: [
        "1.5:effect:reward", "0:music:main", "2:music:game:crossfade=1.5", "3:music:main:fade=2",
        "4:stop-music", "5:stop-music:fade=0.5", "6:pause", "7:resume", "8:volume:music:0.5",
        "1:music:game:crossfade=0.5:at=bar", "1:music:game:at=bars=4", "2:music:calm:at=marker=calm-exit",
        "3:effect:levelup:at=beat", "3:effect:levelup:at=bar", "0:music:main:fade=1:at=beat",
    ])
    func cuesReadBackAsWritten(text: String) throws {
        #expect(try SoundCue(parsing: text).description == text)
    }

    @Test func partsAreRead() throws {
        #expect(
            try SoundCue(parsing: "2:music:game:crossfade=1.5")
                == SoundCue(time: 2, action: .music(name: "game", transition: .crossfade(1.5))))
        #expect(
            try SoundCue(parsing: "1:music:game:crossfade=0.5:at=bars=2")
                == SoundCue(
                    time: 1, action: .music(name: "game", transition: .crossfade(0.5)), quantize: .bars(2)))
        #expect(
            try SoundCue(parsing: "1:effect:hit:at=now") == SoundCue(time: 1, action: .effect(name: "hit")))
        #expect(
            try SoundCue(parsing: "1:effect:hit:at=marker=drop")
                == SoundCue(time: 1, action: .effect(name: "hit"), quantize: .marker("drop")))
        #expect(
            try SoundCue(parsing: "0.25:volume:effects:0")
                == SoundCue(time: 0.25, action: .volume(bus: .effects, gain: 0)))
    }

    @Test(arguments: [
        ("x:effect:a", "must start with a time"), ("-1:effect:a", "must start with a time"),
        ("1:boom:a", "unknown kind \"boom\""), ("1:effect", "expected T:effect:NAME"),
        ("1:music:a:fade=-2", "\"-2\" is not fade in seconds"), ("1:music:a:slow=2", "expected T:music:NAME"),
        ("1:volume:drums:1", "\"drums\" is not master, music, effects or voice"),
        ("1:volume:music:loud", "\"loud\" is not a gain"), ("1:pause:now", "expected T:pause"),
        ("1:music:a:at=soon", "\"soon\" is not a grid point"),
        ("1:music:a:at=bars=0", "\"bars=0\" is not a grid"),
        ("1:effect:a:at=marker=", "\"marker=\" is not a grid"),
        ("1:effect:a:at=bar:x", "expected T:effect:NAME"),
    ])
    func badCuesSayWhatIsWrong(text: String, message: String) {
        do {
            _ = try SoundCue(parsing: text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.description.contains(text) && error.description.contains(message), "\(error)")
        }
    }
}
