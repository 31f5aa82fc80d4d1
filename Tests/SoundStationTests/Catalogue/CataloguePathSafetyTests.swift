import Foundation
import Testing

@testable import SoundStation

/// Symlinks may rearrange files inside the assets root but never reach outside it.
@Suite struct CataloguePathSafetyTests {
    let assets: CatalogueTempAssets

    init() throws {
        assets = try CatalogueTempAssets()
    }

    func entry(_ path: String) -> String {
        "{\"name\": \"reward\", \"path\": \"\(path)\", \"kind\": \"effect\"}"
    }

    @Test func symlinkToAFileOutsideTheRootIsRefused() throws {
        let secret = try assets.writeAbsolute(assets.outside + "/secret.wav")
        try assets.symlink("Effects/reward.wav", to: secret)
        try assets.manifest(entries: [entry("Effects/reward.wav")])
        let error = try #require(assets.loadError())
        guard case .pathEscapesRoot(let name, let path, let reason) = error else {
            Issue.record("expected pathEscapesRoot, got \(error)")
            return
        }
        #expect(name == "reward")
        #expect(path == "Effects/reward.wav")
        #expect(reason.contains("secret.wav"))
        #expect(error.description.contains("sound \"reward\": path \"Effects/reward.wav\""))
    }

    @Test func symlinkedFolderOutsideTheRootIsRefused() throws {
        try assets.writeAbsolute(assets.outside + "/reward.wav")
        try assets.symlink("Effects", to: assets.outside)
        try assets.manifest(entries: [entry("Effects/reward.wav")])
        let error = try #require(assets.loadError())
        guard case .pathEscapesRoot = error else {
            Issue.record("expected pathEscapesRoot, got \(error)")
            return
        }
    }

    @Test func relativeSymlinkClimbingOutIsRefused() throws {
        try assets.writeAbsolute(assets.outside + "/reward.wav")
        try assets.symlink("Effects/reward.wav", to: "../../elsewhere/reward.wav")
        try assets.manifest(entries: [entry("Effects/reward.wav")])
        let error = try #require(assets.loadError())
        guard case .pathEscapesRoot = error else {
            Issue.record("expected pathEscapesRoot, got \(error)")
            return
        }
    }

    @Test func symlinksInsideTheRootAreAccepted() throws {
        try assets.write("Shared/coin.wav")
        try assets.symlink("Effects/reward.wav", to: "../Shared/coin.wav")
        try assets.symlink("Alias", to: assets.root + "/Shared")
        try assets.manifest(entries: [
            entry("Effects/reward.wav"),
            "{\"name\": \"coin\", \"path\": \"Alias/coin.wav\", \"kind\": \"effect\"}",
        ])
        let catalogue = try assets.load()
        // The resolved path keeps the name as written so logs match the manifest.
        #expect(catalogue["reward"]?.resolvedPath == catalogue.root + "/Effects/reward.wav")
        #expect(catalogue["coin"]?.resolvedPath == catalogue.root + "/Alias/coin.wav")
    }

    @Test func aSymlinkedRootIsResolvedFirst() throws {
        try assets.write("Effects/reward.wav")
        try assets.manifest(entries: [entry("Effects/reward.wav")])
        let link = assets.outside + "/link-to-assets"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: assets.root)
        let catalogue = try Catalogue(assetsRoot: link)
        #expect(catalogue.root == assets.realRoot)
        #expect(catalogue["reward"]?.resolvedPath == assets.realRoot + "/Effects/reward.wav")
    }

    @Test func danglingSymlinkIsAMissingFile() throws {
        try assets.symlink("Effects/reward.wav", to: assets.outside + "/gone.wav")
        try assets.manifest(entries: [entry("Effects/reward.wav")])
        let error = try #require(assets.loadError())
        #expect(error == .fileMissing(name: "reward", path: assets.realRoot + "/Effects/reward.wav"))
    }
}
