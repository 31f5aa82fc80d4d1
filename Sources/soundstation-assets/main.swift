import Foundation
import SoundStation

/// soundstation-assets [folder]
///
/// Synthesises every sound of the demo game into `folder` (default `Assets`), writes its
/// `catalogue.json`, then reads everything back to prove the engine can load it.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count > 1 || arguments.first?.hasPrefix("-") == true {
    FileHandle.standardError.write(
        Data(
            ("usage: soundstation-assets [output-folder]\n"
                + "  Synthesises the demo game's sounds and catalogue.json into the folder (default: Assets).\n")
                .utf8))
    exit(arguments.first == "-h" || arguments.first == "--help" ? 0 : 2)
}
let root = arguments.first ?? "Assets"

do {
    _ = try AssetBuilder.build(into: root)
    let sounds = try Verifier.verify(root: root)
    print(Verifier.table(sounds))
} catch {
    FileHandle.standardError.write(Data("soundstation-assets: \(error)\n".utf8))
    exit(1)
}
