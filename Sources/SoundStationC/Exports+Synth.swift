import CSoundStation
import SoundStation

// The C API's synthesiser: ss_synth. Documented in soundstation.h.

/// `ss_synth`: renders an sfxr effect and makes it a sound with a new id.
/// - Parameters:
///   - engine: The handle.
///   - name: The sound's name.
///   - params: The catalogue's JSON form (`{"preset": "coin", "seed": 7}`) or an sfxr parameter
///     string (jsfxr's share string, or sfxr's comma-separated settings).
/// - Returns: The id, or a negative code.
@_cdecl("ss_synth")
public func ssSynth(
    _ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ params: UnsafePointer<CChar>?
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let engine = try handle(engine)
        let system = try engine.system
        let name = try newSoundName(name, in: engine, system: system, unnamed: "synthesised sound")
        let text = try string(params, "params")
        let sound: SynthSound
        do throws(SynthError) { sound = try SynthSound(parsing: text) } catch {
            throw .invalid(error.description)
        }
        let id: SoundID
        do throws(SoundLoadError) { id = try system.synth(name, sound) } catch { throw CError(error) }
        return try engine.publish(.init(name: name, file: nil), as: id)
    }
}
