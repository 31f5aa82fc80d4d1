import Foundation

/// Records the default source (the null sink's monitor under `Scripts/with-pulse.sh`) with `parec`
/// and timestamps what arrives on CLOCK_MONOTONIC, so the time a sample reached the monitor can be
/// set against the time of a trigger call.
///
/// A frame's time is when the read that delivered it returned: the moment the sink rendered it
/// (the null sink posts what it renders to its monitor at once) plus the capture's delivery delay
/// (parec asks for 1 ms fragments). So the latencies it gives are an upper bound, never flattering.
/// (Placing frames on the stream's own clock instead, `first arrival + i / rate`, would be finer but
/// can flatter: the null sink renders ahead of its clock by a varying amount.)
///
/// `@unchecked Sendable`: the reading thread and the caller share the recording only under `lock`.
final class MonitorRecorder: @unchecked Sendable {
    /// The capture rate: the null sink's own, so nothing is resampled.
    let rate: Double
    private let process = Process()
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    /// For every read: the frames recorded once it returned, and when.
    private var reads: [(frames: Int, time: Double)] = []

    /// Starts `parec` on the default source.
    /// - Parameter rate: The sink's sample rate (PulseAudio's default is 44.1 kHz).
    /// - Throws: When `parec` cannot be started.
    init(rate: Int = 44_100) throws {
        self.rate = Double(rate)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "parec", "--raw", "--format=s16le", "--channels=2", "--rate=\(rate)", "--latency-msec=1",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        let thread = Thread { [self] in readLoop(descriptor) }
        thread.start()
    }

    private func readLoop(_ descriptor: Int32) {
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            let now = BenchClock.wall()
            lock.withLock {
                bytes.append(contentsOf: chunk[0..<count])
                reads.append((bytes.count / 4, now))
            }
        }
    }

    /// Frames recorded so far.
    var frames: Int { lock.withLock { bytes.count / 4 } }

    /// Waits until the recorder has received something (parec connected and the stream runs).
    /// - Returns: False after `timeout` seconds with nothing.
    func waitForData(timeout: Double) -> Bool {
        let end = BenchClock.wall() + timeout
        while BenchClock.wall() < end {
            if frames > 0 { return true }
            usleep(1_000)
        }
        return false
    }

    /// The first frame at or after `start` with either channel's magnitude above `threshold`
    /// (of 32,767), and the monotonic time it reached the monitor.
    func firstSound(from start: Int, threshold: Int16 = 64) -> (frame: Int, time: Double)? {
        lock.withLock {
            var frame = start
            while (frame + 1) * 4 <= bytes.count {
                for channel in 0..<2 {
                    let offset = frame * 4 + channel * 2
                    let value = Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
                    if value.magnitude > threshold.magnitude {
                        let read = reads.first { $0.frames > frame } ?? reads[reads.count - 1]
                        return (frame, read.time)
                    }
                }
                frame += 1
            }
            return nil
        }
    }

    /// Stops `parec`.
    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
