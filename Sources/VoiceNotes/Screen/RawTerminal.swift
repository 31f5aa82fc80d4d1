import Glibc

/// A terminal switched to raw mode for key-at-a-time input, and back.
///
/// Raw mode turns off echo, line editing and the signal keys (Ctrl-C arrives as ``Key/interrupt``),
/// so a program must restore the saved settings before it exits; ``restore()`` does, and is safe to
/// call twice. Used by one thread at a time.
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
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Switches the input to raw mode and, for a full-screen view, to the alternate screen with the
    /// cursor hidden, so the shell's screen comes back untouched afterwards.
    /// - Parameter fullScreen: Also switch screens and hide the cursor.
    /// - Throws: ``VoiceNoteError/notATerminal`` when the input is not a terminal.
    public func enterRawMode(fullScreen: Bool) throws(VoiceNoteError) {
        guard saved == nil else { return }
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else { throw .notATerminal }
        saved = settings
        settings.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        settings.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        settings.c_cflag |= tcflag_t(CS8)
        // VMIN 0, VTIME 0: reads return at once; waiting is done with poll().
        withUnsafeMutableBytes(of: &settings.c_cc) { bytes in
            bytes[Int(VMIN)] = 0
            bytes[Int(VTIME)] = 0
        }
        tcsetattr(input, TCSAFLUSH, &settings)
        if fullScreen {
            usesAlternateScreen = true
            write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
        }
    }

    /// Puts back the terminal settings and screen saved by ``enterRawMode(fullScreen:)``.
    public func restore() {
        if usesAlternateScreen {
            write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
            usesAlternateScreen = false
        }
        guard var settings = saved else { return }
        tcsetattr(input, TCSAFLUSH, &settings)
        saved = nil
    }

    /// Writes text as it is, escape sequences included.
    /// - Parameter text: The bytes to send.
    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                Glibc.write(output, $0.baseAddress! + done, $0.count - done)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            done += count
        }
    }

    /// The terminal's size, or 80 x 24 when it cannot tell.
    public func size() -> (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Waits up to `milliseconds` for keys and returns those that arrived (often none).
    /// - Parameter milliseconds: The longest wait.
    public func readKeys(timeout milliseconds: Int) -> [Key] {
        guard waitForInput(milliseconds) else { return [] }
        var bytes = readAvailable()
        // A lone Escape may be the first byte of an arrow key whose rest is a moment behind.
        if bytes.last == 0x1B, waitForInput(25) { bytes += readAvailable() }
        return Key.decode(bytes)
    }

    private func waitForInput(_ milliseconds: Int) -> Bool {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, Int32(clamping: milliseconds)) > 0
            && descriptor.revents & Int16(POLLIN) != 0
    }

    private func readAvailable() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer[..<count]) : []
    }
}
