import CSDL2
import SoundStation
import StarfallCore

/// The game in an SDL2 window: keyboard and game controllers, a 60 Hz simulation stepped by the
/// clock, drawn once per frame and paced to the ticks (vsync when the renderer really has it,
/// otherwise by sleeping, as under SDL's dummy driver and Xvfb).
@MainActor
enum WindowFrontEnd {
    private static let tickLength = Duration.seconds(1) / 60

    /// Runs until the player quits or `--frames` have been drawn.
    /// - Returns: The exit status.
    static func run(
        options: Options, seed: UInt64, sound: GameSound, notices: NoticeBoard, screens: ExternalScreens
    ) async -> Int32 {
        let system: SDLSystem
        let canvas: SDLCanvas
        do {
            system = try SDLSystem()
            canvas = try SDLCanvas(
                title: "Starfall", width: WindowPainter.width, height: WindowPainter.height)
        } catch {
            sound.system.engine.shutdown()
            Console.report(error.description)
            return 1
        }
        let controllers = SDLControllers()
        let painter = WindowPainter(canvas: canvas)
        var controls = WindowControls()
        let loaded = await sound.preload(notices: notices) { progress in
            pumpEvents(into: &controls, controllers: controllers)
            painter.drawLoading(progress)
            canvas.present()
        }
        let session = PlaySession(
            seed: seed, bot: options.bot, autostart: options.autostart, sound: sound, screens: screens)
        var status: Int32 = 0
        if !controls.closed {
            status = loop(
                session, painter: painter, controls: &controls, controllers: controllers, notices: notices,
                options: options)
        }
        loaded?.unload()
        sound.system.engine.shutdown()
        // SDL objects go before SDL itself.
        controllers.close()
        canvas.close()
        system.close()
        return status
    }

    private static func loop(
        _ session: PlaySession, painter: WindowPainter, controls: inout WindowControls,
        controllers: SDLControllers, notices: NoticeBoard, options: Options
    ) -> Int32 {
        let clock = ContinuousClock()
        var nextTick = clock.now
        var frames = 0
        while true {
            pumpEvents(into: &controls, controllers: controllers)
            if controls.closed { return 0 }
            while clock.now >= nextTick {
                switch session.tick(controls.nextInput(controllers: controllers)) {
                case .keepGoing: break
                case .quit: return 0
                case .voiceNotes:
                    // The window stays as it is; its events wait in SDL's queue meanwhile.
                    session.openVoiceNotes(suspend: {}, resume: {})
                    nextTick = clock.now
                }
                nextTick += tickLength
                if clock.now - nextTick > .milliseconds(250) { nextTick = clock.now }
            }
            painter.draw(session.game, pulse: session.pulse, notice: notices.latest)
            frames += 1
            if let limit = options.frames, frames >= limit {
                return finish(painter.canvas, screenshot: options.screenshot)
            }
            painter.canvas.present()
            // Sleep out the rest of the tick whatever the renderer claims: SDL's dummy and software
            // renderers report vsync without waiting for it, and a real vsync leaves nothing to wait.
            let wait = nextTick - clock.now
            if wait > .zero {
                // Rounded up, so the next pass finds the tick due instead of drawing it twice.
                sfsdl_Delay(
                    UInt32((wait.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
            }
        }
    }

    /// The last frame: saved when asked for, then shown.
    private static func finish(_ canvas: SDLCanvas, screenshot: String?) -> Int32 {
        defer { canvas.present() }
        guard let screenshot else { return 0 }
        do {
            try canvas.saveScreenshot(to: screenshot)
        } catch {
            Console.report(error.description)
            return 1
        }
        return 0
    }

    private static func pumpEvents(into controls: inout WindowControls, controllers: SDLControllers) {
        var event = SDL_Event()
        while sfsdl_PollEvent(&event) != 0 { controls.handle(event, controllers: controllers) }
    }
}
