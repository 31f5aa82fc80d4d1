import Glibc
import SoundStation
import StarfallCore
import TerminalKit

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
        guard RawTerminal.isTerminal(STDIN_FILENO), RawTerminal.isTerminal(STDOUT_FILENO) else {
            sound.system.engine.shutdown()
            return fail(.terminal("stdin and stdout must both be a terminal"))
        }
        let terminal = RawTerminal()
        let trap = SignalTrap()
        notices.hold()
        do {
            try terminal.enterRawMode(fullScreen: true)
        } catch {
            trap.release(reraise: false)
            notices.release()
            sound.system.engine.shutdown()
            return fail(.terminal(error.description))
        }
        let loaded = await sound.preload(notices: notices) { progress in
            let size = terminal.size()
            var canvas = TextCanvas(width: size.columns, height: size.rows)
            TerminalPainter.drawLoading(progress, into: &canvas)
            terminal.write(canvas.ansi)
        }
        let session = PlaySession(
            seed: seed, bot: options.bot, autostart: options.autostart, sound: sound, screens: screens)
        let ending = loop(
            session, terminal: terminal, trap: trap, notices: notices, tickLimit: options.frames)
        loaded?.unload()
        sound.system.engine.shutdown()
        terminal.restore()
        notices.release()
        trap.release(reraise: false)
        switch ending {
        case .quit: return 0
        // Ctrl-C read as a key is no signal: the status a shell shows for it (130), and the shell's
        // command list goes on, as it would after a program that handles Ctrl-C itself.
        case .interruptKey: return 128 + SIGINT
        case .signal(let signal): SignalTrap.terminate(by: signal)
        }
    }

    /// How the game loop ended.
    private enum Ending {
        /// The player quit from the menu, or the tick limit was reached.
        case quit
        /// Ctrl-C arrived as a key (raw mode turns it into a byte).
        case interruptKey
        /// A termination signal was caught, or the terminal hung up (SIGHUP).
        case signal(Int32)
    }

    /// The game loop; returns what ended it.
    private static func loop(
        _ session: PlaySession, terminal: RawTerminal, trap: SignalTrap, notices: NoticeBoard, tickLimit: Int?
    )
        -> Ending
    {
        let clock = ContinuousClock()
        var nextTick = clock.now
        var ticks = 0
        var controls = TerminalControls()
        func draw() {
            let size = terminal.size()
            var canvas = TextCanvas(width: size.columns, height: size.rows)
            TerminalPainter.draw(session.game, pulse: session.pulse, notice: notices.latest, into: &canvas)
            terminal.write(canvas.ansi)
        }
        while true {
            if let signal = trap.caught { return .signal(signal) }
            switch terminal.read(timeout: milliseconds(until: nextTick, clock: clock)) {
            case .closed: return .signal(SIGHUP)
            case .keys(let keys):
                if keys.contains(.interrupt) { return .interruptKey }
                for key in keys { controls.add(key) }
            }
            var stepped = false
            while clock.now >= nextTick {
                switch session.tick(controls.nextInput()) {
                case .keepGoing: break
                case .quit: return .quit
                case .voiceNotes:
                    session.openVoiceNotes(
                        suspend: {
                            terminal.restore()
                            notices.release()
                        },
                        resume: {
                            notices.hold()
                            try? terminal.enterRawMode(fullScreen: true)
                        })
                    nextTick = clock.now
                }
                ticks += 1
                stepped = true
                nextTick += tickLength
                if let tickLimit, ticks >= tickLimit {
                    // The last tick's screen, whichever ticks a late loop caught up on together (only
                    // even ones are drawn on the way): a scripted run always ends on the same screen.
                    draw()
                    return .quit
                }
                // After a stall (a suspended process, a slow terminal) catch up once, not tick by tick.
                if clock.now - nextTick > .milliseconds(250) { nextTick = clock.now }
            }
            if stepped, ticks % 2 == 0 { draw() }
        }
    }

    /// Whole milliseconds from now until `deadline`, 0 when it has passed.
    private static func milliseconds(until deadline: ContinuousClock.Instant, clock: ContinuousClock) -> Int {
        let wait = deadline - clock.now
        return max(
            0, Int(wait.components.seconds * 1_000 + wait.components.attoseconds / 1_000_000_000_000_000))
    }

    private static func fail(_ error: StartupError) -> Int32 {
        Console.report(error.description)
        return 1
    }
}
