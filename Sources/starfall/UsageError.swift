/// A command line `starfall` cannot follow; the message says what to type instead.
enum UsageError: Error, CustomStringConvertible, Equatable {
    case unknownOption(String)
    case missingValue(String)
    case badValue(option: String, value: String, expected: String)
    case conflicting(String)
    case autoplayNeedsOutput
    case notWithAutoplay
    case outputNeedsAutoplay
    case screenshotNeedsFrames
    case screenshotNeedsWindow

    var description: String {
        switch self {
        case .unknownOption(let option): "unknown option \"\(option)\" (see starfall --help)"
        case .missingValue(let option): "\(option) needs a value (see starfall --help)"
        case .badValue(let option, let value, let expected): "\(option) \"\(value)\": expected \(expected)"
        case .conflicting(let option):
            "\(option) conflicts with an earlier --window, --terminal or --autoplay: choose one"
        case .autoplayNeedsOutput: "--autoplay needs --audio-out FILE.wav for the rendered sound"
        case .notWithAutoplay: "--autostart, --bot, --frames and --screenshot are for the window and terminal"
        case .outputNeedsAutoplay: "--audio-out is only for --autoplay SECONDS"
        case .screenshotNeedsFrames: "--screenshot needs --frames N: the screenshot is the last frame"
        case .screenshotNeedsWindow: "--screenshot needs the window front end, not --terminal"
        }
    }
}
