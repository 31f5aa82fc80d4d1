import Foundation
import Testing

@testable import SoundStation

/// A throwaway assets folder under the system temp directory, removed when released.
final class CatalogueTempAssets {
    /// The folder that plays the assets root (not symlink-resolved).
    let root: String
    /// A sibling folder outside the root, for symlink-escape tests.
    let outside: String
    private let base: String

    init() throws {
        base =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("soundstation-catalogue-\(UUID().uuidString)").path
        root = base + "/Assets"
        outside = base + "/elsewhere"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: base)
    }

    /// Writes a file under the root; sound files can hold any bytes because loading never decodes.
    @discardableResult
    func write(_ relative: String, _ bytes: [UInt8] = [0x52, 0x49, 0x46, 0x46]) throws -> String {
        try writeAbsolute(root + "/" + relative, bytes)
    }

    @discardableResult
    func writeAbsolute(_ path: String, _ bytes: [UInt8] = [0x4F, 0x67, 0x67, 0x53]) throws -> String {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func symlink(_ relative: String, to destination: String) throws {
        let path = root + "/" + relative
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: destination)
    }

    /// Writes `catalogue.json` into the root.
    func manifest(_ json: String) throws {
        try write(Catalogue.manifestName, Array(json.utf8))
    }

    /// A manifest whose `sounds` holds the given entry objects.
    func manifest(entries: [String]) throws {
        try manifest("{\"sounds\": [\(entries.joined(separator: ", "))]}")
    }

    func load() throws(CatalogueError) -> Catalogue {
        try Catalogue(assetsRoot: root)
    }

    /// Loads and returns the error, or nil when loading succeeded.
    func loadError() -> CatalogueError? {
        do {
            _ = try load()
            return nil
        } catch {
            return error
        }
    }

    /// The symlink-resolved root, which is what a catalogue reports as its `root`.
    var realRoot: String { CatalogueFiles.realPath(root) ?? root }

    /// The manifest path messages use when loading through `init(assetsRoot:)`.
    var manifestPath: String { root + "/" + Catalogue.manifestName }
}

/// Runs `body` and returns the catalogue error it threw, or nil.
///
/// Takes an untyped closure because closures infer `any Error` unless annotated.
func catalogueError(_ body: () throws -> Void) -> CatalogueError? {
    do {
        try body()
        return nil
    } catch let error as CatalogueError {
        return error
    } catch {
        Issue.record("expected a CatalogueError, got \(error)")
        return nil
    }
}
