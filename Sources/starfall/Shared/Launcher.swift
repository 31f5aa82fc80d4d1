import Glibc
import SoundStation
import StarfallCore

/// Chooses and runs the front end the command line asks for.
@MainActor
enum Launcher {
    /// Runs `starfall` and returns its exit status.
    static func run(_ options: Options, screens: ExternalScreens) async -> Int32 {
        let frontEnd: Options.Mode
        switch options.mode {
        case .autoplay(let seconds):
            guard let audioOut = options.audioOut else {
                return Options.program.report(Options.autoplayNeedsOutput)
            }
            return await AutoplayCommand.run(
                seconds: seconds, seed: options.seed ?? 1, audioOut: audioOut, assets: options.assets)
        case .automatic:
            if hasDisplay {
                frontEnd = .window
            } else if isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
                frontEnd = .terminal
            } else {
                Console.report(StartupError.noScreen.description)
                return 1
            }
        case .window, .terminal:
            frontEnd = options.mode
        }
        let notices = NoticeBoard()
        let sound: GameSound
        do {
            sound = try GameSound.open(assets: options.assets, notices: notices)
        } catch {
            Console.report(error.description)
            return 1
        }
        let watch = options.watchAssets ? sound.watchAssets(notices: notices) : nil
        defer { watch?.cancel() }
        // A person playing gets a new game each time; --seed replays one.
        let seed = options.seed ?? UInt64(FileSystem.secondsSince1970 * 1_000)
        if frontEnd == .window {
            return await WindowFrontEnd.run(
                options: options, seed: seed, sound: sound, notices: notices, screens: screens)
        }
        return await TerminalFrontEnd.run(
            options: options, seed: seed, sound: sound, notices: notices, screens: screens)
    }

    /// Whether SDL has somewhere to open a window: an X11 or Wayland display, or a video driver chosen
    /// explicitly (such as `SDL_VIDEODRIVER=dummy` in CI).
    static var hasDisplay: Bool {
        let environment = ProcessEnvironment.variables
        return ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"].contains { !(environment[$0] ?? "").isEmpty }
    }
}
