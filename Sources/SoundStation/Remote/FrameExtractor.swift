/// The player's side of ``RemoteFraming``: reads a terminal byte stream in whatever pieces it arrives,
/// passes every byte that is not part of a sound frame through unchanged, and hands out the frames'
/// messages.
///
/// A frame is found wherever it appears: split across reads, between two halves of the game's own
/// escape sequence (which is then whole again). Nothing of a frame is ever passed through, valid or
/// not: a frame that is malformed (a byte that base64 has not, a bad terminator, undecodable text), too
/// long (``Limits/maxEncodedPayload``) or over the rate (``Limits/messagesPerSecond``) is dropped and
/// counted in ``counts``; after a frame cut short by a byte no frame holds, the rest of that line (up to
/// the next ESC, CR or LF) goes with it, so bytes on either side cannot join into an introducer. Only
/// the introducer's first bytes at the end of a read are held back, until
/// the next read says whether a frame starts there (``flushHeld(into:)`` lets them go after a pause).
public struct FrameExtractor: Sendable {
    /// What the extractor accepts.
    public struct Limits: Sendable, Equatable {
        /// The longest base64 text of one frame.
        public var maxEncodedPayload: Int
        /// Messages accepted per second, on average.
        public var messagesPerSecond: Double
        /// Messages accepted at once after a quiet spell.
        public var burst: Double

        /// Limits for one session.
        /// - Parameters:
        ///   - maxEncodedPayload: The longest base64 text of one frame.
        ///   - messagesPerSecond: The sustained rate of messages.
        ///   - burst: How many may come at once.
        public init(
            maxEncodedPayload: Int = RemoteFraming.maxEncodedPayload, messagesPerSecond: Double = 2000,
            burst: Double = 4000
        ) {
            self.maxEncodedPayload = maxEncodedPayload
            self.messagesPerSecond = messagesPerSecond
            self.burst = burst
        }
    }

    /// What happened to the frames seen so far.
    public struct Counts: Sendable, Equatable {
        /// Frames whose message was handed out.
        public var accepted = 0
        /// Frames dropped for a byte base64 has not, a bad terminator, or text that does not decode.
        public var malformed = 0
        /// Frames dropped for being longer than the limit.
        public var oversized = 0
        /// Frames dropped for coming faster than the rate.
        public var rateLimited = 0
        /// Every dropped frame.
        public var dropped: Int { malformed + oversized + rateLimited }

        /// No frame seen yet.
        public init() {}
    }

    private enum State: Sendable {
        /// Passing bytes through; `matched` bytes of the introducer are held back.
        case text(matched: Int)
        /// Collecting a frame's base64 text.
        case payload
        /// Inside a frame, after an ESC.
        case payloadEscape
        /// Discarding the rest of a frame that grew too long (`escape`: the last byte was ESC).
        case skipping(escape: Bool)
        /// After a frame dropped at a byte no frame holds: discarding up to the next ESC or line end,
        /// so the bytes around the dropped frame cannot join into an introducer on the terminal.
        case discarding
    }

    /// The limits this extractor applies.
    public let limits: Limits
    /// Frames accepted and dropped so far.
    public private(set) var counts = Counts()
    private var state = State.text(matched: 0)
    /// The last bytes passed on (as many as an introducer has, less one), across reads.
    private var passedTail: [UInt8] = []
    /// How many bytes of the introducer being matched were passed on already (they came before a
    /// frame that was taken out), so a match that fails passes on only the bytes after them.
    private var alreadyPassed = 0
    private var payload: [UInt8] = []
    private var tokens: Double
    private var lastRefill: Double?

    /// A new extractor, outside any frame.
    /// - Parameter limits: Size and rate caps.
    public init(limits: Limits = Limits()) {
        self.limits = limits
        tokens = limits.burst
    }

    /// Whether bytes of a possible introducer are held back, waiting for the next read.
    public var holdsBytes: Bool {
        if case .text(let matched) = state { return matched > 0 }
        return false
    }

    /// Whether the extractor is inside a frame.
    public var inFrame: Bool {
        if case .text = state { return false }
        return true
    }

    /// Reads one piece of the stream.
    /// - Parameters:
    ///   - bytes: The next bytes, as read.
    ///   - now: Seconds on any steady clock, for the rate limit.
    ///   - text: Receives the bytes to pass on to the terminal.
    ///   - messages: Receives each accepted frame's message.
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer, now: Double, text: inout [UInt8], messages: inout [[UInt8]]
    ) {
        var index = 0
        let count = bytes.count
        let before = text.count
        defer { if text.count > before { passedTail = tail(text, from: before) } }
        while index < count {
            let byte = bytes[index]
            switch state {
            case .text(let matched):
                if matched == 0 {
                    // The common case: copy everything up to the next ESC in one go.
                    var end = index
                    while end < count, bytes[end] != 0x1B { end += 1 }
                    if end > index {
                        text.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
                        index = end
                        continue
                    }
                }
                if byte == RemoteFraming.introducer[matched] {
                    if matched + 1 == RemoteFraming.introducer.count {
                        alreadyPassed = 0
                        state = .payload
                        payload.removeAll(keepingCapacity: true)
                    } else {
                        state = .text(matched: matched + 1)
                    }
                    index += 1
                } else if matched > 0 {
                    // Not a frame after all: the held bytes were the stream's own; look at this
                    // byte again from the start (it may be an ESC that begins one).
                    text.append(contentsOf: RemoteFraming.introducer[alreadyPassed..<matched])
                    alreadyPassed = 0
                    state = .text(matched: 0)
                } else {
                    text.append(byte)
                    index += 1
                }
            case .payload:
                if RemoteFraming.isBase64(byte) {
                    if payload.count >= limits.maxEncodedPayload {
                        counts.oversized += 1
                        payload.removeAll(keepingCapacity: false)
                        state = .skipping(escape: false)
                    } else {
                        payload.append(byte)
                    }
                    index += 1
                } else if byte == 0x1B {
                    state = .payloadEscape
                    index += 1
                } else {
                    // A byte no frame holds: drop the frame and what follows it on its line.
                    counts.malformed += 1
                    state = .discarding
                }
            case .payloadEscape:
                if byte == 0x5C {
                    index += 1
                    state = afterFrame(tail(text, from: before))
                    finishFrame(now: now, messages: &messages)
                } else {
                    // An ESC that does not end the frame: drop the frame, and read the ESC (which may
                    // begin a new frame) and this byte as the stream's.
                    counts.malformed += 1
                    state = .text(matched: 1)
                }
            case .skipping(let escape):
                if escape {
                    // `ESC \` ends the long frame; any other byte after an ESC is the stream's again.
                    if byte == 0x5C {
                        state = afterFrame(tail(text, from: before))
                        index += 1
                    } else {
                        state = .text(matched: 1)
                    }
                } else if byte == 0x1B {
                    state = .skipping(escape: true)
                    index += 1
                } else if RemoteFraming.isBase64(byte) {
                    index += 1
                } else {
                    state = .discarding
                }
            case .discarding:
                if byte == 0x1B || byte == 0x0A || byte == 0x0D {
                    state = .text(matched: 0)
                } else {
                    index += 1
                }
            }
        }
    }

    /// ``feed(_:now:text:messages:)`` for an array.
    /// - Parameters:
    ///   - bytes: The next bytes, as read.
    ///   - now: Seconds on any steady clock, for the rate limit.
    ///   - text: Receives the bytes to pass on to the terminal.
    ///   - messages: Receives each accepted frame's message.
    public mutating func feed(_ bytes: [UInt8], now: Double, text: inout [UInt8], messages: inout [[UInt8]]) {
        bytes.withUnsafeBytes { feed($0, now: now, text: &text, messages: &messages) }
    }

    /// Lets go of introducer bytes held at the end of the last read (call it when the stream has
    /// paused, so a lone ESC the game wrote is not kept from the terminal); a frame in progress is kept.
    /// - Parameter text: Receives the held bytes.
    public mutating func flushHeld(into text: inout [UInt8]) {
        guard case .text(let matched) = state, matched > 0 else { return }
        let start = text.count
        text.append(contentsOf: RemoteFraming.introducer[alreadyPassed..<matched])
        alreadyPassed = 0
        state = .text(matched: 0)
        passedTail = tail(text, from: start)
    }

    /// The last bytes passed on: those of `text` from `start` on, after the earlier reads' tail.
    private func tail(_ text: [UInt8], from start: Int) -> [UInt8] {
        let keep = RemoteFraming.introducer.count - 1
        if text.count - start >= keep { return Array(text.suffix(keep)) }
        return Array((passedTail + text[start...]).suffix(keep))
    }

    /// The state after a frame was taken out: when the bytes passed on just before it end with the
    /// start of an introducer, the bytes after it are matched as its rest, so the two cannot join
    /// into one on the terminal.
    private mutating func afterFrame(_ tail: [UInt8]) -> State {
        var length = min(tail.count, RemoteFraming.introducer.count - 1)
        while length > 0, Array(tail.suffix(length)) != Array(RemoteFraming.introducer[0..<length]) {
            length -= 1
        }
        alreadyPassed = length
        return .text(matched: length)
    }

    private mutating func finishFrame(now: Double, messages: inout [[UInt8]]) {
        defer { payload.removeAll(keepingCapacity: payload.count <= 4096) }
        guard let data = Base64.decode(payload) else {
            counts.malformed += 1
            return
        }
        if let last = lastRefill {
            tokens = min(limits.burst, tokens + max(0, now - last) * limits.messagesPerSecond)
        }
        lastRefill = now
        guard tokens >= 1 else {
            counts.rateLimited += 1
            return
        }
        tokens -= 1
        counts.accepted += 1
        messages.append(data)
    }
}
