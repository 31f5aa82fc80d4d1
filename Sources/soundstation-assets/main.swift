import CommandLineKit
import Glibc
import SoundStation

// soundstation-assets [output-folder]
//
// Synthesises every sound of the demo game into the folder (default `Assets`), writes its
// `catalogue.json`, then reads everything back the way the engine will, so a broken asset
// fails here with a message rather than later as silence in the game.

let usage = """
    usage: soundstation-assets [output-folder]
      Synthesises the demo game's sounds and catalogue.json into the folder (default: Assets),
      then decodes every file to check it.

    """
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "-h" || arguments.first == "--help" {
    print(usage, terminator: "")
    exit(0)
}
if arguments.count > 1 || arguments.first?.hasPrefix("-") == true {
    StandardStream.error.write(usage)
    exit(2)
}
let root = arguments.first ?? "Assets"

do {
    let entries = try AssetBuilder.build(into: root)
    print("wrote \(entries.count) sounds and \(Catalogue.manifestName) to \(root)")
    let sounds = try Verifier.verify(root: root)
    print(Verifier.table(sounds))
} catch {
    StandardStream.error.write("soundstation-assets: \(error)\n")
    exit(1)
}
