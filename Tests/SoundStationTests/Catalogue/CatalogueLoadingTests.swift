import Testing

@testable import SoundStation

/// Manifests that load: defaults, explicit values, lookups and the three initialisers.
@Suite struct CatalogueLoadingTests {
    let assets: CatalogueTempAssets

    init() throws {
        assets = try CatalogueTempAssets()
        try assets.write("Effects/reward.wav")
        try assets.write("Music/main.ogg")
        try assets.write("Voice/hello.ogg")
    }

    let minimal = """
        { "sounds": [
            { "name": "reward", "path": "Effects/reward.wav", "kind": "effect" },
            { "name": "main", "path": "Music/main.ogg", "kind": "music" },
            { "name": "hello", "path": "Voice/hello.ogg", "kind": "voice" } ] }
        """

    @Test func defaultsDependOnKind() throws {
        try assets.manifest(minimal)
        let catalogue = try assets.load()
        let effect = try #require(catalogue["reward"])
        #expect(effect.volume == 1)
        #expect(effect.loop == false)
        #expect(effect.priority == 128)
        #expect(effect.maxInstances == 8)
        #expect(effect.steal == .oldest)
        #expect(effect.stream == false)
        #expect(effect.coalesceMilliseconds == 5)
        #expect(effect.loopStart == nil)
        #expect(effect.loopEnd == nil)

        let music = try #require(catalogue["main"])
        #expect(music.loop == true)
        #expect(music.maxInstances == 1)
        #expect(music.coalesceMilliseconds == 0)
        #expect(music.stream == false)

        let voice = try #require(catalogue["hello"])
        #expect(voice.loop == false)
        #expect(voice.maxInstances == 1)
        #expect(voice.coalesceMilliseconds == 0)
    }

    @Test func defaultsMatchThePublicInitialiser() throws {
        try assets.manifest(minimal)
        let catalogue = try assets.load()
        let built = SoundEntry(
            name: "main", path: "Music/main.ogg", resolvedPath: catalogue.root + "/Music/main.ogg",
            kind: .music)
        #expect(catalogue["main"] == built)
    }

    @Test func explicitValuesAreKept() throws {
        try assets.manifest(
            """
            { "sounds": [
                { "name": "reward", "path": "Effects/reward.wav", "kind": "effect",
                  "volume": 2.5, "loop": true, "priority": 255, "maxInstances": 3, "steal": "quietest",
                  "stream": true, "coalesceMs": 12.5, "loopStart": 10, "loopEnd": 20 },
                { "name": "main", "path": "Music/main.ogg", "kind": "music", "loop": false, "volume": 0,
                  "priority": 0, "steal": "refuse", "coalesceMs": 0 } ] }
            """)
        let catalogue = try assets.load()
        let effect = try #require(catalogue["reward"])
        #expect(effect.volume == 2.5)
        #expect(effect.loop == true)
        #expect(effect.priority == 255)
        #expect(effect.maxInstances == 3)
        #expect(effect.steal == .quietest)
        #expect(effect.stream == true)
        #expect(effect.coalesceMilliseconds == 12.5)
        #expect(effect.loopStart == .frames(10))
        #expect(effect.loopEnd == .frames(20))
        let music = try #require(catalogue["main"])
        #expect(music.loop == false)
        #expect(music.volume == 0)
        #expect(music.priority == 0)
        #expect(music.steal == .refuse)
    }

    @Test func theSeedExampleLoads() throws {
        try assets.manifest(
            """
            { "sounds": [
                { "name": "reward", "path": "Effects/reward.wav", "kind": "effect",
                  "volume": 1.0, "loop": false, "priority": 128, "maxInstances": 4, "stream": false },
                { "name": "main", "path": "Music/main.ogg", "kind": "music", "loop": true,
                  "loopStart": 0, "loopEnd": 960000 } ] }
            """)
        let catalogue = try assets.load()
        #expect(catalogue.entries.map(\.name) == ["reward", "main"])
        #expect(catalogue["reward"]?.maxInstances == 4)
        #expect(catalogue["main"]?.loopStart == .frames(0))
        #expect(catalogue["main"]?.loopEnd == .frames(960_000))
    }

    @Test func loopPointsInFramesAndSeconds() throws {
        try assets.manifest(
            """
            { "sounds": [
                { "name": "main", "path": "Music/main.ogg", "kind": "music",
                  "loopStart": "1.5s", "loopEnd": "20s" },
                { "name": "tail", "path": "Music/main.ogg", "kind": "music", "loopEnd": 44100 },
                { "name": "intro", "path": "Music/main.ogg", "kind": "music", "loopStart": ".25s" } ] }
            """)
        let catalogue = try assets.load()
        let main = try #require(catalogue["main"])
        #expect(main.loopStart == .seconds(1.5))
        #expect(main.loopEnd == .seconds(20))
        #expect(main.loopStart?.frame(atSampleRate: 48_000) == 72_000)
        #expect(main.loopEnd?.frame(atSampleRate: 44_100) == 882_000)
        #expect(catalogue["tail"]?.loopStart == nil)
        #expect(catalogue["tail"]?.loopEnd == .frames(44_100))
        #expect(catalogue["intro"]?.loopStart == .seconds(0.25))
    }

    @Test func framePointsIgnoreSampleRateAndSecondsRound() {
        #expect(LoopPoint.frames(123).frame(atSampleRate: 48_000) == 123)
        #expect(LoopPoint.seconds(0.5).frame(atSampleRate: 22_050) == 11_025)
        #expect(LoopPoint.seconds(1.0 / 3.0).frame(atSampleRate: 10) == 3)
    }

    @Test func orderLookupAndKinds() throws {
        try assets.manifest(minimal)
        let catalogue = try assets.load()
        #expect(catalogue.entries.map(\.name) == ["reward", "main", "hello"])
        #expect(catalogue["nothing"] == nil)
        #expect(try catalogue.entry(named: "hello").kind == .voice)
        #expect(catalogue.entries(ofKind: .effect).map(\.name) == ["reward"])
        #expect(catalogue.entries(ofKind: .music).map(\.name) == ["main"])
        #expect(catalogue.entries(ofKind: .voice).map(\.name) == ["hello"])
    }

    @Test func pathsAreKeptAsWrittenAndResolvedInsideTheRoot() throws {
        try assets.manifest(entries: [
            "{\"name\": \"reward\", \"path\": \"./Effects//reward.wav\", \"kind\": \"effect\"}"
        ])
        let catalogue = try assets.load()
        let entry = try #require(catalogue["reward"])
        #expect(entry.path == "./Effects//reward.wav")
        #expect(entry.resolvedPath == catalogue.root + "/Effects/reward.wav")
        #expect(catalogue.root.hasPrefix("/"))
        #expect(catalogue.root.hasSuffix("/Assets"))
    }

    @Test func emptyCatalogueIsAllowed() throws {
        try assets.manifest("{\"sounds\": []}")
        #expect(try assets.load().entries.isEmpty)
    }

    @Test func manifestElsewhereDefaultsRootToItsFolder() throws {
        let manifest = assets.root + "/Music/list.json"
        try assets.writeAbsolute(
            manifest,
            Array("{\"sounds\": [{\"name\": \"main\", \"path\": \"main.ogg\", \"kind\": \"music\"}]}".utf8))
        let catalogue = try Catalogue(manifestAt: manifest)
        #expect(catalogue.root.hasSuffix("/Assets/Music"))
        #expect(catalogue["main"]?.resolvedPath == catalogue.root + "/main.ogg")

        let rooted = catalogueError { _ = try Catalogue(manifestAt: manifest, root: assets.root) }
        #expect(rooted == .fileMissing(name: "main", path: assets.realRoot + "/main.ogg"))
    }

    @Test func bytesInMemoryUseTheGivenManifestName() throws {
        let json = Array("{\"sounds\": [{\"name\": \"reward\", \"path\": \"Effects/reward.wav\"}]}".utf8)
        let error = catalogueError { _ = try Catalogue(json: json, root: assets.root) }
        #expect(
            error?.description.hasPrefix("catalogue.json: sound \"reward\": missing required key \"kind\"")
                == true)
        let named = catalogueError {
            _ = try Catalogue(json: json, root: assets.root, manifestName: "mod.json")
        }
        #expect(named?.description.hasPrefix("mod.json: ") == true)
    }

    @Test func trailingSlashOnTheRootIsFine() throws {
        try assets.manifest(minimal)
        let catalogue = try Catalogue(assetsRoot: assets.root + "/")
        #expect(catalogue == (try assets.load()))
    }
}
