import Glibc

/// A terminal switched to raw mode for key-at-a-time input, and back exactly as it was.
///
/// Raw mode turns off echo, line editing, flow control and the signal keys (Ctrl-C arrives as
/// ``Key/interrupt`` instead of SIGINT), so a program must put the saved settings back before it
/// exits; ``restore()`` does, is safe to call more than once, and runs on `deinit`. Pair it with a
/// ``SignalTrap`` so SIGTERM and SIGHUP restore the terminal too:
///
/// ```swift
/// let terminal = RawTerminal()
/// let trap = SignalTrap()
/// try terminal.enterRawMode(fullScreen: true)
/// while trap.caught == nil {
///     let keys = terminal.readKeys(timeout: 100)
///     if keys.contains(.escape) || keys.contains(.interrupt) { break }
/// }
/// terminal.restore()
/// trap.release(reraise: true)
/// ```
///
/// Used by one thread at a time.
public final class RawTerminal {
    /// The file descriptor keys are read from.
    public let input: Int32
    /// The file descriptor the screen is drawn on.
    public let output: Int32
    private var saved: termios?
    private var usesAlternateScreen = false

    /// Wraps a terminal without changing it yet.
    /// - Parameters:
    ///   - input: Where keys come from; standard input by default.
    ///   - output: Where text goes; standard output by default.
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    deinit { restore() }

    /// Whether a file descriptor is a terminal.
    /// - Parameter descriptor: E.g. `STDIN_FILENO`.
    /// - Returns: `true` for a terminal, `false` for a pipe, a file or a closed descriptor.
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Whether raw mode is on (between ``enterRawMode(fullScreen:)`` and ``restore()``).
    public var isRaw: Bool { saved != nil }

    /// Switches the input to raw mode and, for a full-screen view, to the alternate screen with the
    /// cursor hidden, so the shell's screen comes back untouched afterwards. Reads return at once with
    /// whatever is there (VMIN 0, VTIME 0); ``readKeys(timeout:)`` waits with `poll`. Calling it again
    /// while raw does nothing; after ``restore()`` it saves the settings afresh.
    /// - Parameter fullScreen: Also switch to the alternate screen and hide the cursor.
    /// - Throws: ``TerminalError/notATerminal(descriptor:)`` when the input is not a terminal, or
    ///   ``TerminalError/settingsFailed(call:reason:)`` when the settings cannot be applied.
    public func enterRawMode(fullScreen: Bool) throws(TerminalError) {
        guard saved == nil else { return }
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else {
            throw errno == ENOTTY || errno == EBADF ? .notATerminal(descriptor: input) : .failed("tcgetattr")
        }
        let original = settings
        // No echo, no line editing, no signals from keys (Ctrl-C arrives as a byte, so the program
        // shuts down in order), no flow control or CR translation; output processing stays.
        settings.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        settings.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        settings.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &settings.c_cc) { bytes in
            bytes[Int(VMIN)] = 0
            bytes[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &settings) == 0 else { throw .failed("tcsetattr") }
        saved = original
        if fullScreen {
            usesAlternateScreen = true
            write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
        }
    }

    /// Puts back the screen and the terminal settings saved by ``enterRawMode(fullScreen:)``; keys
    /// typed meanwhile are dropped so they do not reach the shell. Safe to call more than once.
    public func restore() {
        if usesAlternateScreen {
            write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
            usesAlternateScreen = false
        }
        guard var settings = saved else { return }
        tcsetattr(input, TCSAFLUSH, &settings)
        saved = nil
    }

    /// Writes all of `text` as it is, escape sequences included, however the kernel splits it.
    /// - Parameter text: The bytes to send.
    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.write(output, buffer.baseAddress.map { $0 + done }, buffer.count - done)
            }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return }
            done += count
        }
    }

    /// The terminal's size, or 80 x 24 when it cannot tell.
    /// - Returns: Columns and rows of the output terminal.
    public func size() -> (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// What one wait for input found.
    public enum Input: Equatable, Sendable {
        /// The keys that arrived (often none: the wait timed out or the bytes were no keys).
        case keys([Key])
        /// The terminal hung up or the input reached its end: no key will ever come.
        case closed
    }

    /// Waits up to `milliseconds` for input and decodes what arrived, telling a hang-up apart.
    ///
    /// A lone Escape may be the first byte of an arrow key whose rest is a moment behind, so a read
    /// that ends in Escape waits up to 25 ms more for the rest.
    /// - Parameter milliseconds: The longest wait; 0 only looks.
    /// - Returns: The keys, or ``Input/closed`` when the input has hung up.
    public func read(timeout milliseconds: Int) -> Input {
        switch waitForInput(milliseconds) {
        case .nothing: return .keys([])
        case .closed: return .closed
        case .ready: break
        }
        guard var bytes = readAvailable() else { return .closed }
        if bytes.last == 0x1B, waitForInput(25) == .ready { bytes += readAvailable() ?? [] }
        return .keys(Key.decode(bytes))
    }

    /// Waits up to `milliseconds` for keys and returns those that arrived (often none); a hang-up
    /// reads as no keys (use ``read(timeout:)`` to tell it apart).
    /// - Parameter milliseconds: The longest wait.
    /// - Returns: The keys in the order they were typed.
    public func readKeys(timeout milliseconds: Int) -> [Key] {
        guard case .keys(let keys) = read(timeout: milliseconds) else { return [] }
        return keys
    }

    private enum Readiness { case nothing, ready, closed }

    private func waitForInput(_ milliseconds: Int) -> Readiness {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(clamping: max(0, milliseconds))) > 0 else { return .nothing }
        return descriptor.revents & Int16(POLLIN) != 0 ? .ready : .closed
    }

    /// The bytes waiting, `[]` when there were none after all, or nil at end of input.
    private func readAvailable() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
        if count == 0 { return nil }
        return count > 0 ? Array(buffer[..<count]) : []
    }
}
