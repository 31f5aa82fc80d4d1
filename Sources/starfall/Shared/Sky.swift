/// The faint background stars both front ends draw: scattered evenly by a hash rather than a
/// random generator, so they stay put from frame to frame and only their twinkle changes.
enum Sky {
    /// A background star.
    struct Point {
        var x: Int
        var y: Int
        var bright: Bool
    }

    /// `count` stars spread over `width` by `height`, a few of them bright at `tick`.
    static func points(count: Int, width: Int, height: Int, tick: Int) -> [Point] {
        guard width > 0, height > 0 else { return [] }
        return (0..<count).map { index in
            let hash = mix(UInt64(index))
            let x = Int(hash % UInt64(width))
            let y = Int((hash >> 20) % UInt64(height))
            let bright = (Int((hash >> 40) % 97) + tick / 20) % 9 == 0
            return Point(x: x, y: y, bright: bright)
        }
    }

    /// SplitMix64's finaliser: neighbouring indices land far apart.
    private static func mix(_ value: UInt64) -> UInt64 {
        var bits = value &+ 0x9E37_79B9_7F4A_7C15
        bits = (bits ^ (bits >> 30)) &* 0xBF58_476D_1CE4_E5B9
        bits = (bits ^ (bits >> 27)) &* 0x94D0_49BB_1331_11EB
        return bits ^ (bits >> 31)
    }
}
