import CSDL2

/// The game controllers plugged in, opened as SDL reports them and closed when unplugged.
final class SDLControllers {
    private var controllers: [OpaquePointer] = []

    deinit {
        close()
    }

    /// Opens the controller SDL announced at joystick `index`.
    func add(index: Int32) {
        guard sfsdl_IsGameController(index) == SDL_TRUE, let controller = sfsdl_GameControllerOpen(index)
        else {
            return
        }
        controllers.append(controller)
    }

    /// Closes the controllers that are no longer attached.
    func removeDetached() {
        controllers.removeAll { controller in
            guard sfsdl_GameControllerGetAttached(controller) == SDL_FALSE else { return false }
            sfsdl_GameControllerClose(controller)
            return true
        }
    }

    /// Closes every controller (before `SDL_Quit`).
    func close() {
        for controller in controllers { sfsdl_GameControllerClose(controller) }
        controllers = []
    }

    /// The held direction from any controller's d-pad or left stick: -1, 0 or 1.
    var horizontal: Int {
        for controller in controllers {
            if sfsdl_GameControllerGetButton(controller, SDL_CONTROLLER_BUTTON_DPAD_LEFT) != 0 { return -1 }
            if sfsdl_GameControllerGetButton(controller, SDL_CONTROLLER_BUTTON_DPAD_RIGHT) != 0 { return 1 }
            let axis = sfsdl_GameControllerGetAxis(controller, SDL_CONTROLLER_AXIS_LEFTX)
            if axis < -Self.deadZone { return -1 }
            if axis > Self.deadZone { return 1 }
        }
        return 0
    }

    /// The left stick's vertical direction from any controller: -1 up, 0, 1 down.
    var vertical: Int {
        for controller in controllers {
            let axis = sfsdl_GameControllerGetAxis(controller, SDL_CONTROLLER_AXIS_LEFTY)
            if axis < -Self.deadZone { return -1 }
            if axis > Self.deadZone { return 1 }
        }
        return 0
    }

    /// Stick travel ignored around the centre (about 40 %), so a resting stick reads as still.
    private static let deadZone: Int16 = 13_000
}
