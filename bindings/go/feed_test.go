package soundstation

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func plainOffline(t *testing.T) *Engine {
	t.Helper()
	engine, err := OpenWith(OpenOptions{Output: OutputOffline, SampleRate: rate})
	if err != nil {
		t.Fatalf("offline engine: %v", err)
	}
	return engine
}

func sine(hertz float64, i int) float32 {
	return float32(0.5 * math.Sin(2*math.Pi*hertz*float64(i)/rate))
}

// A file's bytes (as embed gives them) render the same samples as the file.
func TestMemoryRendersWhatTheFileRenders(t *testing.T) {
	for _, name := range []string{"coin.wav", "explosion.ogg"} {
		path := filepath.Join(assets(t), "Effects", name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		disk, memory := plainOffline(t), plainOffline(t)
		a, err := disk.LoadFile("s", path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := memory.LoadMemory("s", data)
		if err != nil {
			t.Fatal(err)
		}
		disk.Play(a, 1, 1, 0)
		memory.Play(b, 1, 1, 0)
		x, y := render(t, disk, 0.5), render(t, memory, 0.5)
		if both(x) < 1e-4 {
			t.Fatalf("%s is silent", name)
		}
		for i := range x {
			if x[i] != y[i] {
				t.Fatalf("%s: sample %d differs: disk %v, memory %v", name, i, x[i], y[i])
			}
		}
		disk.Close()
		memory.Close()
	}
}

func TestPCMFloatAndInt16Render(t *testing.T) {
	engine := plainOffline(t)
	defer engine.Close()
	stereo := make([]float32, 2*4800)
	for i := 0; i < 4800; i++ {
		stereo[2*i], stereo[2*i+1] = sine(440, i), sine(660, i)/2
	}
	id, err := engine.LoadPCMFloat32("float", stereo, 2, rate)
	if err != nil {
		t.Fatal(err)
	}
	engine.Play(id, 1, 1, 0)
	out := render(t, engine, 0.1)
	for i := range stereo {
		if math.Abs(float64(out[i]-stereo[i])) > 1e-6 {
			t.Fatalf("sample %d: %v, written %v", i, out[i], stereo[i])
		}
	}
	ints := make([]int16, 24000)
	for i := range ints {
		ints[i] = int16(sine(1000, 2*i) * 64000)
	}
	id, err = LoadPCM(engine, "ints", ints, 1, 24000)
	if err != nil {
		t.Fatal(err)
	}
	engine.Play(id, 1, 1, 0)
	out = render(t, engine, 0.5)
	crossings := 0
	for i := 1; i < 24000; i++ {
		if out[2*(i-1)] < 0 && out[2*i] >= 0 {
			crossings++
		}
	}
	// 1 kHz written at 24 kHz keeps its pitch: 500 upward crossings in 0.5 s.
	if crossings < 498 || crossings > 502 {
		t.Fatalf("1 kHz at 24 kHz: %d crossings in 0.5 s", crossings)
	}
}

// A fed stream renders sample-exactly; a full queue refuses and counts.
func TestStreamRendersExactlyAndRefusesWhatDoesNotFit(t *testing.T) {
	engine := plainOffline(t)
	defer engine.Close()
	stream, err := engine.OpenStream(1, rate, nil)
	if err != nil {
		t.Fatal(err)
	}
	piece := rate / 100
	var out []float32
	written := 0
	for rendered := 0; rendered < rate; rendered += piece {
		for written < rendered+3*piece {
			samples := make([]float32, piece)
			for i := range samples {
				samples[i] = sine(440, written+i)
			}
			if n, err := stream.Write(samples); n != piece || err != nil {
				t.Fatalf("write: %d, %v", n, err)
			}
			written += piece
		}
		out = append(out, render(t, engine, 0.01)...)
	}
	for i := 0; i < rate; i++ {
		// A mono voice in the middle: both sides the same, at OpenAL Soft's centre gain.
		if out[2*i] != out[2*i+1] {
			t.Fatalf("frame %d: left %v right %v", i, out[2*i], out[2*i+1])
		}
	}
	if stream.Underruns() != 0 || stream.Refused() != 0 {
		t.Fatalf("underruns %d refused %d", stream.Underruns(), stream.Refused())
	}
	stream.Close()
	if both(render(t, engine, 0.1)) != 0 {
		t.Fatal("a closed stream is still heard")
	}
	if _, err := stream.Write([]float32{0}); !errors.Is(err, ErrClosed) {
		t.Fatalf("write after Close: %v", err)
	}

	options := DefaultStreamOptions()
	options.QueueFrames = 100
	options.Pan = -1
	small, err := engine.OpenStream(2, rate, &options)
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	if n, _ := small.Write(make([]float32, 600)); n != 100 || small.Refused() != 200 || small.Queued() != 100 {
		t.Fatalf("took %d, refused %d, queued %d", n, small.Refused(), small.Queued())
	}
}

func TestMemoryAndStreamErrors(t *testing.T) {
	engine := plainOffline(t)
	defer engine.Close()
	if _, err := engine.LoadMemory("junk", []byte("not audio at all, only text")); !errors.Is(err, ErrDecode) ||
		!strings.Contains(err.Error(), "junk") {
		t.Fatalf("junk: %v", err)
	}
	if _, err := engine.LoadMemory("empty", nil); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("empty: %v", err)
	}
	if _, err := engine.LoadPCMFloat32("odd", make([]float32, 3), 2, rate); err == nil ||
		!strings.Contains(err.Error(), "whole number") {
		t.Fatalf("odd: %v", err)
	}
	if _, err := engine.LoadPCMInt16("slow", make([]int16, 4), 1, 10); err == nil || !strings.Contains(err.Error(), "rate 10") {
		t.Fatalf("slow: %v", err)
	}
	if _, err := engine.OpenStream(3, rate, nil); err == nil || !strings.Contains(err.Error(), "channels 3") {
		t.Fatalf("3 channels: %v", err)
	}
	if _, err := engine.OpenStream(1, 100, nil); err == nil || !strings.Contains(err.Error(), "rate 100") {
		t.Fatalf("rate 100: %v", err)
	}
	options := DefaultStreamOptions()
	options.Volume = float32(math.NaN())
	if _, err := engine.OpenStream(1, rate, &options); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("NaN volume: %v", err)
	}
}
