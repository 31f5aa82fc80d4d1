import Testing

@testable import SoundStation

/// `SOUNDSTATION_OUTPUT` and `SOUNDSTATION_DEVICE`, as the engine's messages advise them.
@Suite struct AudioOutputEnvironmentTests {
    @Test func theEnvironmentChoosesTheOutput() throws {
        #expect(try AudioOutput.fromEnvironment(environment: [:]) == .device())
        #expect(try AudioOutput.fromEnvironment(environment: ["SOUNDSTATION_OUTPUT": "silent"]) == .silent)
        #expect(try AudioOutput.fromEnvironment(environment: ["SOUNDSTATION_OUTPUT": "SILENT"]) == .silent)
        #expect(
            try AudioOutput.fromEnvironment(environment: ["SOUNDSTATION_DEVICE": "usb"])
                == .device(name: "usb"))
        #expect(
            try AudioOutput.fromEnvironment(default: .silent, environment: ["SOUNDSTATION_OUTPUT": "device"])
                == .device())
        #expect(
            try AudioOutput.fromEnvironment(
                default: .device(name: "hdmi"), environment: ["SOUNDSTATION_OUTPUT": ""])
                == .device(name: "hdmi"))
        #expect(try AudioOutput.fromEnvironment(default: .silent, environment: [:]) == .silent)
        #expect(
            try AudioOutput.fromEnvironment(
                default: .device(latency: .low), environment: ["SOUNDSTATION_DEVICE": "usb"])
                == .device(name: "usb", latency: .low), "the program's latency stays")
        let offline = AudioOutput.offline(sampleRate: 44_100, channels: 1)
        #expect(
            try AudioOutput.fromEnvironment(default: offline, environment: ["SOUNDSTATION_OUTPUT": "silent"])
                == offline, "an offline render is not the user's choice of speakers")
    }

    @Test func anUnknownValueIsAnErrorNamingTheVariable() {
        #expect(
            throws: AudioEngineError.invalidArgument(
                name: "SOUNDSTATION_OUTPUT", value: "\"loud\"",
                expected: "\"device\", \"silent\" or \"remote\"")
        ) {
            try AudioOutput.fromEnvironment(environment: ["SOUNDSTATION_OUTPUT": "loud"])
        }
    }

    @Test func theFallbackNoticeAdviceWorks() throws {
        // The notice for a missing device advises SOUNDSTATION_OUTPUT=silent; following it opens silent
        // output at once, with no notice at all.
        var notices: [String] = []
        let engine = try AudioEngine.openWithFallback(
            .fromEnvironment(environment: [
                "SOUNDSTATION_OUTPUT": "silent", "SOUNDSTATION_DEVICE": "no such device",
            ])
        ) { notices.append($0) }
        defer { engine.shutdown() }
        #expect(notices.isEmpty)
        #expect(engine.output == .silent)
    }
}
