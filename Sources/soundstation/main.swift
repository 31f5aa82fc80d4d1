import Foundation
import SoundStation

// soundstation: inspect a catalogue, list devices, and render or play cue lists.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    try await Command.run(arguments)
} catch let error as CLIError {
    FileHandle.standardError.write(Data("soundstation: \(error.description)\n".utf8))
    exit(error.exitCode)
} catch let error as SoundCueError {
    FileHandle.standardError.write(Data("soundstation: \(error.description)\n".utf8))
    exit(2)
} catch let error as CustomStringConvertible {
    FileHandle.standardError.write(Data("soundstation: \(error.description)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("soundstation: \(error)\n".utf8))
    exit(1)
}
