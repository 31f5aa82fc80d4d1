import CSoundTouch

/// Time-stretches and pitch-shifts the voices of one sound together through one SoundTouch
/// instance: a layered track and its stems are the channels of one multichannel signal, so
/// SoundTouch's overlap-add cuts them at the same frames and they stay aligned to the sample (each
/// stem stretched on its own would be cut where its own waveform fits best, a different place for
/// each).
///
/// Each member voice reads its share through a ``StretchedBlocks`` on the filtered path
/// (``FilteredFeeder``). The speed glides linearly from one value to another over a number of output
/// frames, updated every ``step`` input frames, so a change is heard without a click.
///
/// `@unchecked Sendable`: touched only by the mixer, which runs on one thread at a time.
final class StretchGroup: @unchecked Sendable {
    /// Input frames given to SoundTouch at a time: the speed is set again before each.
    static let step = 256
    /// The slowest and fastest speeds.
    static let speedRange = 0.5...2.0
    /// The pitch shift allowed, in semitones (two octaves either way).
    static let semitoneRange = -24.0...24.0

    private let handle: HANDLE
    /// The members' inputs, each set once its voice begins (or is moved onto this path).
    private var inputs: [(any PCMBlocks)?]
    /// Each member's channels, known once every input is there.
    private var channels: [Int] = []
    /// Input samples taken from each member but not yet given to SoundTouch.
    private var pending: [[Float]]
    /// Where each member's pending samples begin in its sound.
    private var pendingStart: [Int]
    /// Each member's stretched samples, waiting for its voice to take them.
    private var outputs: [[Float]]
    /// Where each member's last input block began in its sound: its reported position.
    private var lastStart: [Int]
    private var finishedInput: [Bool]
    private var configured = false
    private var flushed = false

    /// Output frames produced so far: the speed's glide is measured along them.
    private var produced = 0
    private var glide = Glide(from: 1, to: 1, start: 0, length: 0)
    private(set) var semitones: Double

    /// A linear change of speed from `from` to `to` over `length` output frames from `start`.
    struct Glide {
        var from: Double
        var to: Double
        var start: Int
        var length: Int

        func speed(at frame: Int) -> Double {
            guard length > 0, frame < start + length else { return frame < start ? from : to }
            return from + (to - from) * Double(max(frame - start, 0)) / Double(length)
        }
    }

    /// - Parameters:
    ///   - members: How many voices share the group.
    ///   - speed: The speed from the start.
    ///   - semitones: The pitch shift.
    init(members: Int, speed: Double = 1, semitones: Double = 0) {
        handle = soundtouch_createInstance()
        inputs = Array(repeating: nil, count: members)
        pending = Array(repeating: [], count: members)
        pendingStart = Array(repeating: 0, count: members)
        outputs = Array(repeating: [], count: members)
        lastStart = Array(repeating: 0, count: members)
        finishedInput = Array(repeating: false, count: members)
        self.semitones = semitones
        glide = Glide(from: speed, to: speed, start: 0, length: 0)
    }

    deinit { soundtouch_destroyInstance(handle) }

    /// The speed being produced now.
    var speed: Double { glide.speed(at: produced) }

    /// The speed the group is going to (the end of a glide).
    var targetSpeed: Double { glide.to }

    /// Whether member `index` has its input.
    func hasInput(_ index: Int) -> Bool { inputs[index] != nil }

    /// Sets member `index`'s input: where its samples come from.
    func attach(_ index: Int, _ blocks: any PCMBlocks) {
        inputs[index] = blocks
    }

    /// Gives every member still without an input one that plays nothing.
    func fillMissing(sampleRate: Int) {
        for index in inputs.indices where inputs[index] == nil {
            inputs[index] = NoBlocks(sampleRate: sampleRate)
        }
    }

    /// Glides the speed from where it is to `speed` over `frames` output frames from the next one made.
    func setSpeed(_ speed: Double, overFrames frames: Int) {
        glide = Glide(from: self.speed, to: speed, start: produced, length: max(frames, 0))
    }

    /// Stretched frames member `index` has ready and not yet taken.
    func buffered(_ index: Int) -> Int {
        outputs[index].count / max(channels.isEmpty ? 1 : channels[index], 1)
    }

    /// The sample rate of the members (the first member's).
    var sampleRate: Int { inputs.first??.sampleRate ?? 48_000 }

    /// Member `index`'s channels (as its input says until the group is configured).
    func channels(of index: Int) -> Int {
        channels.isEmpty ? (inputs[index]?.channels ?? 1) : channels[index]
    }

    /// Whether member `index` will get nothing more.
    func isFinished(_ index: Int) -> Bool { flushed && outputs[index].isEmpty }

    /// Member `index`'s next stretched samples, at most `maxFrames` frames; `nil` when none are ready.
    func nextBlock(_ index: Int, maxFrames: Int) -> (start: Int, samples: [Float])? {
        while buffered(index) < maxFrames, produce() {}
        guard !outputs[index].isEmpty else { return nil }
        let count = min(outputs[index].count, maxFrames * channels[index])
        let block = Array(outputs[index][..<count])
        outputs[index].removeFirst(count)
        return (lastStart[index], block)
    }

    /// Sets SoundTouch up once every input knows its channels.
    private func configure() -> Bool {
        if configured { return true }
        guard inputs.allSatisfy({ $0 != nil }) else { return false }
        // A stream knows its channels once its first block is decoded.
        for index in inputs.indices where pending[index].isEmpty && !finishedInput[index] {
            guard let block = inputs[index]!.nextBlock(maxFrames: Self.step) else {
                if inputs[index]!.isFinished {
                    finishedInput[index] = true
                    continue
                }
                return false
            }
            pendingStart[index] = block.start
            lastStart[index] = block.start
            pending[index] = block.samples
        }
        channels = inputs.map { max($0!.channels, 1) }
        let total = channels.reduce(0, +)
        guard total <= 16 else { return false }
        _ = soundtouch_setChannels(handle, UInt32(total))
        _ = soundtouch_setSampleRate(handle, UInt32(sampleRate))
        soundtouch_setPitchSemiTones(handle, Float(semitones))
        soundtouch_setTempo(handle, Float(speed))
        configured = true
        return true
    }

    /// Gives SoundTouch the next ``step`` frames of every member and shares out what comes back.
    /// - Returns: False when nothing could be made (an input is behind, or everything is out).
    private func produce() -> Bool {
        guard !flushed, configure() else { return false }
        for index in inputs.indices where !finishedInput[index] {
            let input = inputs[index]!
            while pending[index].count < Self.step * channels[index] {
                guard
                    let block = input.nextBlock(maxFrames: Self.step - pending[index].count / channels[index])
                else {
                    if input.isFinished { finishedInput[index] = true }
                    break
                }
                if pending[index].isEmpty { pendingStart[index] = block.start }
                lastStart[index] = block.start
                pending[index] += block.samples
            }
        }
        // A member that has ended plays silence beside the others; one that is merely behind waits.
        var frames = Self.step
        var anyInput = false
        for index in inputs.indices {
            let have = pending[index].count / channels[index]
            if have > 0 { anyInput = true }
            if !finishedInput[index] { frames = min(frames, have) }
        }
        if !anyInput || frames == 0 {
            guard finishedInput.allSatisfy({ $0 }) else { return false }
            soundtouch_flush(handle)
            flushed = true
            receive()
            return true
        }
        let total = channels.reduce(0, +)
        var interleaved = [Float](repeating: 0, count: frames * total)
        var offset = 0
        for index in inputs.indices {
            let count = channels[index]
            let have = min(frames, pending[index].count / count)
            for frame in 0..<have {
                for channel in 0..<count {
                    interleaved[frame * total + offset + channel] = pending[index][frame * count + channel]
                }
            }
            pending[index].removeFirst(have * count)
            offset += count
        }
        soundtouch_setTempo(handle, Float(speed))
        interleaved.withUnsafeBufferPointer {
            _ = soundtouch_putSamples(handle, $0.baseAddress, UInt32(frames))
        }
        receive()
        return true
    }

    /// Takes what SoundTouch has made and shares it out to the members.
    private func receive() {
        let total = channels.reduce(0, +)
        var chunk = [Float](repeating: 0, count: 1024 * total)
        while true {
            let got = Int(
                chunk.withUnsafeMutableBufferPointer {
                    soundtouch_receiveSamples(handle, $0.baseAddress, 1024)
                })
            if got == 0 { break }
            var offset = 0
            for index in inputs.indices {
                let count = channels[index]
                outputs[index].reserveCapacity(outputs[index].count + got * count)
                for frame in 0..<got {
                    for channel in 0..<count {
                        outputs[index].append(chunk[frame * total + offset + channel])
                    }
                }
                offset += count
            }
            produced += got
        }
    }
}

/// One member of a ``StretchGroup``: the stretched samples of one voice, for its ``FilteredFeeder``.
final class StretchedBlocks: PCMBlocks {
    let group: StretchGroup
    let index: Int

    init(_ group: StretchGroup, index: Int) {
        self.group = group
        self.index = index
    }

    var channels: Int { group.channels(of: index) }
    var sampleRate: Int { group.sampleRate }
    var isFinished: Bool { group.isFinished(index) }

    func nextBlock(maxFrames: Int) -> (start: Int, samples: [Float])? {
        group.nextBlock(index, maxFrames: maxFrames)
    }
}

/// A member of a ``StretchGroup`` whose voice was refused: it gives nothing, and the others play on.
final class NoBlocks: PCMBlocks {
    let channels = 1
    let sampleRate: Int
    let isFinished = true

    init(sampleRate: Int) { self.sampleRate = sampleRate }

    func nextBlock(maxFrames: Int) -> (start: Int, samples: [Float])? { nil }
}

/// A voice's place in a ``StretchGroup``.
struct StretchTap {
    let group: StretchGroup
    let index: Int
}
