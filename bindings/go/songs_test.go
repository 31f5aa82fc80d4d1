package soundstation

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// MIDI and chiptune songs from a catalogue, rendered offline and measured: a MIDI file of quarter
// notes at 120 bpm starts a note every 0.5 s at its pitch, and a VGM log plays its intro, then loops
// at its loop offset. Both files are written here, byte by byte.

const beat = 24000

var songNotes = []byte{57, 64, 69, 72}

func noteHertz(note byte) float64 { return 440 * math.Pow(2, (float64(note)-69)/12) }

func midiQuantity(value uint32) []byte {
	out := []byte{byte(value & 0x7F)}
	for value >>= 7; value > 0; value >>= 7 {
		out = append([]byte{0x80 | byte(value&0x7F)}, out...)
	}
	return out
}

// midiSong is a format-0 MIDI file: 480 ticks a beat, 120 bpm, the piano; each note held 0.4 s of its 0.5 s.
func midiSong() []byte {
	events := []byte{0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20, 0x00, 0xC0, 0x00}
	for index, note := range songNotes {
		events = append(events, 0x00, 0x90, note, 100)
		events = append(events, midiQuantity(384)...)
		events = append(events, 0x80, note, 0)
		if index < len(songNotes)-1 {
			events = append(events, midiQuantity(96)...)
			events = append(events, 0xFF, 0x01, 0x00)
		}
	}
	events = append(events, midiQuantity(96)...)
	events = append(events, 0xFF, 0x2F, 0x00)
	file := []byte("MThd\x00\x00\x00\x06\x00\x00\x00\x01\x01\xE0MTrk")
	file = binary.BigEndian.AppendUint32(file, uint32(len(events)))
	return append(file, events...)
}

// vgmSong is a VGM 1.50 log for the SN76489: 1 s at 440 Hz, then the loop: 660 Hz and 880 Hz, 0.5 s each.
func vgmSong() []byte {
	tone := func(hertz float64) []byte {
		period := int(math.Round(3579545 / (32 * hertz)))
		return []byte{0x50, byte(0x80 | period&0x0F), 0x50, byte((period >> 4) & 0x3F)}
	}
	wait := func(seconds float64) []byte {
		return binary.LittleEndian.AppendUint16([]byte{0x61}, uint16(math.Round(seconds*44100)))
	}
	intro := append(append([]byte{0x50, 0x90}, tone(440)...), wait(1)...)
	data := append([]byte{}, intro...)
	data = append(append(data, tone(660)...), wait(0.5)...)
	data = append(append(data, tone(880)...), wait(0.5)...)
	data = append(data, 0x66)
	header := make([]byte, 0x40)
	copy(header, "Vgm ")
	put := func(at int, value uint32) { binary.LittleEndian.PutUint32(header[at:], value) }
	put(0x04, uint32(0x40+len(data)-4))
	put(0x08, 0x150)
	put(0x0C, 3579545)
	put(0x18, 2*44100)
	put(0x1C, uint32(0x40+len(intro)-0x1C))
	put(0x20, 44100)
	put(0x24, 60)
	put(0x28, 9|16<<16)
	put(0x34, 0x40-0x34)
	return append(header, data...)
}

func songAssets(t *testing.T) string {
	dir := t.TempDir()
	files := map[string][]byte{
		"song.mid": midiSong(), "song.vgm": vgmSong(),
		"catalogue.json": []byte(`{"sounds": [
			{"name": "tune", "path": "song.mid", "kind": "music", "stream": true, "loop": false},
			{"name": "chip", "path": "song.vgm", "kind": "music", "track": 1},
			{"name": "two", "path": "song.vgm", "kind": "music", "track": 2}]}`),
	}
	for name, bytes := range files {
		if err := os.WriteFile(filepath.Join(dir, name), bytes, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// magnitude is the magnitude of hertz on the left channel over count frames from start.
func magnitude(samples []float32, start, count int, hertz float64) float64 {
	var re, im float64
	for i := 0; i < count; i++ {
		phase := 2 * math.Pi * hertz * float64(i) / rate
		re += float64(samples[2*(start+i)]) * math.Cos(phase)
		im -= float64(samples[2*(start+i)]) * math.Sin(phase)
	}
	return math.Hypot(re, im) / float64(count)
}

// noteOnset is the first 1 ms step from 50 ms before at louder than a third of the loudest 2 ms
// window in the 0.1 s after it.
func noteOnset(samples []float32, at int) int {
	window := func(start int) float64 {
		sum := 0.0
		for i := start; i < start+96; i++ {
			sum += float64(samples[2*i]) * float64(samples[2*i])
		}
		return math.Sqrt(sum / 96)
	}
	loudest := 0.0
	for frame := at; frame < at+4800; frame += 48 {
		loudest = math.Max(loudest, window(frame))
	}
	from := at - 2400
	if from < 0 {
		from = 0
	}
	for frame := from; frame < at+4800; frame += 48 {
		if window(frame) > loudest/3 {
			return frame
		}
	}
	return -1
}

func songEngine(t *testing.T, name string) *Engine {
	t.Helper()
	engine, err := OpenWith(OpenOptions{Output: OutputOffline, SampleRate: rate, Assets: songAssets(t)})
	if err != nil {
		t.Fatalf("offline engine: %v", err)
	}
	if err := engine.Preload(context.Background(), []string{name}); err != nil {
		t.Fatalf("preload %s: %v", name, err)
	}
	if err := engine.Music(name, 0); err != nil {
		t.Fatalf("music %s: %v", name, err)
	}
	return engine
}

func TestMIDIQuarterNotesStartEveryHalfSecondAtTheirPitch(t *testing.T) {
	if _, err := os.Stat("/usr/share/sounds/sf2/default-GM.sf2"); err != nil {
		t.Skip("no General MIDI SoundFont (Debian's timgm6mb-soundfont)")
	}
	engine := songEngine(t, "tune")
	defer engine.Close()
	samples := render(t, engine, 2.5)
	var starts []int
	for index := range songNotes {
		starts = append(starts, noteOnset(samples, index*beat))
	}
	if starts[0] < 0 || starts[0] > 240 {
		t.Errorf("the first note starts at frame %d", starts[0])
	}
	for i := 1; i < len(starts); i++ {
		if gap := starts[i] - starts[i-1]; gap < beat-240 || gap > beat+240 {
			t.Errorf("onsets %v: note %d starts %d frames after the one before", starts, i, gap)
		}
	}
	for index, note := range songNotes {
		start := index*beat + 2400
		wanted := magnitude(samples, start, 9600, noteHertz(note))
		for _, other := range []byte{note - 1, note + 1} {
			if beside := magnitude(samples, start, 9600, noteHertz(other)); wanted <= 3*beside {
				t.Errorf("note %d: %.5f against %.5f a semitone away", note, wanted, beside)
			}
		}
	}
}

func TestVGMLoopsAtItsLoopOffset(t *testing.T) {
	engine := songEngine(t, "chip")
	defer engine.Close()
	samples := render(t, engine, 4)
	strongest := func(seconds float64) float64 {
		start := int(seconds * rate)
		best := 440.0
		for _, hertz := range []float64{660, 880} {
			if magnitude(samples, start, 4800, hertz) > magnitude(samples, start, 4800, best) {
				best = hertz
			}
		}
		return best
	}
	// After the loop point (2 s) the loop plays again, never the intro.
	want := map[float64]float64{0.3: 440, 1.2: 660, 1.7: 880, 2.2: 660, 2.7: 880, 3.2: 660, 3.7: 880}
	for seconds, hertz := range want {
		if got := strongest(seconds); got != hertz {
			t.Errorf("%.1f s: %.0f Hz, want %.0f", seconds, got, hertz)
		}
	}
	err := engine.Preload(context.Background(), []string{"two"})
	if !errors.Is(err, ErrDecode) || !strings.Contains(err.Error(), "not track 2") {
		t.Errorf("a track the file does not hold: %v", err)
	}
}
