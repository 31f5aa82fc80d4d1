import CSoundStation
import SoundStation

// The C API's space and colour: positions, the listener, filters and reverb. Each is documented in
// soundstation.h.

/// `ss_play_position`: plays a loaded sound at a position.
/// - Parameters:
///   - engine: The handle.
///   - soundID: The sound's id.
///   - x: Column (or any unit).
///   - y: Row.
///   - volume: Gain.
///   - pitch: Speed.
/// - Returns: `SS_OK`, `SS_REFUSED` or a negative code.
@_cdecl("ss_play_position")
public func ssPlayPosition(
    _ engine: OpaquePointer?, _ soundID: Int32, _ x: Float, _ y: Float, _ volume: Float, _ pitch: Float
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let engine = try handle(engine)
        try checkPlay(volume: volume, pitch: pitch, pan: 0)
        let position = try point(x, y, "position")
        let (system, sound) = try engine.sound(soundID)
        let voice: VoiceHandle?
        if let buffer = sound.file {
            do throws(AudioEngineError) {
                voice = try system.engine.play(
                    buffer, options: PlayOptions(volume: volume, pitch: pitch, position: position))
            } catch {
                throw CError(error)
            }
        } else {
            do throws(SoundLoadError) {
                voice = try system.effects.play(sound.name, position: position, volume: volume, pitch: pitch)
            } catch {
                throw CError(error)
            }
        }
        return voice == nil ? SS_REFUSED.rawValue : SS_OK.rawValue
    }
}

/// `ss_set_listener`: moves the listener.
/// - Parameters:
///   - engine: The handle.
///   - x: Column.
///   - y: Row.
///   - glideSeconds: How long to glide there.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_set_listener")
public func ssSetListener(_ engine: OpaquePointer?, _ x: Float, _ y: Float, _ glideSeconds: Double) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        let position = try point(x, y, "listener")
        let glide = try checked(glideSeconds, "glide", in: 0...3600)
        do throws(AudioEngineError) { try system.engine.setListener(position, glide: .seconds(glide)) } catch
        {
            throw CError(error)
        }
        return SS_OK.rawValue
    }
}

/// `ss_set_grid`: lays positions out for a grid of cells.
/// - Parameters:
///   - engine: The handle.
///   - columns: The grid's width in cells.
///   - rows: Its height.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_set_grid")
public func ssSetGrid(_ engine: OpaquePointer?, _ columns: Int32, _ rows: Int32) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        guard columns >= 1, rows >= 1 else {
            throw .invalid("invalid grid \(columns) x \(rows): expected at least 1 column and 1 row")
        }
        do throws(AudioEngineError) {
            try system.engine.setSpatialLayout(.grid(columns: Int(columns), rows: Int(rows)))
        } catch {
            throw CError(error)
        }
        return SS_OK.rawValue
    }
}

/// `ss_set_filter`: filters a bus with a real cutoff, or stops.
/// - Parameters:
///   - engine: The handle.
///   - bus: An `ss_bus` other than `SS_BUS_DEFAULT`.
///   - type: An `SS_FILTER_*` kind.
///   - hertz: The cutoff (a band-pass's centre).
///   - q: The resonance.
///   - glideSeconds: How long the cutoff glides.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_set_filter")
public func ssSetFilter(
    _ engine: OpaquePointer?, _ bus: Int32, _ type: Int32, _ hertz: Float, _ q: Float,
    _ glideSeconds: Double
) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        let bus = try mixBus(bus)
        let filter: SoundFilter?
        switch type {
        case Int32(SS_FILTER_OFF.rawValue): filter = nil
        case Int32(SS_FILTER_LOWPASS.rawValue): filter = .lowpass(cutoff: hertz, q: q)
        case Int32(SS_FILTER_HIGHPASS.rawValue): filter = .highpass(cutoff: hertz, q: q)
        case Int32(SS_FILTER_BANDPASS.rawValue): filter = .bandpass(center: hertz, q: q)
        default:
            throw .invalid(
                "invalid filter type \(type): expected SS_FILTER_OFF (0), SS_FILTER_LOWPASS (1), "
                    + "SS_FILTER_HIGHPASS (2) or SS_FILTER_BANDPASS (3)")
        }
        let glide = try checked(glideSeconds, "glide", in: 0...3600)
        do throws(AudioEngineError) {
            try system.engine.setFilter(filter, for: bus, glide: .seconds(glide))
        } catch {
            throw CError(error)
        }
        return SS_OK.rawValue
    }
}

/// `ss_set_reverb`: gives a bus a preset reverb, or takes it away.
/// - Parameters:
///   - engine: The handle.
///   - bus: An `ss_bus` other than `SS_BUS_DEFAULT`.
///   - preset: A preset's name, `off` or NULL.
/// - Returns: `SS_OK` or a negative code.
@_cdecl("ss_set_reverb")
public func ssSetReverb(_ engine: OpaquePointer?, _ bus: Int32, _ preset: UnsafePointer<CChar>?) -> Int32 {
    cCall { () throws(CError) -> Int32 in
        let system = try handle(engine).system
        let bus = try mixBus(bus)
        let name = preset.map { String(cString: $0) } ?? "off"
        var reverb: ReverbPreset?
        if name.lowercased() != "off" {
            guard let found = ReverbPreset.named(name) else {
                throw .unknown(
                    "unknown reverb preset \"\(name)\": expected \"off\" or one of "
                        + ReverbPreset.allCases.map(\.rawValue).joined(separator: ", "))
            }
            reverb = found
        }
        do throws(AudioEngineError) { try system.engine.setReverb(reverb, for: bus) } catch {
            throw CError(error)
        }
        return SS_OK.rawValue
    }
}

/// A position from two C floats.
/// - Throws: ``CError`` (invalid argument) naming a coordinate that is not finite.
private func point(_ x: Float, _ y: Float, _ what: String) throws(CError) -> SoundPosition {
    let position = SoundPosition(x: x, y: y)
    do throws(AudioEngineError) { try position.check(what) } catch { throw CError(error) }
    return position
}

/// The bus an `ss_bus` names.
/// - Throws: ``CError`` (invalid argument) for `SS_BUS_DEFAULT` or a number outside the enum.
func mixBus(_ bus: Int32) throws(CError) -> Bus {
    switch bus {
    case SS_BUS_MASTER.rawValue: return .master
    case SS_BUS_MUSIC.rawValue: return .music
    case SS_BUS_EFFECTS.rawValue: return .effects
    case SS_BUS_VOICE.rawValue: return .voice
    default:
        throw .invalid(
            "invalid bus \(bus): expected SS_BUS_MASTER (0), SS_BUS_MUSIC (1), SS_BUS_EFFECTS (2) or SS_BUS_VOICE (3)"
        )
    }
}
