import Testing

@testable import SoundStation

/// Every way a manifest is refused, with the message checked to point at the problem.
@Suite struct CatalogueRejectionTests {
    let assets: CatalogueTempAssets

    init() throws {
        assets = try CatalogueTempAssets()
        try assets.write("Effects/reward.wav")
        try assets.write("Music/main.ogg")
    }

    /// A valid effect entry with `extra` spliced in, so each test changes one thing.
    func reward(_ extra: String = "") -> String {
        let tail = extra.isEmpty ? "" : ", " + extra
        return "{\"name\": \"reward\", \"path\": \"Effects/reward.wav\", \"kind\": \"effect\"\(tail)}"
    }

    @Test func malformedJSONReportsLineAndColumn() throws {
        try assets.manifest("{\n  \"sounds\": [\n    {\"name\": \"reward\",}\n  ]\n}")
        let error = try #require(assets.loadError())
        guard case .invalidJSON(let path, let reason) = error else {
            Issue.record("expected invalidJSON, got \(error)")
            return
        }
        #expect(path == assets.manifestPath)
        #expect(reason.contains("line 3"))
        #expect(error.description.contains(assets.manifestPath))
    }

    @Test func duplicateJSONKeyIsRefused() throws {
        try assets.manifest(entries: [reward("\"volume\": 1, \"volume\": 2")])
        let error = try #require(assets.loadError())
        #expect(error.description.contains("duplicate key \"volume\""))
    }

    @Test(arguments: ["[]", "\"sounds\"", "42"])
    func topLevelMustBeAnObject(json: String) throws {
        try assets.manifest(json)
        let error = try #require(assets.loadError())
        guard case .invalidJSON = error else {
            Issue.record("expected invalidJSON, got \(error)")
            return
        }
        #expect(error.description.contains("expected an object"))
    }

    @Test func unknownTopLevelKeyListsAllowedKeys() throws {
        try assets.manifest("{\"sounds\": [], \"sound\": []}")
        let error = try #require(assets.loadError())
        #expect(error == .unknownKey(path: assets.manifestPath, entry: nil, key: "sound"))
        #expect(error.description.contains("top level"))
        #expect(error.description.contains("\"sound\""))
        #expect(error.description.contains("(allowed: sounds)"))
    }

    @Test func missingSoundsKey() throws {
        try assets.manifest("{}")
        let error = try #require(assets.loadError())
        #expect(error == .missingKey(path: assets.manifestPath, entry: nil, key: "sounds"))
        #expect(error.description.contains("\"sounds\""))
    }

    @Test func soundsMustBeAnArrayOfObjects() throws {
        try assets.manifest("{\"sounds\": {}}")
        #expect(assets.loadError()?.description.contains("expected an array") == true)
        try assets.manifest(entries: [reward(), "\"main\""])
        let error = try #require(assets.loadError())
        #expect(error.description.contains("sounds[1]"))
        #expect(error.description.contains("\"main\""))
    }

    @Test func unknownEntryKeySuggestsTheRightOne() throws {
        try assets.manifest(entries: [reward("\"volumn\": 0.5")])
        let error = try #require(assets.loadError())
        #expect(error == .unknownKey(path: assets.manifestPath, entry: "reward", key: "volumn"))
        let message = error.description
        #expect(message.hasPrefix(assets.manifestPath + ": sound \"reward\": unknown key \"volumn\""))
        #expect(message.contains("did you mean \"volume\"?"))
        #expect(message.contains("(allowed: name, path, kind, volume, loop, priority, maxInstances"))
    }

    @Test(arguments: ["name", "path", "kind"])
    func missingRequiredKey(key: String) throws {
        var fields = ["\"name\": \"reward\"", "\"path\": \"Effects/reward.wav\"", "\"kind\": \"effect\""]
        fields.removeAll { $0.hasPrefix("\"\(key)\"") }
        try assets.manifest(entries: [reward(), "{" + fields.joined(separator: ", ") + "}"])
        let error = try #require(assets.loadError())
        // Without a name the entry can only be identified by its position.
        let entry = key == "name" ? "#1" : "reward"
        #expect(error == .missingKey(path: assets.manifestPath, entry: entry, key: key))
        #expect(error.description.contains(key == "name" ? "sound #1" : "sound \"reward\""))
        #expect(error.description.contains("missing required key \"\(key)\""))
    }

    @Test(
        arguments: [
            ("\"volume\": \"loud\"", "volume", "\"loud\""),
            ("\"volume\": 4.5", "volume", "4.5"),
            ("\"volume\": -0.1", "volume", "-0.1"),
            ("\"priority\": 256", "priority", "256"),
            ("\"priority\": -1", "priority", "-1"),
            ("\"priority\": 1.5", "priority", "1.5"),
            ("\"priority\": \"high\"", "priority", "\"high\""),
            ("\"maxInstances\": -2", "maxInstances", "-2"),
            ("\"maxInstances\": 0", "maxInstances", "0"),
            ("\"loop\": \"yes\"", "loop", "\"yes\""),
            ("\"loop\": 1", "loop", "1"),
            ("\"stream\": null", "stream", "null"),
            ("\"kind\": \"sfx\"", "kind", "\"sfx\""),
            ("\"steal\": \"newest\"", "steal", "\"newest\""),
            ("\"coalesceMs\": -1", "coalesceMs", "-1"),
            ("\"coalesceMs\": \"5\"", "coalesceMs", "\"5\""),
        ])
    func wrongTypeOrRange(extra: String, key: String, shown: String) throws {
        // Later duplicate keys are refused, so "kind" is overridden by rebuilding the entry.
        let entry =
            key == "kind"
            ? "{\"name\": \"reward\", \"path\": \"Effects/reward.wav\", \(extra)}"
            : reward(extra)
        try assets.manifest(entries: [entry])
        let error = try #require(assets.loadError())
        guard case .invalidValue(let path, let name, let badKey, let value, let expected) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(path == assets.manifestPath)
        #expect(name == "reward")
        #expect(badKey == key)
        #expect(value == shown)
        #expect(!expected.isEmpty)
        #expect(error.description.contains("sound \"reward\": \"\(key)\" is \(shown), expected"))
    }

    @Test func wrongValuesNameWhatIsExpected() throws {
        try assets.manifest(entries: [reward("\"priority\": 300")])
        #expect(assets.loadError()?.description.contains("expected a whole number from 0 to 255") == true)
        try assets.manifest(entries: [reward("\"volume\": 9")])
        #expect(assets.loadError()?.description.contains("expected a number from 0 to 4") == true)
        try assets.manifest(entries: [reward("\"steal\": \"x\"")])
        #expect(assets.loadError()?.description.contains("one of oldest, quietest, refuse") == true)
    }

    @Test(arguments: ["\"\"", "\"  \"", "\" reward\"", "7", "null"])
    func badNames(name: String) throws {
        try assets.manifest(entries: [
            "{\"name\": \(name), \"path\": \"Effects/reward.wav\", \"kind\": \"effect\"}"
        ])
        let error = try #require(assets.loadError())
        guard case .invalidValue(_, let entry, let key, _, _) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(entry == "#0")
        #expect(key == "name")
        #expect(error.description.contains("sound #0: \"name\""))
    }

    @Test func duplicateNames() throws {
        let again = "{\"name\": \"reward\", \"path\": \"Music/main.ogg\", \"kind\": \"music\"}"
        try assets.manifest(entries: [reward(), again])
        let error = try #require(assets.loadError())
        #expect(error == .duplicateName(path: assets.manifestPath, name: "reward"))
        #expect(error.description.contains(assets.manifestPath))
        #expect(error.description.contains("\"reward\""))
    }

    @Test(
        arguments: [
            ("\"loopStart\": 100, \"loopEnd\": 100", "a point after loopStart"),
            ("\"loopStart\": 100, \"loopEnd\": 50", "a point after loopStart"),
            ("\"loopStart\": \"2s\", \"loopEnd\": \"1.5s\"", "a point after loopStart"),
            ("\"loopEnd\": 0", "after the start of the file"),
            ("\"loopEnd\": \"0s\"", "after the start of the file"),
            ("\"loopStart\": 10, \"loopEnd\": \"1s\"", "same unit"),
        ])
    func loopEndMustFollowLoopStart(extra: String, expected: String) throws {
        try assets.manifest(entries: [reward("\"loop\": true, " + extra)])
        let error = try #require(assets.loadError())
        guard case .invalidValue(_, let entry, let key, _, _) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(entry == "reward")
        #expect(key == "loopEnd")
        #expect(error.description.contains(expected))
    }

    @Test(arguments: ["1.5", "-3", "\"1.5\"", "\"s\"", "\"-1s\"", "\"infs\"", "\"nans\"", "true"])
    func badLoopPointSpelling(value: String) throws {
        try assets.manifest(entries: [reward("\"loop\": true, \"loopStart\": \(value)")])
        let error = try #require(assets.loadError())
        #expect(error.description.contains("sound \"reward\": \"loopStart\""))
        #expect(error.description.contains("\"1.5s\""))
    }

    @Test func loopPointsNeedLooping() throws {
        try assets.manifest(entries: [reward("\"loopStart\": 10")])
        let error = try #require(assets.loadError())
        #expect(error.description.contains("sound \"reward\": \"loopStart\""))
        #expect(error.description.contains("set \"loop\": true"))
    }

    @Test(
        arguments: [
            ("/etc/passwd", "absolute"),
            ("../elsewhere/x.wav", "\"..\""),
            ("Effects/../../elsewhere/x.wav", "\"..\""),
            ("Effects/..", "\"..\""),
        ])
    func pathsThatEscapeTheRootAsWritten(path: String, reason: String) throws {
        try assets.writeAbsolute(assets.outside + "/x.wav")
        try assets.manifest(entries: ["{\"name\": \"reward\", \"path\": \"\(path)\", \"kind\": \"effect\"}"])
        let error = try #require(assets.loadError())
        guard case .pathEscapesRoot(let name, let shownPath, _) = error else {
            Issue.record("expected pathEscapesRoot, got \(error)")
            return
        }
        #expect(name == "reward")
        #expect(shownPath == path)
        #expect(error.description.contains("sound \"reward\": path \"\(path)\""))
        #expect(error.description.contains(reason))
    }

    @Test(arguments: ["", ".", "./"])
    func pathMustNameAFile(path: String) throws {
        try assets.manifest(entries: ["{\"name\": \"reward\", \"path\": \"\(path)\", \"kind\": \"effect\"}"])
        let error = try #require(assets.loadError())
        guard case .invalidValue(_, let entry, let key, _, _) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(entry == "reward")
        #expect(key == "path")
    }

    @Test func directoryIsNotASoundFile() throws {
        try assets.manifest(entries: ["{\"name\": \"reward\", \"path\": \"Effects\", \"kind\": \"effect\"}"])
        let error = try #require(assets.loadError())
        #expect(error.description.contains("sound \"reward\": \"path\" is \"Effects\""))
        #expect(error.description.contains("directory"))
    }

    @Test func missingFile() throws {
        try assets.manifest(entries: [
            "{\"name\": \"hit\", \"path\": \"Effects/hit.wav\", \"kind\": \"effect\"}"
        ])
        let error = try #require(assets.loadError())
        guard case .fileMissing(let name, let path) = error else {
            Issue.record("expected fileMissing, got \(error)")
            return
        }
        #expect(name == "hit")
        #expect(path.hasSuffix("/Assets/Effects/hit.wav"))
        #expect(error.description.contains("sound \"hit\""))
        #expect(error.description.contains("Effects/hit.wav"))
    }

    @Test func unreadableManifest() throws {
        let missing = assets.root + "/nothing.json"
        let error = catalogueError { _ = try Catalogue(manifestAt: missing) }
        #expect(error == .manifestUnreadable(path: missing, reason: "No such file or directory"))
        #expect(error?.description.contains(missing) == true)

        let folder = catalogueError { _ = try Catalogue(manifestAt: assets.root + "/Effects") }
        #expect(folder?.description.contains("directory") == true)
    }

    @Test func assetsRootMustExist() {
        let error = catalogueError { _ = try Catalogue(assetsRoot: assets.root + "/Nope") }
        #expect(error == .assetsNotFound(searched: [assets.root + "/Nope"]))
    }

    @Test func unknownSoundSuggestsCloseNames() throws {
        try assets.write("Effects/reward_big.wav")
        try assets.manifest(entries: [
            reward(),
            "{\"name\": \"reward_big\", \"path\": \"Effects/reward_big.wav\", \"kind\": \"effect\"}",
            "{\"name\": \"main\", \"path\": \"Music/main.ogg\", \"kind\": \"music\"}",
        ])
        let catalogue = try assets.load()
        let error = catalogueError { _ = try catalogue.entry(named: "rewrad") }
        #expect(error == .unknownSound(name: "rewrad", suggestions: ["reward"]))
        #expect(error?.description.contains("did you mean \"reward\"?") == true)
        let both = catalogueError { _ = try catalogue.entry(named: "Reward_bi") }
        #expect(both?.description.contains("did you mean \"reward_big\", \"reward\"?") == true)

        let none = catalogueError { _ = try catalogue.entry(named: "explosion") }
        #expect(none == .unknownSound(name: "explosion", suggestions: []))
        #expect(none?.description.contains("add it to the manifest") == true)
    }
}
