import CommandLineKit
import Glibc
import SoundStation

/// A program run under a pseudo-terminal of our own, with our terminal in raw mode meanwhile: keys go
/// to it as they are, window size changes follow ours, and what it writes passes through a filter.
final class PTYSession {
    let master: Int32
    let child: pid_t
    private var saved: termios?

    /// Starts `program` (found on PATH) with `arguments`, its environment ours plus `environment`.
    init(program: String, arguments: [String], environment: [String: String]) throws {
        var size = winsize()
        let hasSize = ioctl(STDIN_FILENO, UInt(TIOCGWINSZ), &size) == 0
        var mode = termios()
        let isTerminal = tcgetattr(STDIN_FILENO, &mode) == 0
        var master: Int32 = -1
        var slave: Int32 = -1
        var name = [CChar](repeating: 0, count: 256)
        let opened = withUnsafePointer(to: mode) { modePointer in
            withUnsafePointer(to: size) { sizePointer in
                openpty(&master, &slave, &name, isTerminal ? modePointer : nil, hasSize ? sizePointer : nil)
            }
        }
        guard opened == 0 else {
            throw CLIError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // A new session whose controlling terminal is the pseudo-terminal (opened after setsid).
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGWINCH, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        // POSIX_SPAWN_SETSID (0x80), POSIX_SPAWN_SETSIGDEF, POSIX_SPAWN_SETSIGMASK.
        posix_spawnattr_setflags(&attributes, Int16(0x80 | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var variables = ProcessEnvironment.variables
        for (key, value) in environment { variables[key] = value }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        // Started from a real-time thread where the machine grants it, so ssh inherits the class: the
        // game's sound comes through it, and in the normal class beside two busy loops on 2 cores it
        // waited up to 340 ms for a core, four times the player's jitter buffer.
        let (spawned, _) = PosixThread.withRealTime(priority: PosixThread.soundPriority) {
            posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        }
        close(slave)
        guard spawned == 0 else {
            close(master)
            throw CLIError("cannot run \(program): \(String(cString: strerror(spawned)))")
        }
        self.master = master
        child = pid
        if isTerminal {
            saved = mode
            var raw = mode
            cfmakeraw(&raw)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        }
    }

    /// Copies keys in and output out (through `filter`) until the program ends.
    /// - Parameter filter: Given each read (`nil`: the stream paused) and a steady time in seconds,
    ///   appends what to show; returns whether it holds bytes back (then it is called again soon).
    /// - Returns: The program's exit status (128 + the signal that ended it).
    func run(filter: (UnsafeRawBufferPointer?, Double, inout [UInt8]) -> Bool) -> Int32 {
        // SIGWINCH only wakes the poll (its handler does nothing); the size is compared each round.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        sigaction(SIGWINCH, &action, nil)
        let trap = SignalCatcher()
        var lastSize = winsize()
        _ = ioctl(STDIN_FILENO, UInt(TIOCGWINSZ), &lastSize)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var text: [UInt8] = []
        text.reserveCapacity(65_536)
        var inputOpen = true
        var holding = false
        let start = ContinuousClock.now
        func now() -> Double { (ContinuousClock.now - start).inSeconds }
        loop: while true {
            if trap.caught { kill(child, SIGHUP) }
            var size = winsize()
            if ioctl(STDIN_FILENO, UInt(TIOCGWINSZ), &size) == 0,
                size.ws_row != lastSize.ws_row || size.ws_col != lastSize.ws_col
            {
                lastSize = size
                _ = ioctl(master, UInt(TIOCSWINSZ), &size)
            }
            var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
            if inputOpen { fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), holding ? 30 : 250)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0 {
                if holding {
                    text.removeAll(keepingCapacity: true)
                    holding = filter(nil, now(), &text)
                    writeAll(STDOUT_FILENO, text)
                }
                continue
            }
            if fds[0].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                if count <= 0 { break loop }
                text.removeAll(keepingCapacity: true)
                holding = buffer.withUnsafeBytes {
                    filter(UnsafeRawBufferPointer(rebasing: $0[0..<count]), now(), &text)
                }
                writeAll(STDOUT_FILENO, text)
            }
            if inputOpen, fds.count > 1, fds[1].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                if count <= 0 {
                    inputOpen = false
                } else {
                    buffer.withUnsafeBytes { writeAll(master, Array($0[0..<count])) }
                }
            }
        }
        text.removeAll()
        _ = filter(nil, now(), &text)
        writeAll(STDOUT_FILENO, text)
        restore()
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        close(master)
        // WIFEXITED / WEXITSTATUS / WTERMSIG by hand: Glibc's macros do not import.
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    func restore() {
        if var saved {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            self.saved = nil
        }
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let count = write(fd, raw.baseAddress! + done, raw.count - done)
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                done += count
            }
        }
    }
}

/// Notes SIGTERM and SIGHUP (the player's terminal closing) so the session ends cleanly: the
/// terminal is restored and ssh is told to hang up.
final class SignalCatcher {
    nonisolated(unsafe) static var flag: sig_atomic_t = 0

    init() {
        for number in [SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in SignalCatcher.flag = 1 }
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    var caught: Bool { Self.flag != 0 }
}
