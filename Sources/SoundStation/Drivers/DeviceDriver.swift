/// A playback device's driver: OpenAL mixes to the device on its own thread, and the driver's
/// thread turns the mixer in rounds (carry out commands, run due calls, housekeep, publish),
/// sleeping until the next thing is due. While the device is lost it tries to open it again.
final class DeviceDriver: ThreadedDriver {
    /// The device's name as opened (`nil`: the system's default) and its latency, to reopen it.
    let name: String?
    let latency: OutputLatency
    let wallClock: WallClock
    let thread = Locked<DriverThread?>(nil)

    init(name: String?, latency: OutputLatency, wallClock: WallClock) {
        self.name = name
        self.latency = latency
        self.wallClock = wallClock
    }

    var isHeard: Bool { true }
    var rendersOnCaller: Bool { false }
    var isDevice: Bool { true }
    func clockFrame(rendered: Int64) -> Int64 { max(rendered, wallClock.frame) }

    func start(engine: AudioEngine) {
        let name = name
        let latency = latency
        let driver = DriverThread(engine: engine, polls: true) { mixer, _ in
            mixer.reopenIfLost { try? OpenALDevice(playback: name, latency: latency) }
            // The round's OpenAL calls select the context once; the thread keeps no hold on the
            // device between rounds (a reopened device replaces it).
            return mixer.device.withCurrentContext { () -> (Int64, Int64) in
                mixer.drainCommands()
                mixer.runDueCalls()
                mixer.drainCommands()
                return mixer.withState { state, events in
                    mixer.housekeep(&state, events: &events)
                    mixer.publish(state)
                    return (state.frame, state.nextWakeFrame)
                }
            }
        }
        thread.withLock { $0 = driver }
    }
}
