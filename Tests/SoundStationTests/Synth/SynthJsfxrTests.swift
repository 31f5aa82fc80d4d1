import Foundation
import Testing

@testable import SoundStation

/// The generator against jsfxr itself: parameter sets rendered by jsfxr's `SoundEffect.generate`
/// (node, 16-bit at 44.1 kHz, the repository grumdrig/jsfxr), kept here as its output: the length and
/// every n-th sample. Ours, turned into 16 bits as jsfxr does (`floor(x * 32768)`), is within one step
/// of each (the one step: jsfxr keeps the double, this generator hands the engine a Float).
@Suite struct SynthJsfxrTests {
    struct Reference: Sendable {
        let parameters: String
        let frames: Int
        let step: Int
        let samples: [Int]
    }

    static let references = [
        // A coin: punch, then the arpeggio's jump.
        Reference(
            parameters:
                #"{"wave_type": 0, "p_env_attack": 0, "p_env_sustain": 0.0625, "p_env_punch": 0.5, "p_env_decay": 0.25, "p_base_freq": 0.5, "p_arp_mod": 0.375, "p_arp_speed": 0.625, "sound_vol": 0.25}"#,
            frames: 6642, step: 166,
            samples: [
                18613, 14632, -10704, 9147, 8888, -8664, 8405, 8147, -7920, 7664, 7407, -7178, 6922, 6666,
                -6435,
                6180, 5925, -5692, -5448, 5186, 4942, 2349, -4454, -4209, 3949, 3705, 3460, -3216, -2971,
                -2725,
                2469, 2223, 1977, -1733, -1487, -1240, 988, 742, 495, -249, -2,
            ]),
        // Every slider moved (sfxr's random): vibrato, slides, filters with sweeps and resonance,
        // the phaser, repeats and a negative decay slider.
        Reference(
            parameters:
                #"{"wave_type": 2, "p_env_attack": 0.1934234135123298, "p_env_sustain": 0.3043073939124002, "p_env_punch": 0.6218917330974619, "p_env_decay": -0.14244855047890254, "p_base_freq": 0.3966037766591638, "p_freq_limit": 0, "p_freq_ramp": 0.059972796405142755, "p_freq_dramp": -0.1070995714723597, "p_vib_strength": 0.9045033563821462, "p_vib_speed": -0.5619288373376827, "p_arp_mod": -0.05637597971769348, "p_arp_speed": -0.2522422964287967, "p_duty": -0.7707838241466447, "p_duty_ramp": 0.024799368259144233, "p_repeat_speed": -0.06256775173348017, "p_pha_offset": 0.15161101856935577, "p_pha_ramp": -0.5888408360553088, "p_lpf_freq": 0.8193638220290418, "p_lpf_ramp": -0.22244563120730704, "p_lpf_resonance": 0.771616178384281, "p_hpf_freq": 0.08246158583112546, "p_hpf_ramp": 0.0054629755429629724, "sound_vol": 0.25, "seed": 6014535461745963}"#,
            frames: 15032, step: 375,
            samples: [
                0, -1550, -268, 161, 687, -7538, 4529, 10870, -3759, 5065, 3575, 1701, -5019, 5390, -13667,
                17574, 9454, -18364, -10346, -12902, -31499, -8745, 22259, -15836, -789, -15949, 12189, -8734,
                -14331, 7242, 9853, 3453, 3207, -17589, -12341, -17530, 6919, 1825, -6621, -3284, 23,
            ]),
    ]

    @Test(arguments: references.indices)
    func rendersAsJsfxrDoes(index: Int) throws {
        let reference = Self.references[index]
        let audio = try SynthGenerator.render(try SynthSound(parsing: reference.parameters).parameters)
        #expect(audio.frameCount == reference.frames)
        for (position, expected) in reference.samples.enumerated() {
            let frame = position * reference.step
            guard frame < audio.frameCount else { break }
            let ours = Int(max(-32768, min(32767, (Double(audio.samples[frame]) * 32768).rounded(.down))))
            #expect(abs(ours - expected) <= 1, "frame \(frame): \(ours), jsfxr \(expected)")
        }
    }
}
