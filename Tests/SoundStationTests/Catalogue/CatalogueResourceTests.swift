import Testing

@testable import SoundStation

/// A game's sound enum, as in the seed: each case knows where its file is.
private enum Music: String, SoundResource {
    case main
    case game
}

/// A resource whose catalogue names differ from its Swift names.
private enum Effect: SoundResource {
    case coin

    var catalogueName: String { "pickup.coin" }
}

@Suite struct CatalogueResourceTests {
    let assets: CatalogueTempAssets
    let catalogue: Catalogue

    init() throws {
        assets = try CatalogueTempAssets()
        try assets.write("Music/main.ogg")
        try assets.write("Music/game.ogg")
        try assets.write("Effects/coin.wav")
        try assets.manifest(entries: [
            "{\"name\": \"main\", \"path\": \"Music/main.ogg\", \"kind\": \"music\"}",
            "{\"name\": \"game\", \"path\": \"Music/game.ogg\", \"kind\": \"music\"}",
            "{\"name\": \"pickup.coin\", \"path\": \"Effects/coin.wav\", \"kind\": \"effect\"}",
        ])
        catalogue = try assets.load()
    }

    @Test func stringEnumsUseTheirRawValue() throws {
        #expect(Music.main.catalogueName == "main")
        #expect(Music.main.bundlePath(in: catalogue) == assets.realRoot + "/Music/main.ogg")
        #expect(Music.game.bundlePath(in: catalogue) == assets.realRoot + "/Music/game.ogg")
        #expect(try catalogue.entry(for: Music.game).name == "game")
    }

    @Test func customNamesAreHonoured() throws {
        #expect(Effect.coin.bundlePath(in: catalogue) == assets.realRoot + "/Effects/coin.wav")
        #expect(try catalogue.entry(for: Effect.coin).kind == .effect)
    }

    @Test func unknownResourcesHaveNoPath() throws {
        try assets.manifest(entries: [
            "{\"name\": \"main\", \"path\": \"Music/main.ogg\", \"kind\": \"music\"}"
        ])
        let smaller = try assets.load()
        #expect(Music.game.bundlePath(in: smaller) == nil)
        let error = catalogueError { _ = try smaller.entry(for: Music.game) }
        #expect(error == .unknownSound(name: "game", suggestions: []))
    }
}
