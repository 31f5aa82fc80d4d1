import SoundStation

/// Why `starfall` could not start; each message says what to do.
enum StartupError: Error, CustomStringConvertible {
    case catalogue(CatalogueError)
    case engine(AudioEngineError)
    case noScreen
    case window(String)
    case terminal(String)

    var description: String {
        switch self {
        case .catalogue(let error): "\(error.description) (pass --assets DIR to point at the game's assets)"
        case .engine(let error): "no sound output, not even silent: \(error.description)"
        case .noScreen:
            "no display and no terminal: run it in a terminal, set DISPLAY for the window, "
                + "or use --autoplay SECONDS --audio-out FILE.wav"
        case .window(let reason): "the window could not be opened: \(reason) (try --terminal)"
        case .terminal(let reason): "the terminal could not be set up: \(reason) (try --window)"
        }
    }
}
