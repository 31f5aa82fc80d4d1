import CommandLineKit

// soundstation: inspect a catalogue, list devices, and render or play cue lists.
await Command.program.main {
    try await Command.run(Array(CommandLine.arguments.dropFirst()))
    return 0
}
