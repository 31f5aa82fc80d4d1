import CSDL2

/// An SDL window and its renderer, drawn in logical pixels whatever the window's real size.
final class SDLCanvas {
    /// An opaque colour.
    struct Color {
        var red: UInt8
        var green: UInt8
        var blue: UInt8
        var alpha: UInt8 = 255
    }

    /// Logical width in pixels.
    let width: Int32
    /// Logical height in pixels.
    let height: Int32
    private var window: OpaquePointer?
    private var renderer: OpaquePointer?

    /// Opens a resizable window with an accelerated, vsynced renderer, or a software one when the
    /// machine has no acceleration (SDL's dummy driver, Xvfb).
    /// - Throws: ``StartupError/window(_:)`` with SDL's reason.
    init(title: String, width: Int32, height: Int32) throws(StartupError) {
        self.width = width
        self.height = height
        let centred = Int32(bitPattern: SDL_WINDOWPOS_CENTERED_MASK)
        guard
            let window = sfsdl_CreateWindow(
                title, centred, centred, width, height,
                SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_SHOWN.rawValue)
        else {
            throw .window("SDL_CreateWindow: \(SDLSystem.lastError)")
        }
        self.window = window
        let accelerated = SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue
        guard
            let renderer = sfsdl_CreateRenderer(window, -1, accelerated)
                ?? sfsdl_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
        else {
            sfsdl_DestroyWindow(window)
            self.window = nil
            throw .window("SDL_CreateRenderer: \(SDLSystem.lastError)")
        }
        self.renderer = renderer
        sfsdl_RenderSetLogicalSize(renderer, width, height)
        sfsdl_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    }

    deinit {
        close()
    }

    /// Destroys the renderer and the window (before `SDL_Quit`).
    func close() {
        if let renderer { sfsdl_DestroyRenderer(renderer) }
        if let window { sfsdl_DestroyWindow(window) }
        renderer = nil
        window = nil
    }

    /// Fills the whole window.
    func clear(_ color: Color) {
        guard let renderer else { return }
        sfsdl_SetRenderDrawColor(renderer, color.red, color.green, color.blue, color.alpha)
        sfsdl_RenderClear(renderer)
    }

    /// Fills a rectangle given in logical pixels.
    func fill(x: Int, y: Int, width: Int, height: Int, _ color: Color) {
        guard let renderer, width > 0, height > 0 else { return }
        sfsdl_SetRenderDrawColor(renderer, color.red, color.green, color.blue, color.alpha)
        var rect = SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height))
        sfsdl_RenderFillRect(renderer, &rect)
    }

    /// Shows what was drawn.
    func present() {
        guard let renderer else { return }
        sfsdl_RenderPresent(renderer)
    }

    /// Saves what has been drawn since the last ``present()`` as a BMP file.
    /// - Throws: ``StartupError/window(_:)`` naming the file when it cannot be read back or written.
    func saveScreenshot(to path: String) throws(StartupError) {
        guard let renderer else { throw .window("the window is closed; no screenshot for \(path)") }
        var outputWidth: Int32 = 0
        var outputHeight: Int32 = 0
        sfsdl_GetRendererOutputSize(renderer, &outputWidth, &outputHeight)
        let format = SDL_PIXELFORMAT_ARGB8888.rawValue
        guard let surface = sfsdl_CreateRGBSurfaceWithFormat(0, outputWidth, outputHeight, 32, format) else {
            throw .window("SDL_CreateRGBSurfaceWithFormat: \(SDLSystem.lastError)")
        }
        defer { sfsdl_FreeSurface(surface) }
        guard
            sfsdl_RenderReadPixels(renderer, nil, format, surface.pointee.pixels, surface.pointee.pitch) == 0
        else {
            throw .window("SDL_RenderReadPixels: \(SDLSystem.lastError)")
        }
        guard sfsdl_SaveBMP_RW(surface, sfsdl_RWFromFile(path, "wb"), 1) == 0 else {
            throw .window("cannot write the screenshot \(path): \(SDLSystem.lastError)")
        }
    }
}
