import Testing

@testable import SoundStation

/// Error messages must stay on one line and tell the reader where to look.
@Suite struct CatalogueErrorTests {
    static let all: [CatalogueError] = [
        .manifestUnreadable(path: "a/catalogue.json", reason: "Permission denied"),
        .invalidJSON(path: "a/catalogue.json", reason: "line 1, column 2: unexpected end of file"),
        .unknownKey(path: "catalogue.json", entry: "reward", key: "volumn"),
        .unknownKey(path: "catalogue.json", entry: nil, key: "sound"),
        .missingKey(path: "catalogue.json", entry: "#2", key: "name"),
        .invalidValue(
            path: "catalogue.json", entry: "reward", key: "volume", value: "\"loud\"", expected: "a number"),
        .duplicateName(path: "catalogue.json", name: "reward"),
        .pathEscapesRoot(name: "reward", path: "../x.wav", reason: "\"..\" components are not allowed"),
        .fileMissing(name: "reward", path: "/game/Assets/Effects/reward.wav"),
        .undecodable(name: "reward", path: "/game/Assets/Effects/reward.wav", reason: "not a RIFF file"),
        .unknownSound(name: "rewrad", suggestions: ["reward"]),
        .assetsNotFound(searched: ["/game/Assets", "/Assets"]),
    ]

    @Test(arguments: all)
    func messagesAreOneLine(error: CatalogueError) {
        #expect(!error.description.contains("\n"))
        #expect(!error.description.isEmpty)
    }

    @Test func theBriefsExampleMessage() {
        let error = CatalogueError.unknownKey(path: "catalogue.json", entry: "reward", key: "volumn")
        #expect(
            error.description
                == "catalogue.json: sound \"reward\": unknown key \"volumn\"; did you mean \"volume\"? "
                + "(allowed: name, path, kind, volume, loop, priority, maxInstances, steal, stream, "
                + "coalesceMs, loopStart, loopEnd, channels, strict, bpm, beatsPerBar, downbeat, markers, stems, "
                + "duckMusic, synth, track, soundfont)"
        )
    }

    @Test func undecodableNamesTheFileAndTheFix() {
        let error = CatalogueError.undecodable(name: "reward", path: "/a/reward.wav", reason: "bad header")
        #expect(error.description.contains("sound \"reward\""))
        #expect(error.description.contains("/a/reward.wav"))
        #expect(error.description.contains("bad header"))
    }

    @Test func suggestionsPreferCloseNames() {
        let names = ["reward", "reward_big", "main", "menu", "hit"]
        #expect(NameSuggestions.closest(to: "rewad", among: names) == ["reward"])
        // A dropped suffix is caught by containment even when the edit distance is large.
        #expect(NameSuggestions.closest(to: "reward_bi", among: names) == ["reward_big", "reward"])
        #expect(NameSuggestions.closest(to: "mian", among: names) == ["main"])
        #expect(NameSuggestions.closest(to: "explosion", among: names).isEmpty)
        #expect(NameSuggestions.editDistance(Array("ab"), Array("ba")) == 1)
    }
}
