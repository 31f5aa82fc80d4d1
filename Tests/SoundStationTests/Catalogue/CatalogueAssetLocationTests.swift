import Foundation
import Testing

@testable import SoundStation

/// Foundation's `Bundle` as a ``ResourceBundle``, as a game using SwiftPM resources passes it.
private struct FoundationBundle: ResourceBundle {
    let bundle: Bundle
    var resourcePath: String? { bundle.resourcePath }
    var bundlePath: String { bundle.bundlePath }
}

/// Finding the assets folder: explicit folders, bundles and the default search.
@Suite struct CatalogueAssetLocationTests {
    let assets: CatalogueTempAssets

    init() throws {
        assets = try CatalogueTempAssets()
        try assets.write("Effects/reward.wav")
        try assets.manifest(entries: [
            "{\"name\": \"reward\", \"path\": \"Effects/reward.wav\", \"kind\": \"effect\"}"
        ])
    }

    /// The temp folder that holds `Assets`, standing in for a game's repository.
    var repository: String { (assets.root as NSString).deletingLastPathComponent }

    @Test func directoryResolvesToTheRealPath() throws {
        #expect(try AssetLocation.directory(assets.root).resolve() == assets.realRoot)
        let catalogue = try Catalogue(location: .directory(assets.root))
        #expect(catalogue["reward"] != nil)
    }

    @Test func missingDirectoryIsReported() {
        let missing = assets.root + "/Nope"
        let error = catalogueError { _ = try AssetLocation.directory(missing).resolve() }
        #expect(error == .assetsNotFound(searched: [missing]))
        #expect(error?.description.contains(missing) == true)
        #expect(error?.description.contains("SOUNDSTATION_ASSETS") == true)
    }

    @Test func aFileIsNotAnAssetsDirectory() {
        let file = assets.root + "/Effects/reward.wav"
        let error = catalogueError { _ = try AssetLocation.directory(file).resolve() }
        #expect(error == .assetsNotFound(searched: [file]))
    }

    @Test func bundleSubdirectoryResolves() throws {
        let bundle = FoundationBundle(bundle: try #require(Bundle(path: repository)))
        let resources = try #require(bundle.resourcePath)
        let location = AssetLocation.bundle(bundle, subdirectory: "Assets")
        #expect(try location.resolve() == CatalogueFiles.realPath(resources + "/Assets"))
        let missing = catalogueError {
            _ = try AssetLocation.bundle(bundle, subdirectory: "Sounds").resolve()
        }
        #expect(missing == .assetsNotFound(searched: [resources + "/Sounds"]))
    }

    @Test func environmentVariableWins() throws {
        let found = try AssetLocation.locateDefault(
            environment: ["SOUNDSTATION_ASSETS": assets.root], currentDirectory: "/nonexistent",
            executablePath: "/nonexistent/bin/game")
        #expect(found == assets.realRoot)
    }

    @Test func catalogueFallsBackToTheEnvironmentVariableAsItsErrorAdvises() throws {
        let missing = assets.root + "/Nope"
        let advice = catalogueError { _ = try Catalogue(assetsRoot: missing, environment: [:]) }
        #expect(advice == .assetsNotFound(searched: [missing]))
        #expect(advice?.description.contains("set SOUNDSTATION_ASSETS") == true)

        let catalogue = try Catalogue(assetsRoot: missing, environment: ["SOUNDSTATION_ASSETS": assets.root])
        #expect(catalogue.root == assets.realRoot)
        #expect(catalogue["reward"] != nil)
        // A folder that has its own manifest is used as given, whatever the variable says.
        let given = try Catalogue(
            assetsRoot: assets.root, environment: ["SOUNDSTATION_ASSETS": assets.outside])
        #expect(given.root == assets.realRoot)
        let both = catalogueError {
            _ = try Catalogue(assetsRoot: missing, environment: ["SOUNDSTATION_ASSETS": assets.outside])
        }
        #expect(both == .assetsNotFound(searched: [missing, assets.outside]))
    }

    @Test func environmentVariablePointingNowhereIsAnError() {
        let error = catalogueError {
            _ = try AssetLocation.locateDefault(
                environment: ["SOUNDSTATION_ASSETS": assets.outside], currentDirectory: repository)
        }
        #expect(error == .assetsNotFound(searched: [assets.outside]))
    }

    @Test func assetsInTheWorkingDirectory() throws {
        let found = try AssetLocation.locateDefault(
            environment: [:], currentDirectory: repository, executablePath: "/nonexistent/bin/game")
        #expect(found == assets.realRoot)
    }

    @Test func walksUpFromTheExecutable() throws {
        let executable = repository + "/.build/debug/game"
        let found = try AssetLocation.locateDefault(
            environment: [:], currentDirectory: assets.outside, executablePath: executable)
        #expect(found == assets.realRoot)
    }

    @Test func anInstalledBinaryFindsTheSharedAssets() throws {
        // PREFIX/bin/game finds PREFIX/share/soundstation/Assets (make install-bin, the .deb).
        let prefix = assets.outside + "/prefix"
        let shared = prefix + "/share/soundstation"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: shared + "/Assets", withDestinationPath: assets.root)
        let found = try AssetLocation.locateDefault(
            environment: [:], currentDirectory: "/nonexistent", executablePath: prefix + "/bin/game")
        #expect(found == assets.realRoot)
    }

    @Test func aFolderWithoutManifestDoesNotCount() throws {
        try FileManager.default.removeItem(atPath: assets.manifestPath)
        let executable = repository + "/bin/game"
        let error = catalogueError {
            _ = try AssetLocation.locateDefault(
                environment: [:], currentDirectory: assets.outside, executablePath: executable)
        }
        guard case .assetsNotFound(let searched) = error else {
            Issue.record("expected assetsNotFound, got \(String(describing: error))")
            return
        }
        #expect(searched.first == assets.outside + "/Assets")
        #expect(searched.contains(repository + "/bin/Assets"))
        #expect(searched.contains(assets.root))
        #expect(searched.last == "/Assets")
        #expect(Set(searched).count == searched.count)
    }
}
