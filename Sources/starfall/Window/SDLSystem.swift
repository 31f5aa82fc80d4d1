import CSDL2

/// SDL's video and game-controller subsystems, initialised for as long as this object is open.
final class SDLSystem {
    /// Whether controllers could be initialised (a machine without udev may refuse them).
    let hasControllers: Bool
    private var open = true

    /// Loads SDL2 (the game does not link it, so the other front ends start without it) and
    /// initialises it.
    /// - Throws: ``StartupError/window(_:)`` with the loader's reason when SDL2 is not installed, or
    ///   SDL's reason when video cannot start.
    init() throws(StartupError) {
        var reason = [CChar](repeating: 0, count: 512)
        guard sfsdl_load(&reason, reason.count) == 1 else {
            let message = String(
                decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .window("\(message) (install SDL2, e.g. Debian's libsdl2-2.0-0, or play in a terminal)")
        }
        if sfsdl_Init(UInt32(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER)) == 0 {
            hasControllers = true
        } else if sfsdl_Init(UInt32(SDL_INIT_VIDEO)) == 0 {
            hasControllers = false
        } else {
            throw .window("SDL_Init: \(Self.lastError)")
        }
    }

    deinit {
        close()
    }

    /// Shuts SDL down; every window and controller must be closed first.
    func close() {
        guard open else { return }
        open = false
        sfsdl_Quit()
    }

    /// SDL's description of its last failure.
    static var lastError: String {
        String(cString: sfsdl_GetError())
    }
}
