package soundstation

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTone writes a mono 16-bit WAV of a 440 Hz sine at half scale, seconds long.
func writeTone(t *testing.T, seconds float64) string {
	t.Helper()
	frames := uint32(seconds * rate)
	data := make([]byte, 0, 44+2*frames)
	le := binary.LittleEndian
	data = append(data, "RIFF"...)
	data = le.AppendUint32(data, 36+2*frames)
	data = append(data, "WAVEfmt "...)
	data = le.AppendUint32(data, 16)
	data = le.AppendUint16(data, 1)
	data = le.AppendUint16(data, 1)
	data = le.AppendUint32(data, rate)
	data = le.AppendUint32(data, 2*rate)
	data = le.AppendUint16(data, 2)
	data = le.AppendUint16(data, 16)
	data = append(data, "data"...)
	data = le.AppendUint32(data, 2*frames)
	for i := uint32(0); i < frames; i++ {
		sample := int16(math.Round(16383 * math.Sin(2*math.Pi*440*float64(i)/rate)))
		data = le.AppendUint16(data, uint16(sample))
	}
	path := filepath.Join(t.TempDir(), "tone.wav")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// heardUntil is the frame after the last left sample louder than 0.05.
func heardUntil(mix []float32) int {
	end := len(mix) / 2
	for end > 0 && math.Abs(float64(mix[(end-1)*2])) < 0.05 {
		end--
	}
	return end
}

// crossingFrequency is the frequency from the left channel's rising zero crossings over [from, to).
func crossingFrequency(mix []float32, from, to int) float64 {
	first, last, count := -1, -1, 0
	for i := from + 1; i < to; i++ {
		if mix[(i-1)*2] < 0 && mix[i*2] >= 0 {
			if first < 0 {
				first = i
			}
			last = i
			count++
		}
	}
	if count < 2 {
		return 0
	}
	return float64(count-1) * rate / float64(last-first)
}

func TestMusicSpeedKeepsThePitchAndScalesTheLength(t *testing.T) {
	tone := writeTone(t, 2)
	for _, speed := range []float64{1.25, 0.8} {
		engine, err := Open("offline:48000", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := engine.LoadMusicFile("tone", tone); err != nil {
			t.Fatal(err)
		}
		if err := engine.SetMusicSpeed(speed, 0); err != nil {
			t.Fatal(err)
		}
		options := DefaultMusicOptions()
		options.Loops = 0
		if err := engine.MusicWith("tone", &options); err != nil {
			t.Fatal(err)
		}
		mix := make([]float32, 2*4*rate)
		if _, err := engine.Render(mix); err != nil {
			t.Fatal(err)
		}
		length := float64(heardUntil(mix)) / rate
		if math.Abs(length-2/speed) >= 0.02 {
			t.Errorf("speed %v: lasted %.3f s, expected %.3f", speed, length, 2/speed)
		}
		hz := crossingFrequency(mix, rate/5, int((2/speed-0.2)*rate))
		if math.Abs(hz-440) >= 1 {
			t.Errorf("speed %v: %.2f Hz", speed, hz)
		}
		engine.Close()
	}
}

func TestPitchShiftDoublesTheFrequencyAndKeepsTheLength(t *testing.T) {
	engine, err := Open("offline:48000", "")
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	id, err := engine.LoadFile("beep", writeTone(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	options := DefaultPlayOptions()
	options.PitchShift = 12
	if _, err := engine.PlayVoice(id, &options); err != nil {
		t.Fatal(err)
	}
	mix := make([]float32, 2*2*rate)
	if _, err := engine.Render(mix); err != nil {
		t.Fatal(err)
	}
	if hz := crossingFrequency(mix, rate/10, rate*9/10); math.Abs(hz-880) >= 1 {
		t.Errorf("shifted an octave: %.2f Hz", hz)
	}
	if length := float64(heardUntil(mix)) / rate; math.Abs(length-1) >= 0.02 {
		t.Errorf("shifted, it lasted %.3f s", length)
	}
	options.PitchShift = 30
	if _, err := engine.PlayVoice(id, &options); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "pitch_shift") {
		t.Errorf("a shift of 30: %v", err)
	}
	if err := engine.SetMusicSpeed(3, 0); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "music speed 3") {
		t.Errorf("speed 3: %v", err)
	}
}
