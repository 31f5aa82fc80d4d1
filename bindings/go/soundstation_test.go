package soundstation

import (
	"errors"
	"math"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

const rate = 48000

func assets(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "Assets")
}

func offline(t *testing.T) *Engine {
	t.Helper()
	engine, err := Open("offline:48000", assets(t))
	if err != nil {
		t.Fatalf("offline engine: %v", err)
	}
	if err := engine.Preload([]string{"reward"}); err != nil {
		t.Fatalf("preload reward: %v", err)
	}
	return engine
}

func firstSound(samples []float32) int {
	for frame := 0; frame < len(samples)/2; frame++ {
		if samples[2*frame] != 0 || samples[2*frame+1] != 0 {
			return frame
		}
	}
	return -1
}

// onset is the first sounding frame of reward played at `at` seconds, in one second rendered offline.
func onset(t *testing.T, at float64) int {
	engine := offline(t)
	defer engine.Close()
	reward, err := engine.SoundID("reward")
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.PlayAt(reward, at, 1, 0); err != nil {
		t.Fatal(err)
	}
	buf := make([]float32, 2*rate)
	if n, err := engine.Render(buf); n != rate || err != nil {
		t.Fatalf("render: %d frames, %v", n, err)
	}
	return firstSound(buf)
}

func TestRewardStartsAtItsExactFrame(t *testing.T) {
	lead := onset(t, 0)
	if lead < 0 || lead >= 480 {
		t.Fatalf("reward at 0 starts at frame %d, wanted within 10 ms", lead)
	}
	for _, at := range []float64{0.25, 0.3000104, 0.5} {
		wanted := int(math.Round(at*rate)) + lead
		if got := onset(t, at); got != wanted {
			t.Errorf("reward at %v s: first sound at frame %d, wanted %d", at, got, wanted)
		}
	}
}

func TestEventsReportTheStart(t *testing.T) {
	engine := offline(t)
	defer engine.Close()
	reward, _ := engine.SoundID("reward")
	if err := engine.PlayAt(reward, 0.1, 1, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.Render(make([]float32, 2*9600)); err != nil {
		t.Fatal(err)
	}
	event, ok, err := engine.PollEvent()
	if !ok || err != nil {
		t.Fatalf("no event: %v", err)
	}
	if event.Type != Started || event.Sound != reward || event.Name != "reward" || math.Abs(event.Time-0.1) > 1e-9 {
		t.Errorf("event %+v", event)
	}
	if engine.Output() != "offline:48000" {
		t.Errorf("output %q", engine.Output())
	}
}

func code(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

func TestErrorsNameTheValue(t *testing.T) {
	if _, err := Open("speakers", ""); code(err) != InvalidArgument || !strings.Contains(err.Error(), "speakers") {
		t.Errorf("speakers: %v", err)
	}
	if _, err := Open("offline", "/nonexistent/assets"); code(err) != Catalogue || !strings.Contains(err.Error(), "/nonexistent/assets") {
		t.Errorf("missing assets: %v", err)
	}
	engine := offline(t)
	if _, err := engine.SoundID("rewrad"); code(err) != UnknownName || !strings.Contains(err.Error(), "rewrad") {
		t.Errorf("rewrad: %v", err)
	}
	if _, err := engine.SoundID("jump"); code(err) != NotLoaded || !strings.Contains(err.Error(), "jump") {
		t.Errorf("jump: %v", err)
	}
	reward, _ := engine.SoundID("reward")
	if err := engine.PlayAt(reward, math.NaN(), 1, 0); code(err) != InvalidArgument {
		t.Errorf("NaN: %v", err)
	}
	if err := engine.SetVolume("drums", 0.5); !strings.Contains(err.Error(), "drums") {
		t.Errorf("drums: %v", err)
	}
	if _, err := engine.Render(make([]float32, 3)); code(err) != InvalidArgument {
		t.Errorf("odd buffer: %v", err)
	}
	engine.Close()
	if err := engine.Play(reward, 1, 1, 0); code(err) != Closed {
		t.Errorf("after Close: %v", err)
	}
	live, err := Open("silent", "")
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if _, err := live.Render(make([]float32, 2)); code(err) != NotOffline {
		t.Errorf("render on silent: %v", err)
	}
}

func TestPlayFromManyGoroutines(t *testing.T) {
	engine := offline(t)
	defer engine.Close()
	reward, _ := engine.SoundID("reward")
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				if err := engine.Play(reward, 0.1, 1, 0); err != nil && !errors.Is(err, ErrDropped) {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if n, err := engine.Render(make([]float32, 2*4800)); n != 4800 || err != nil {
		t.Fatalf("render: %d, %v", n, err)
	}
}
