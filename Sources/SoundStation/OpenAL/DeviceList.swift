import COpenAL
import Glibc

/// Reads OpenAL's device lists: NUL-separated names ending in an empty name.
enum DeviceList {
    static func playback() -> [String] {
        OpenALDevice.quietLibraryLog
        let all = alcIsExtensionPresent(nil, "ALC_ENUMERATE_ALL_EXT") != 0
        return names(alcGetString(nil, all ? ALC_ALL_DEVICES_SPECIFIER : ALC_DEVICE_SPECIFIER))
    }

    static func capture() -> [String] {
        OpenALDevice.quietLibraryLog
        return names(alcGetString(nil, ALC_CAPTURE_DEVICE_SPECIFIER))
    }

    private static func names(_ list: UnsafePointer<ALCchar>?) -> [String] {
        guard var cursor = list else { return [] }
        var result: [String] = []
        while cursor.pointee != 0 {
            let name = String(cString: cursor)
            result.append(name)
            cursor += strlen(cursor) + 1
        }
        return result
    }
}
