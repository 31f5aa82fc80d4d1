import Dispatch
import Foundation
import Glibc
import Testing

@testable import SoundStation

/// The real-time class of the threads that carry a remote session's timing: they get it where the
/// machine grants it, and what they start does not inherit it.
@Suite struct RealTimeClassTests {
    /// SCHED_RESET_ON_FORK, which `sched_getscheduler` adds to the policy of a thread that has it.
    static let resetOnFork: Int32 = 0x4000_0000

    /// What a fresh thread finds: whether `requestRealTimeForItself()` was granted (nil) or why not,
    /// its own policy after it, and the policy of a thread it then starts.
    static func probe() -> (refused: String?, own: Int32, child: Int32) {
        let result = Locked<(String?, Int32, Int32)>((nil, -1, -1))
        let done = DispatchSemaphore(value: 0)
        let thread = PosixThread {
            let refused = PosixThread.requestRealTimeForItself()
            let own = sched_getscheduler(0)
            let childDone = DispatchSemaphore(value: 0)
            let childPolicy = Locked<Int32>(-1)
            let child = PosixThread {
                childPolicy.withLock { $0 = sched_getscheduler(0) }
                childDone.signal()
            }
            child.start()
            childDone.wait()
            result.withLock { $0 = (refused, own, childPolicy.withLock { $0 }) }
            done.signal()
        }
        thread.start()
        done.wait()
        return result.withLock { $0 }
    }

    @Test func aThreadAskingForItselfRunsRealTimeWhereGrantedAndWhatItStartsDoesNot() {
        let (refused, own, child) = Self.probe()
        if refused == nil {
            #expect(own == SCHED_RR | Self.resetOnFork, "the thread's own policy")
        } else {
            #expect(own == SCHED_OTHER, "a refused thread stays as it was (\(refused!))")
        }
        // Started from it, a decoder or a game's helper runs in the normal class either way.
        #expect(child == SCHED_OTHER)
    }

    /// A thread moved into the class by another (the player's loader, while a command waits for
    /// it) runs SCHED_RR with SCHED_RESET_ON_FORK, and runs in the normal class once moved back.
    @Test func anotherThreadMovesAThreadIntoTheClassAndBack() {
        let granted = Self.probe().refused == nil
        let handle = Locked<pthread_t?>(nil)
        let policies = Locked<[Int32]>([])
        let step = DispatchSemaphore(value: 0)
        let next = DispatchSemaphore(value: 0)
        let thread = PosixThread {
            handle.withLock { $0 = pthread_self() }
            for _ in 0..<3 {
                step.signal()
                next.wait()
                policies.withLock { $0.append(sched_getscheduler(0)) }
            }
            step.signal()
        }
        thread.start()
        step.wait()
        let target = handle.withLock { $0 }!
        next.signal()
        step.wait()
        let inside = PosixThread.setRealTime(true, of: target)
        #expect((inside == nil) == granted, "moved in: \(inside ?? "granted")")
        next.signal()
        step.wait()
        #expect(PosixThread.setRealTime(false, of: target) == nil, "moving back is always allowed")
        next.signal()
        step.wait()
        let seen = policies.withLock { $0 }
        #expect(seen == [SCHED_OTHER, granted ? SCHED_RR | Self.resetOnFork : SCHED_OTHER, SCHED_OTHER])
    }

    @Test func aRemoteLinksWriterAsksForTheClassAsSoonAsItStarts() throws {
        let (refused, _, _) = Self.probe()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ss-rt-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        ).path
        let listening = try #require(RemoteSessionTests.listen(at: path))
        defer {
            close(listening)
            unlink(path)
        }
        let link = try RemoteLink(
            route: .socket(path), sampleRate: 48_000, clock: { 0 }, name: { "\($0.rawValue)" })
        defer { link.close(timeout: .milliseconds(500)) }
        let deadline = ContinuousClock.now + .seconds(10)
        while link.notRealTime == "not started", ContinuousClock.now < deadline { usleep(1000) }
        #expect(
            link.notRealTime == refused, "the writer's class: the machine's answer is \(refused ?? "granted")"
        )
    }
}
