import CommandLineKit
import SoundStation

/// The command line of `starfall`.
struct Options: Equatable {
    /// Which front end runs.
    enum Mode: Equatable {
        /// The window when a display exists, else the terminal.
        case automatic
        /// The SDL2 window.
        case window
        /// The terminal.
        case terminal
        /// No screen: the bot plays and the sound is rendered offline.
        case autoplay(seconds: Double)
    }

    var mode = Mode.automatic
    var seed: UInt64?
    var audioOut: String?
    var frames: Int?
    var autostart = false
    var bot = false
    var screenshot: String?
    var assets: String?
    /// Load edited sound files and `catalogue.json` again while the game runs.
    var watchAssets = false
    var help = false

    static let usage = """
        usage: starfall [--window | --terminal] [--autostart] [--bot] [--seed N] [--frames N]
                        [--screenshot FILE.bmp] [--assets DIR] [--watch-assets]
               starfall --autoplay SECONDS [--seed N] --audio-out FILE.wav [--assets DIR]
               starfall --help | --version

        Catch the falling stars with the paddle; bombs cost a life.
          --window, --terminal  choose the front end (default: the window when a display exists)
          --autostart           skip the menu and start a game at once
          --bot                 let the bot play (p pauses, Esc/q still work)
          --seed N              the game's random seed (default: the clock; 1 for --autoplay)
          --frames N            stop after N frames (window) or ticks (terminal), exit 0
          --screenshot FILE     with --frames, save the last window frame as a BMP
          --assets DIR          the folder with catalogue.json (default: ./Assets or beside the binary)
          --watch-assets        load edited sound files and catalogue.json again while the game runs
                                (each reload, or what is wrong with an edit, shows as a notice)
          --autoplay SECONDS    no screen: the bot plays, the sound is rendered offline at 48 kHz
                                stereo into --audio-out, and a JSON summary is printed on stdout
        Keys: arrows or A/D move, Space/Enter select, p pause, Esc or q back (quit from the menu).
        Sound: SOUNDSTATION_OUTPUT=device|silent, SOUNDSTATION_DEVICE=NAME.
        """

    /// The program's name, usage text and error style.
    static let program = CommandLineProgram(
        name: "starfall", usage: usage, version: LibraryVersion.string)

    /// `--autoplay` without somewhere to put the sound.
    static let autoplayNeedsOutput = CLIError.usage(
        "--autoplay needs --audio-out FILE.wav for the rendered sound")

    /// Reads the arguments after the program name.
    /// - Parameter words: The command line without the program name.
    /// - Returns: The options.
    /// - Throws: A usage ``CLIError`` naming the bad argument.
    static func parse(_ words: [String]) throws(CLIError) -> Options {
        var arguments = Arguments(words)
        var options = Options()
        options.help = arguments.help()
        var modes: [(option: String, mode: Mode)] = []
        if try arguments.flag("window") { modes.append(("--window", .window)) }
        if try arguments.flag("terminal") { modes.append(("--terminal", .terminal)) }
        if let text = try arguments.value("autoplay") {
            guard let seconds = Double(text), seconds >= 0, seconds <= 3_600 else {
                throw .usage(
                    "--autoplay \"\(text)\": expected seconds from 0 to 3600 "
                        + "(0 preloads and renders nothing, for timing start-up)")
            }
            modes.append(("--autoplay", .autoplay(seconds: seconds)))
        }
        if modes.count > 1 {
            throw .usage(modes.map(\.option).joined(separator: " and ") + " conflict: choose one")
        }
        options.mode = modes.first?.mode ?? .automatic
        if let text = try arguments.value("seed") {
            guard let seed = UInt64(text) else {
                throw .usage("--seed \"\(text)\": expected a whole number from 0")
            }
            options.seed = seed
        }
        if let text = try arguments.value("frames") {
            guard let frames = Int(text), frames > 0 else {
                throw .usage("--frames \"\(text)\": expected a whole number above 0")
            }
            options.frames = frames
        }
        options.audioOut = try arguments.value("audio-out")
        options.screenshot = try arguments.value("screenshot")
        options.assets = try arguments.value("assets")
        options.autostart = try arguments.flag("autostart")
        options.bot = try arguments.flag("bot")
        options.watchAssets = try arguments.flag("watch-assets")
        try arguments.finish()
        try options.check()
        return options
    }

    private func check() throws(CLIError) {
        if case .autoplay = mode {
            guard audioOut != nil else { throw Self.autoplayNeedsOutput }
            if autostart || bot || frames != nil || screenshot != nil || watchAssets {
                throw .usage(
                    "--autostart, --bot, --frames, --screenshot and --watch-assets are for the window and terminal"
                )
            }
        } else if audioOut != nil {
            throw .usage("--audio-out is only for --autoplay SECONDS")
        }
        if screenshot != nil, frames == nil {
            throw .usage("--screenshot needs --frames N: the screenshot is the last frame")
        }
        if screenshot != nil, mode == .terminal {
            throw .usage("--screenshot needs the window front end, not --terminal")
        }
    }
}
