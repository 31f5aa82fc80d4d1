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
    var help = false

    static let usage = """
        usage: starfall [--window | --terminal] [--autostart] [--bot] [--seed N] [--frames N]
                        [--screenshot FILE.bmp] [--assets DIR]
               starfall --autoplay SECONDS [--seed N] --audio-out FILE.wav [--assets DIR]

        Catch the falling stars with the paddle; bombs cost a life.
          --window, --terminal  choose the front end (default: the window when a display exists)
          --autostart           skip the menu and start a game at once
          --bot                 let the bot play (p pauses, Esc/q still work)
          --seed N              the game's random seed (default: the clock; 1 for --autoplay)
          --frames N            stop after N frames (window) or ticks (terminal), exit 0
          --screenshot FILE     with --frames, save the last window frame as a BMP
          --assets DIR          the folder with catalogue.json (default: ./Assets or beside the binary)
          --autoplay SECONDS    no screen: the bot plays, the sound is rendered offline at 48 kHz
                                stereo into --audio-out, and a JSON summary is printed on stdout
        Keys: arrows or A/D move, Space/Enter select, p pause, Esc or q back (quit from the menu).
        Sound: SOUNDSTATION_OUTPUT=device|silent, SOUNDSTATION_DEVICE=NAME.
        """

    /// Reads the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(for option: String) throws(UsageError) -> String {
            guard let next = rest.popFirst(), !next.hasPrefix("--") else { throw .missingValue(option) }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--window": try options.choose(.window, argument)
            case "--terminal": try options.choose(.terminal, argument)
            case "--autoplay":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds >= 0, seconds <= 3_600 else {
                    throw .badValue(
                        option: argument, value: text,
                        expected:
                            "seconds from 0 to 3600 (0 preloads and renders nothing, for timing start-up)")
                }
                try options.choose(.autoplay(seconds: seconds), argument)
            case "--seed":
                let text = try value(for: argument)
                guard let seed = UInt64(text) else {
                    throw .badValue(option: argument, value: text, expected: "a whole number from 0")
                }
                options.seed = seed
            case "--frames":
                let text = try value(for: argument)
                guard let frames = Int(text), frames > 0 else {
                    throw .badValue(option: argument, value: text, expected: "a whole number above 0")
                }
                options.frames = frames
            case "--audio-out": options.audioOut = try value(for: argument)
            case "--screenshot": options.screenshot = try value(for: argument)
            case "--assets": options.assets = try value(for: argument)
            case "--autostart": options.autostart = true
            case "--bot": options.bot = true
            case "--help", "-h": options.help = true
            default: throw .unknownOption(argument)
            }
        }
        try options.check()
        return options
    }

    private mutating func choose(_ chosen: Mode, _ argument: String) throws(UsageError) {
        guard mode == .automatic else { throw .conflicting(argument) }
        mode = chosen
    }

    private func check() throws(UsageError) {
        if case .autoplay = mode {
            guard audioOut != nil else { throw .autoplayNeedsOutput }
            if autostart || bot || frames != nil || screenshot != nil {
                throw .notWithAutoplay
            }
        } else if audioOut != nil {
            throw .outputNeedsAutoplay
        }
        if screenshot != nil, frames == nil { throw .screenshotNeedsFrames }
        if screenshot != nil, mode == .terminal { throw .screenshotNeedsWindow }
    }
}
