import CommandLineKit
import Glibc
import SoundStation

/// Dispatches the subcommands.
enum Command {
    static let usage = """
        usage: soundstation catalogue [--assets DIR] [--json]
               soundstation devices
               soundstation render --seconds S --out FILE.wav [--rate HZ] [--assets DIR] EVENT...
               soundstation play [--seconds S] [--assets DIR] [--watch] EVENT...
               soundstation play [--seconds S] [--track N] [--soundfont F.sf2] FILE   (a song file, once)
               soundstation ssh [--socket] [--output O] [--delay MS] [--cache DIR] [ssh options] [user@]host [command]
               soundstation listen [--socket PATH] [--sessions N] [--output O] [--delay MS] [--cache DIR]
               soundstation cache [list|clear] [--cache DIR]
               soundstation synth PRESET|PARAMS [--seed N] [--mutate N] [--variation ST] [--play] [--output O] [--out FILE.wav]
               soundstation --help | --version
        EVENT: T:effect:NAME  T:music:NAME[:fade=S|:crossfade=S]  T:stop-music[:fade=S]
               T:pause  T:resume  T:volume:BUS:GAIN   (T in seconds; BUS master|music|effects|voice)
               T:effect:NAME:pan=X  T:effect:NAME:pos=X,Y  T:listener:X,Y
               T:filter:BUS:lowpass=HZ|highpass=HZ|off  T:reverb:BUS:PRESET|off   (PRESET cave, hall, room, ...)
               T:music:NAME[...]:at=now|beat|bar|bars=N|marker=M  T:effect:NAME[...]:at=beat|bar|bars=N
               T:intensity:X[:over=S[:ease=E]]   (the music's layers; X 0...1)
               T:tempo:BPM[:over=S[:ease=E]]     (the cue list's clock: the first starts it, and effects
                                                  cued at=beat|bar then follow it)
               (E linear, in-quad, out-quad, in-out-quad, in-cubic, out-cubic, in-out-cubic, equal-power)
        synth: an sfxr effect (PRESET coin, laser, explosion, powerup, hit, jump, blip, random; or PARAMS in the
               catalogue's JSON form, jsfxr's share string or sfxr's settings); prints its parameters in the
               catalogue's form; --play plays it (--output device|device:NAME|silent), --out writes a WAV
        --watch: load edited sound files and catalogue.json again while playing (one line per reload),
                 until --seconds or Ctrl-C
        environment: SOUNDSTATION_OUTPUT=device|silent|remote, SOUNDSTATION_DEVICE=NAME, SOUNDSTATION_ASSETS=DIR
        """

    /// The program's name, usage text and error style.
    static let program = CommandLineProgram(
        name: "soundstation", usage: usage, version: LibraryVersion.string)

    static func run(_ words: [String]) async throws {
        guard let name = words.first else { throw CLIError.usage("no command given") }
        // ssh's own options and command pass through untouched, --help included.
        if name == "ssh" { try SSHCommand.run(Array(words.dropFirst())) }
        if name == "listen" { try ListenCommand.run(Array(words.dropFirst())) }
        var arguments = Arguments(Array(words.dropFirst()))
        if arguments.help() {
            program.printUsage()
            return
        }
        switch name {
        case "catalogue": try CatalogueCommand.run(&arguments)
        case "devices": try DevicesCommand.run(&arguments)
        case "render": try await RenderCommand.run(&arguments)
        case "play": try await PlayCommand.run(&arguments)
        case "cache": try CacheCommand.run(&arguments)
        case "synth": try await SynthCommand.run(&arguments)
        case "help", "--help", "-h": program.printUsage()
        default: throw CLIError.usage("unknown command \"\(name)\"")
        }
    }

    /// The catalogue from `--assets` (`directory`), `SOUNDSTATION_ASSETS`, `./Assets` or beside the
    /// executable.
    static func loadCatalogue(_ directory: String?) throws -> Catalogue {
        if let directory {
            return try Catalogue(assetsRoot: directory, environment: [:])
        }
        return try Catalogue(location: .directory(try AssetLocation.locateDefault()))
    }
}
