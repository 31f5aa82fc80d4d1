import CommandLineKit
import Glibc
import SoundStation

/// What `render` and `play` share: read the cues, check their names against the catalogue, preload
/// what they use, and schedule them on an engine's clock.
struct CueSession {
    let cues: [SoundCue]
    let catalogue: Catalogue

    init(_ words: [String], catalogue: Catalogue) throws {
        guard !words.isEmpty else { throw CLIError.usage("no events given") }
        do {
            cues = try words.map { word throws(SoundCueError) in try SoundCue(parsing: word) }
        } catch {
            throw CLIError.usage(error.description)
        }
        self.catalogue = catalogue
        for cue in cues {
            switch cue.action {
            case .effect(let name), .music(let name, _), .placedEffect(let name, _):
                let entry = try catalogue.entry(named: name)
                let wanted: SoundKind = if case .music = cue.action { .music } else { .effect }
                if entry.kind != wanted {
                    throw CLIError(
                        "event \"\(cue)\": \"\(name)\" is a \(entry.kind.rawValue) sound, not \(wanted.rawValue)"
                    )
                }
            default: break
            }
        }
    }

    /// Checks what depends on the engine's rate (a filter's cutoff).
    /// - Throws: ``CLIError/usage(_:)`` naming the event, as a malformed event is.
    func check(sampleRate: Int) throws {
        do {
            for cue in cues { try cue.check(sampleRate: sampleRate) }
        } catch {
            throw CLIError.usage(error.description)
        }
    }

    /// The time of the last cue.
    var lastCueTime: Duration { cues.map(\.time).max() ?? .zero }

    /// Whether music is still meant to be playing after the last cue.
    var leavesMusicPlaying: Bool {
        var playing = false
        for cue in cues.sorted(by: { $0.time < $1.time }) {
            switch cue.action {
            case .music: playing = true
            case .stopMusic: playing = false
            default: break
            }
        }
        return playing
    }

    /// Preloads every sound the cues name, reporting failures as errors.
    func preload(into stage: SoundSystem) async throws {
        var names: [String] = []
        for cue in cues {
            switch cue.action {
            case .effect(let name), .music(let name, _), .placedEffect(let name, _):
                if !names.contains(name) { names.append(name) }
            default: break
            }
        }
        let loaded = try await stage.bank.preload(names)
        try loaded.throwIfFailed()
        for warning in loaded.warnings {
            StandardStream.error.write("soundstation: warning: \(String(describing: warning).printable)\n")
        }
    }

    /// Schedules every cue at `offset` plus its time on the engine clock.
    func schedule(on stage: SoundSystem, offset: Duration) {
        for cue in cues {
            stage.engine.schedule(at: offset + cue.time) {
                do {
                    try stage.perform(cue)
                } catch {
                    StandardStream.error.write(
                        "soundstation: event \"\(String(describing: cue).printable)\": \(String(describing: error).printable)\n"
                    )
                }
            }
        }
    }
}
