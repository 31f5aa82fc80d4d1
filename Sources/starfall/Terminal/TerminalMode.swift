import Glibc

/// The controlling terminal switched to what a game needs (alternate screen, hidden cursor, keys
/// delivered one by one without echo) and switched back exactly as it was found.
final class TerminalMode {
    private let saved: termios
    private var active = false

    /// Reads the terminal's current settings so ``restore()`` can put them back.
    /// - Throws: ``StartupError/terminal(_:)`` when stdin or stdout is not a terminal.
    init() throws(StartupError) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw .terminal("stdin and stdout must both be a terminal")
        }
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else {
            throw .terminal("tcgetattr failed: \(String(cString: strerror(errno)))")
        }
        saved = settings
    }

    deinit {
        restore()
    }

    /// The terminal's size in columns and rows (80 by 24 when it will not say).
    var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0
        else {
            return (80, 24)
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Raw input and the alternate screen, cursor hidden.
    /// - Throws: ``StartupError/terminal(_:)`` when the settings cannot be applied.
    func enter() throws(StartupError) {
        var raw = saved
        // No echo, no line editing, no signals from keys (Ctrl-C arrives as a byte and the game
        // shuts down in order), no flow control or CR translation; output processing stays.
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            // Reads return at once with whatever is there: the loop polls, so it never blocks.
            characters[Int(VMIN)] = 0
            characters[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else {
            throw .terminal("tcsetattr failed: \(String(cString: strerror(errno)))")
        }
        active = true
        Self.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// Back to the main screen with the cursor shown and the saved settings; keys typed meanwhile are
    /// dropped so they do not reach the shell. Safe to call more than once.
    func restore() {
        guard active else { return }
        active = false
        Self.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        var settings = saved
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
    }

    /// Writes all of `text` to stdout, however the kernel splits it.
    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(STDOUT_FILENO, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            offset += written
        }
    }
}
