import CSDL2
import StarfallCore

/// Keyboard and game-controller events turned into one ``Input`` per tick.
struct WindowControls {
    /// True once the window was closed.
    private(set) var closed = false
    private var leftHeld = false
    private var rightHeld = false
    private var stickVertical = 0
    private var presses = Input.none

    /// Takes one SDL event into account.
    mutating func handle(_ event: SDL_Event, controllers: SDLControllers) {
        switch event.type {
        case SDL_QUIT.rawValue:
            closed = true
        case SDL_KEYDOWN.rawValue, SDL_KEYUP.rawValue:
            key(
                event.key.keysym.sym, down: event.type == SDL_KEYDOWN.rawValue,
                repeated: event.key.repeat != 0)
        case SDL_CONTROLLERBUTTONDOWN.rawValue:
            button(SDL_GameControllerButton(Int32(event.cbutton.button)))
        case SDL_CONTROLLERDEVICEADDED.rawValue:
            controllers.add(index: event.cdevice.which)
        case SDL_CONTROLLERDEVICEREMOVED.rawValue:
            controllers.removeDetached()
        default:
            break
        }
    }

    /// The input for the next tick: held directions as they are now, presses since the last tick.
    mutating func nextInput(controllers: SDLControllers) -> Input {
        var input = presses
        presses = .none
        let keyboard = (rightHeld ? 1 : 0) - (leftHeld ? 1 : 0)
        input.horizontal = keyboard != 0 ? keyboard : controllers.horizontal
        // The stick moves the menu cursor once per push, like a d-pad press.
        let vertical = controllers.vertical
        if vertical != stickVertical {
            if vertical < 0 { input.up = true }
            if vertical > 0 { input.down = true }
            stickVertical = vertical
        }
        return input
    }

    private mutating func key(_ symbol: SDL_Keycode, down: Bool, repeated: Bool) {
        func matches(_ codes: SDL_KeyCode...) -> Bool {
            codes.contains { SDL_Keycode(bitPattern: $0.rawValue) == symbol }
        }
        if matches(SDLK_LEFT, SDLK_a) { leftHeld = down }
        if matches(SDLK_RIGHT, SDLK_d) { rightHeld = down }
        guard down else { return }
        // Auto-repeat may move the menu cursor, but never selects, pauses or quits twice.
        if matches(SDLK_UP, SDLK_w) { presses.up = true }
        if matches(SDLK_DOWN, SDLK_s) { presses.down = true }
        guard !repeated else { return }
        if matches(SDLK_SPACE, SDLK_RETURN, SDLK_KP_ENTER) { presses.select = true }
        if matches(SDLK_p) { presses.pause = true }
        if matches(SDLK_ESCAPE, SDLK_q) { presses.back = true }
    }

    private mutating func button(_ button: SDL_GameControllerButton) {
        switch button {
        case SDL_CONTROLLER_BUTTON_A: presses.select = true
        case SDL_CONTROLLER_BUTTON_B, SDL_CONTROLLER_BUTTON_BACK: presses.back = true
        case SDL_CONTROLLER_BUTTON_START:
            // Start chooses in the menu and pauses in a game; each scene ignores the other meaning.
            presses.select = true
            presses.pause = true
        case SDL_CONTROLLER_BUTTON_DPAD_UP: presses.up = true
        case SDL_CONTROLLER_BUTTON_DPAD_DOWN: presses.down = true
        default: break
        }
    }
}
