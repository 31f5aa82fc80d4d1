import Foundation

/// The `voicenote` executable that `swift build` (and the Makefile's `swift build --build-tests`)
/// puts in `.build/debug`, found from this file's place in the package.
enum BuiltTool {
    static var packageRoot: URL {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/"
            && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
        {
            url.deleteLastPathComponent()
        }
        return url
    }

    static var voicenote: String { packageRoot.appendingPathComponent(".build/debug/voicenote").path }

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: voicenote) }
}
