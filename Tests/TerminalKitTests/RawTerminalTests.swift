import Foundation
import Glibc
import Testing

@testable import TerminalKit

/// A pseudo-terminal pair: `follower` is the terminal a program sees, `leader` is the keyboard and
/// screen on the other side.
private struct PseudoTerminal {
    let leader: Int32
    let follower: Int32

    init() throws {
        // posix_openpt and friends are not in the Glibc module; their ioctls are (asm-generic numbers:
        // TIOCSPTLCK unlocks the follower, TIOCGPTN says its number under /dev/pts).
        leader = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(leader >= 0, "cannot open /dev/ptmx")
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(leader, 0x4004_5431, &unlock) == 0 && ioctl(leader, 0x8004_5430, &number) == 0)
        let name = "/dev/pts/\(number)"
        follower = open(name, O_RDWR | O_NOCTTY)
        try #require(follower >= 0, "cannot open \(name)")
    }

    func close() {
        Glibc.close(follower)
        Glibc.close(leader)
    }

    func settings() -> termios {
        var settings = termios()
        tcgetattr(follower, &settings)
        return settings
    }

    /// Types bytes as a keyboard would.
    func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(leader, $0.baseAddress, $0.count) }
    }

    /// What the program has written to the screen so far.
    func screen() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        var descriptor = pollfd(fd: leader, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 50) > 0 {
            let count = buffer.withUnsafeMutableBytes { read(leader, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

@Suite("Raw terminal")
struct RawTerminalTests {
    @Test("raw mode turns off echo, line editing and signal keys, and restore puts back every setting")
    func rawModeAndRestore() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let before = pty.settings()
        #expect(before.c_lflag & tcflag_t(ICANON | ECHO | ISIG) != 0, "a fresh terminal is cooked")
        let terminal = RawTerminal(input: pty.follower, output: pty.follower)
        try terminal.enterRawMode(fullScreen: true)
        #expect(terminal.isRaw)
        let raw = pty.settings()
        #expect(raw.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN) == 0)
        #expect(raw.c_iflag & tcflag_t(IXON | ICRNL) == 0)
        #expect(pty.screen().contains("\u{1B}[?1049h\u{1B}[?25l"), "alternate screen, cursor hidden")

        terminal.restore()
        terminal.restore()
        #expect(!terminal.isRaw)
        let after = pty.settings()
        #expect(after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag)
        #expect(after.c_oflag == before.c_oflag && after.c_cflag == before.c_cflag)
        #expect(
            withUnsafeBytes(of: after.c_cc) { Array($0) } == withUnsafeBytes(of: before.c_cc) { Array($0) })
        #expect(pty.screen().contains("\u{1B}[?25h\u{1B}[?1049l"), "cursor shown, main screen back")
    }

    @Test("keys typed arrive decoded, an arrow split after its Escape included")
    func readsKeys() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let terminal = RawTerminal(input: pty.follower, output: pty.follower)
        try terminal.enterRawMode(fullScreen: false)
        defer { terminal.restore() }
        #expect(terminal.read(timeout: 0) == .keys([]))
        pty.type([0x71, 0x03, 0x0D])
        #expect(terminal.read(timeout: 1_000) == .keys([.character("q"), .interrupt, .enter]))
        // The rest of the arrow (`[A`) comes 5 ms after its Escape, as over a slow link; a thread of
        // its own, so a busy test pool cannot hold it back past the 25 ms the terminal waits.
        pty.type([0x1B])
        Thread {
            usleep(5_000)
            pty.type([0x5B, 0x41])
        }.start()
        #expect(terminal.read(timeout: 1_000) == .keys([.up]))
    }

    @Test("a pipe is no terminal; its end reads as closed")
    func closedInput() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let terminal = RawTerminal(input: ends[0], output: ends[1])
        #expect(!RawTerminal.isTerminal(ends[0]))
        #expect(throws: TerminalError.notATerminal(descriptor: ends[0])) {
            try terminal.enterRawMode(fullScreen: false)
        }
        close(ends[1])
        #expect(terminal.read(timeout: 1_000) == .closed)
        #expect(terminal.readKeys(timeout: 0) == [])
    }
}
