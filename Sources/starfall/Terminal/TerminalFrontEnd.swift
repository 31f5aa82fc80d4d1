import Glibc
import SoundStation
import StarfallCore

/// The game in a terminal: ANSI drawing at 30 frames per second over a 60 Hz simulation, keys read
/// raw without blocking, and the terminal restored on every way out (quit, Ctrl-C, SIGTERM, SIGHUP).
@MainActor
enum TerminalFrontEnd {
    private static let tickLength = Duration.seconds(1) / 60

    /// Runs until the player quits; the game's sound is shut down before it returns.
    /// - Returns: The exit status (a signal ends the process by that signal instead).
    static func run(
        options: Options, seed: UInt64, sound: GameSound, notices: NoticeBoard, screens: ExternalScreens
    ) async -> Int32 {
        let mode: TerminalMode
        do {
            mode = try TerminalMode()
            SignalTrap.install()
            notices.hold()
            try mode.enter()
        } catch {
            notices.release()
            sound.system.engine.shutdown()
            return fail(error)
        }
        let loaded = await sound.preload(notices: notices) { progress in
            var canvas = TextCanvas(width: mode.size.columns, height: mode.size.rows)
            TerminalPainter.drawLoading(progress, into: &canvas)
            TerminalMode.write(canvas.ansi)
        }
        let session = PlaySession(
            seed: seed, bot: options.bot, autostart: options.autostart, sound: sound, screens: screens)
        let signal = loop(session, mode: mode, notices: notices, tickLimit: options.frames)
        loaded?.unload()
        sound.system.engine.shutdown()
        mode.restore()
        notices.release()
        if let signal { SignalTrap.reraise(signal) }
        return 0
    }

    /// The game loop; returns the signal that ended it, or nil for a normal quit.
    private static func loop(
        _ session: PlaySession, mode: TerminalMode, notices: NoticeBoard, tickLimit: Int?
    )
        -> Int32?
    {
        let clock = ContinuousClock()
        var nextTick = clock.now
        var ticks = 0
        var controls = TerminalControls()
        while true {
            if let signal = SignalTrap.pending { return signal }
            switch readKeys(until: nextTick, clock: clock) {
            case .closed: return SIGHUP
            case .keys(let keys):
                if keys.contains(.interrupt) { return SIGINT }
                for key in keys { controls.add(key) }
            }
            var stepped = false
            while clock.now >= nextTick {
                switch session.tick(controls.nextInput()) {
                case .keepGoing: break
                case .quit: return nil
                case .voiceNotes:
                    session.openVoiceNotes(
                        suspend: {
                            mode.restore()
                            notices.release()
                        },
                        resume: {
                            notices.hold()
                            try? mode.enter()
                        })
                    nextTick = clock.now
                }
                ticks += 1
                stepped = true
                nextTick += tickLength
                if let tickLimit, ticks >= tickLimit { return nil }
                // After a stall (a suspended process, a slow terminal) catch up once, not tick by tick.
                if clock.now - nextTick > .milliseconds(250) { nextTick = clock.now }
            }
            if stepped, ticks % 2 == 0 {
                var canvas = TextCanvas(width: mode.size.columns, height: mode.size.rows)
                TerminalPainter.draw(session.game, notice: notices.latest, into: &canvas)
                TerminalMode.write(canvas.ansi)
            }
        }
    }

    private enum Reading {
        case keys([Key])
        case closed
    }

    /// Waits for keys until `deadline` at most, and returns those that arrived.
    private static func readKeys(until deadline: ContinuousClock.Instant, clock: ContinuousClock) -> Reading {
        let wait = deadline - clock.now
        let milliseconds = max(
            0, Int32(wait.components.seconds * 1_000 + wait.components.attoseconds / 1_000_000_000_000_000))
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, milliseconds)
        guard ready > 0 else { return .keys([]) }
        if descriptor.revents & Int16(POLLIN) == 0 { return .closed }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        guard count > 0 else { return count == 0 ? .closed : .keys([]) }
        return .keys(KeyDecoder.decode(Array(buffer[0..<count])))
    }

    private static func fail(_ error: StartupError) -> Int32 {
        Console.report(error.description)
        return 1
    }
}
