import CSDL2

/// SDL's video and game-controller subsystems, initialised for as long as this object is open.
final class SDLSystem {
    /// Whether controllers could be initialised (a machine without udev may refuse them).
    let hasControllers: Bool
    private var open = true

    /// Initialises SDL.
    /// - Throws: ``StartupError/window(_:)`` with SDL's reason when video cannot start.
    init() throws(StartupError) {
        if SDL_Init(UInt32(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER)) == 0 {
            hasControllers = true
        } else if SDL_Init(UInt32(SDL_INIT_VIDEO)) == 0 {
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
        SDL_Quit()
    }

    /// SDL's description of its last failure.
    static var lastError: String {
        String(cString: SDL_GetError())
    }
}
