/// How sound messages travel inside a terminal's byte stream: each one an APC escape,
/// `ESC _ S S 1 ;` + base64 + `ESC \`, written with one `write` so no other writer's bytes can land
/// inside it (the kernel's tty layer holds its write lock for a whole `write`).
///
/// Base64 keeps every byte of the frame printable ASCII, so the server's line discipline (`\n` to
/// `\r\n`) and the terminal's never change it, and its terminator cannot occur inside. A terminal that
/// is handed a frame anyway ignores it (APC strings are discarded by xterm, VTE, tmux and kitty), but
/// the server writes frames only when the player's `soundstation ssh` has announced itself, and the
/// player's side removes every one (``FrameExtractor``).
public enum RemoteFraming {
    /// `ESC _ S S 1 ;`: the APC introducer and the protocol's tag.
    public static let introducer: [UInt8] = [0x1B, 0x5F, 0x53, 0x53, 0x31, 0x3B]
    /// `ESC \`: the string terminator.
    public static let terminator: [UInt8] = [0x1B, 0x5C]
    /// The longest base64 text one frame may carry (48 KiB of message).
    public static let maxEncodedPayload = 65_536
    /// The longest message one frame may carry.
    public static let maxPayload = maxEncodedPayload / 4 * 3

    /// One message as a frame, ready for a single `write`.
    /// - Parameter payload: The message's bytes, at most ``maxPayload``.
    /// - Returns: The frame, or `nil` for a payload too long for one.
    public static func frame(_ payload: [UInt8]) -> [UInt8]? {
        guard payload.count <= maxPayload else { return nil }
        var frame = introducer
        frame += Base64.encode(payload)
        frame += terminator
        return frame
    }

    /// Whether `byte` may appear in a frame's base64 text.
    @inline(__always)
    static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            true
        default: false
        }
    }
}
