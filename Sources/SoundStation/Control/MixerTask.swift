import CSoundStationRT

/// What one cell of the command ring carries besides a plain trigger: a command of the vocabulary
/// and, where it cannot cross a process boundary, what goes with it in this process (a music
/// station and its track's entry and buffers).
///
/// The caller's side builds one after checking its arguments and writes it in the ring
/// (``AudioEngine/submit(_:)``); the mixer takes it in the order it was written and carries it out
/// (Mixer/Mixer+Drain.swift, then ``Mixer/perform(_:in:events:tap:)``, the one place every change
/// takes effect).
enum MixerTask: Sendable {
    /// An engine command, carried out when it is taken from the ring.
    case command(EngineCommand)
    /// An engine command carried out when the clock reaches `frame` (at once when it has passed):
    /// a command another engine sent for that frame (the SSH player's).
    case timed(EngineCommand, frame: Int64)
    /// A music station's change: the command of the vocabulary (for the command tap) and the change
    /// as the mixer carries it out, at its frame. Indirect: a track's entry is large, and every other
    /// task's box would otherwise be as large.
    indirect case music(EngineCommand, MusicTask)
    /// A voice whose play will come later under this ticket (``AudioEngine/awaitVoice()``): the
    /// commands for it are kept until then.
    case awaitVoice(UInt64)
    /// The play promised under this ticket will not come: what was kept for it is dropped.
    case forgetVoice(UInt64)
    /// A closure for ``AudioEngine/schedule(at:_:)``, to run when the clock reaches `frame`.
    case call(frame: Int64, @Sendable () -> Void)
    /// Nothing: its ticket tells ``AudioEngine/waitForMixer(timeout:)`` that the cells before it are done.
    case mark
}

/// The reference a ring cell holds for a ``MixerTask`` (a cell has room for one pointer).
final class MixerTaskBox: Sendable {
    let task: MixerTask
    init(_ task: consuming MixerTask) { self.task = task }
}

extension AudioEngine {
    /// Writes `task` into the ring for the mixing side and returns: the one way every call but a
    /// trigger reaches the mixer. Never waits and takes no lock (a box is allocated). Called on the
    /// mixing side itself (a scheduled call, a station's step), the task is carried out at once.
    /// - Returns: False when the engine has fallen 4,096 commands behind and the task was dropped
    ///   (a notice says so).
    @discardableResult
    func submit(_ task: consuming MixerTask, ticket: UInt64 = 0) -> Bool {
        if onMixingSide, ticket == 0 {
            mixer.carryOutOnMixingSide(task)
            return true
        }
        let box = Unmanaged.passRetained(MixerTaskBox(task))
        var cell = ssrt_command()
        cell.op = UInt8(SSRT_OP_TASK.rawValue)
        cell.frame = Int64(SSRT_NOW)
        cell.retained = box.toOpaque()
        cell.ticket = ticket
        guard ring.push(cell) else {
            box.release()
            notices.send("a command was dropped: the engine is 4096 commands behind its mixing side")
            return false
        }
        return true
    }

    /// A handle for a voice whose play comes later (the SSH player's play of a sound still loading),
    /// so commands may name it meanwhile: the mixer keeps them, in order, and carries them out as
    /// soon as the play (``trigger(_:options:at:soundDefaults:retained:ticket:)`` with the handle's
    /// ticket) has started the voice; a stop among them means it is never heard. Give it up with
    /// ``forgetVoice(_:)`` when the play will not come.
    /// - Returns: The handle, or nil when the engine is 4,096 commands behind.
    package func awaitVoice() -> VoiceHandle? {
        let ticket = ring.nextTicket()
        return submit(.awaitVoice(ticket)) ? VoiceHandle(ticket: ticket) : nil
    }

    /// Gives up a handle from ``awaitVoice()`` whose play will not come.
    package func forgetVoice(_ voice: VoiceHandle) { submit(.forgetVoice(voice.ticket)) }

    /// ``submit(_:)`` for a command of the vocabulary.
    @discardableResult
    func submit(_ command: EngineCommand) -> Bool { submit(.command(command)) }

    /// Has the mixer carry out `command` when the engine clock reaches `frame` (at once when it has
    /// passed), as it carries out the game's own: how the SSH player places the commands it receives.
    /// The command's handles, sound ids and times must be this engine's, and its values in range
    /// (``EngineCommand/check(sampleRate:)``). A trigger goes by the trigger path, and the music's
    /// commands by a ``MusicStation``, which hold what they need in this process: here they do
    /// nothing.
    /// - Returns: False when the command was dropped (the engine is 4,096 commands behind).
    @discardableResult
    package func submit(_ command: EngineCommand, atFrame frame: Int64) -> Bool {
        submit(.timed(command, frame: frame))
    }
}
