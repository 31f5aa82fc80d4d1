package soundstation

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

const rate = 48000

func assets(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "Assets")
}

func offlineWith(t *testing.T, names ...string) *Engine {
	t.Helper()
	engine, err := OpenWith(OpenOptions{Output: OutputOffline, SampleRate: rate, Assets: assets(t)})
	if err != nil {
		t.Fatalf("offline engine: %v", err)
	}
	if err := engine.Preload(context.Background(), names); err != nil {
		t.Fatalf("preload %v: %v", names, err)
	}
	return engine
}

func offline(t *testing.T) *Engine { return offlineWith(t, "reward") }

func firstSound(samples []float32) int {
	for frame := 0; frame < len(samples)/2; frame++ {
		if samples[2*frame] != 0 || samples[2*frame+1] != 0 {
			return frame
		}
	}
	return -1
}

// render mixes seconds of sound and returns it (interleaved stereo).
func render(t *testing.T, engine *Engine, seconds float64) []float32 {
	t.Helper()
	buf := make([]float32, 2*int(seconds*rate))
	if n, err := engine.Render(buf); n != len(buf)/2 || err != nil {
		t.Fatalf("render: %d frames, %v", n, err)
	}
	return buf
}

// energy is the mean square of one channel (0 left, 1 right) of interleaved stereo.
func energy(samples []float32, channel int) float64 {
	sum := 0.0
	for i := channel; i < len(samples); i += 2 {
		sum += float64(samples[i]) * float64(samples[i])
	}
	return sum / float64(len(samples)/2)
}

func both(samples []float32) float64 { return energy(samples, 0) + energy(samples, 1) }

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
	return firstSound(render(t, engine, 1))
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

func TestEventsReportTheStartWithItsVoice(t *testing.T) {
	engine := offline(t)
	defer engine.Close()
	reward, _ := engine.SoundID("reward")
	options := DefaultPlayOptions()
	options.StartTime = 0.1
	voice, err := engine.PlayVoice(reward, &options)
	if err != nil {
		t.Fatal(err)
	}
	render(t, engine, 0.2)
	events := engine.Events()
	if len(events) == 0 {
		t.Fatal("no event")
	}
	event := events[0]
	if event.Type != EventStarted || event.Sound != reward || event.Name != "reward" || event.Text != "reward" ||
		event.Voice != voice.ID() || math.Abs(event.Time-0.1) > 1e-9 {
		t.Errorf("event %+v, voice %d", event, voice.ID())
	}
	if engine.Output() != "offline:48000" {
		t.Errorf("output %q", engine.Output())
	}
	if sampleRate, err := engine.SampleRate(); sampleRate != rate || err != nil {
		t.Errorf("sample rate %d, %v", sampleRate, err)
	}
}

// Two loops, one on each side: the one stopped goes silent and the other plays on.
func TestAVoiceStopsWhileAnotherLoopsOn(t *testing.T) {
	engine := offlineWith(t, "reward", "upgrade")
	defer engine.Close()
	reward, _ := engine.SoundID("reward")
	upgrade, _ := engine.SoundID("upgrade")
	left, right := DefaultPlayOptions(), DefaultPlayOptions()
	left.Loops, left.Pan = LoopsForever, -1
	right.Loops, right.Pan = LoopsForever, 1
	leftVoice, err := engine.PlayVoice(reward, &left)
	if err != nil {
		t.Fatal(err)
	}
	rightVoice, err := engine.PlayVoice(upgrade, &right)
	if err != nil {
		t.Fatal(err)
	}
	before := render(t, engine, 1)
	if energy(before, 0) < 1e-5 || energy(before, 1) < 1e-5 {
		t.Fatalf("both loops heard before the stop: left %g, right %g", energy(before, 0), energy(before, 1))
	}
	if err := leftVoice.Stop(0.05); err != nil {
		t.Fatal(err)
	}
	render(t, engine, 0.1) // the fade
	after := render(t, engine, 1)
	if energy(after, 0) > 1e-9 {
		t.Errorf("the stopped voice is still heard: left energy %g", energy(after, 0))
	}
	if energy(after, 1) < energy(before, 1)/4 {
		t.Errorf("the other loop went quiet: right energy %g, was %g", energy(after, 1), energy(before, 1))
	}
	if playing, err := leftVoice.IsPlaying(); playing || err != nil {
		t.Errorf("stopped voice: playing %v, %v", playing, err)
	}
	if playing, err := rightVoice.IsPlaying(); !playing || err != nil {
		t.Errorf("looping voice: playing %v, %v", playing, err)
	}
	if err := leftVoice.Stop(0); err != nil {
		t.Errorf("stopping an ended voice is a no-op, got %v", err)
	}
	var finished *Event
	for _, event := range engine.Events() {
		if event.Type == EventFinished && event.Voice == leftVoice.ID() {
			event := event
			finished = &event
		}
	}
	if finished == nil || finished.Reason != FinishStopped {
		t.Errorf("finished event of the stopped voice: %+v", finished)
	}
	if err := rightVoice.SetVolume(0.5, 0); err != nil {
		t.Error(err)
	}
	if err := rightVoice.SetPitch(2, 0.1); err != nil {
		t.Error(err)
	}
	if err := rightVoice.SetPan(0, 0); err != nil {
		t.Error(err)
	}
	if err := rightVoice.Pause(); err != nil {
		t.Error(err)
	}
	render(t, engine, 0.1)
	if paused := render(t, engine, 0.5); both(paused) > 1e-9 {
		t.Errorf("paused voice heard: %g", both(paused))
	}
	if err := rightVoice.Resume(); err != nil {
		t.Error(err)
	}
	if resumed := render(t, engine, 0.5); both(resumed) < 1e-6 {
		t.Errorf("resumed voice not heard: %g", both(resumed))
	}
}

// The music pauses alone: an effect started while it is paused is heard, and the music stays
// paused until ResumeMusic.
func TestMusicPausesWhileAnEffectPlays(t *testing.T) {
	engine := offlineWith(t, "main", "reward")
	defer engine.Close()
	reward, _ := engine.SoundID("reward")
	if err := engine.Music("main", 0); err != nil {
		t.Fatal(err)
	}
	if music := render(t, engine, 0.5); both(music) < 1e-5 {
		t.Fatalf("music not heard: %g", both(music))
	}
	if err := engine.PauseMusic(); err != nil {
		t.Fatal(err)
	}
	render(t, engine, 0.1)
	if silence := render(t, engine, 0.3); both(silence) > 1e-9 {
		t.Fatalf("paused music heard: %g", both(silence))
	}
	options := DefaultPlayOptions()
	options.Loops = LoopsForever
	effect, err := engine.PlayVoice(reward, &options)
	if err != nil {
		t.Fatal(err)
	}
	if heard := render(t, engine, 0.5); both(heard) < 1e-5 {
		t.Errorf("the effect is not heard while the music is paused: %g", both(heard))
	}
	effect.Stop(0)
	render(t, engine, 0.1)
	if silence := render(t, engine, 0.3); both(silence) > 1e-9 {
		t.Errorf("the music came back without ResumeMusic: %g", both(silence))
	}
	if err := engine.ResumeMusic(); err != nil {
		t.Fatal(err)
	}
	if music := render(t, engine, 0.5); both(music) < 1e-5 {
		t.Errorf("resumed music not heard: %g", both(music))
	}
}

// Music from a file path, with no catalogue at all.
func TestMusicFromAFilePath(t *testing.T) {
	engine, err := OpenWith(OpenOptions{Output: OutputOffline})
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	id, err := engine.LoadMusicFile("song", filepath.Join(assets(t), "Music", "main.ogg"))
	if err != nil {
		t.Fatal(err)
	}
	options := DefaultMusicOptions()
	options.Loops = 0
	if err := engine.MusicWith("song", &options); err != nil {
		t.Fatal(err)
	}
	if music := render(t, engine, 0.5); both(music) < 1e-5 {
		t.Errorf("music from the file not heard: %g", both(music))
	}
	events := engine.Events()
	if len(events) == 0 || events[0].Type != EventStarted || events[0].Name != "song" || events[0].Sound != id {
		t.Errorf("events %+v", events)
	}
	if _, err := engine.LoadMusicFile("gone", "/nonexistent/song.ogg"); !errors.Is(err, ErrDecode) ||
		!strings.Contains(err.Error(), "/nonexistent/song.ogg") {
		t.Errorf("missing file: %v", err)
	}
}

// A file cut short arrives as a notice with its whole line; two triggers at once as a coalesced event.
func TestNoticeAndCoalescedEventsCarryTheirText(t *testing.T) {
	coin, err := os.ReadFile(filepath.Join(assets(t), "Effects", "coin.wav"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "a-file-whose-name-is-long-enough-to-be-cut-in-the-name-field-cut.wav")
	if err := os.WriteFile(cut, coin[:len(coin)*4/10], 0o644); err != nil {
		t.Fatal(err)
	}
	engine := offline(t)
	defer engine.Close()
	if _, err := engine.LoadFile("cut", cut); err != nil {
		t.Fatal(err)
	}
	var notice *Event
	for _, event := range engine.Events() {
		if event.Type == EventNotice {
			event := event
			notice = &event
		}
	}
	if notice == nil || !strings.Contains(notice.Text, "cut short") || !strings.Contains(notice.Text, cut) ||
		len(notice.Name) > 63 || !strings.HasPrefix(notice.Text, notice.Name) || notice.Sound != -1 || notice.Voice != 0 {
		t.Fatalf("notice %+v", notice)
	}
	reward, _ := engine.SoundID("reward")
	engine.Play(reward, 1, 1, 0)
	engine.Play(reward, 1, 1, 0)
	render(t, engine, 0.1)
	kinds := map[EventType]int{}
	for _, event := range engine.Events() {
		kinds[event.Type]++
		if event.Type == EventCoalesced && (event.Name != "reward" || event.Text != "reward" || event.Voice == 0) {
			t.Errorf("coalesced event %+v", event)
		}
	}
	if kinds[EventStarted] != 1 || kinds[EventCoalesced] != 1 {
		t.Errorf("two triggers at once: %v, wanted one started and one coalesced", kinds)
	}
	if EventCoalesced.String() != "coalesced" || EventNotice.String() != "notice" {
		t.Errorf("names %q %q", EventCoalesced, EventNotice)
	}
}

func TestErrorsAreSentinelsAndNameTheValueInGoTerms(t *testing.T) {
	if _, err := Open("speakers", ""); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "speakers") {
		t.Errorf("speakers: %v", err)
	}
	if _, err := OpenWith(OpenOptions{Output: OutputOffline, Assets: "/nonexistent/assets"}); !errors.Is(err, ErrCatalogue) ||
		!strings.Contains(err.Error(), "/nonexistent/assets") {
		t.Errorf("missing assets: %v", err)
	}
	engine := offline(t)
	if _, err := engine.SoundID("rewrad"); !errors.Is(err, ErrUnknownName) || !strings.Contains(err.Error(), "rewrad") {
		t.Errorf("rewrad: %v", err)
	}
	if errors.Is(ErrUnknownName, ErrNotLoaded) {
		t.Error("sentinels compare equal")
	}
	_, err := engine.SoundID("jump")
	if !errors.Is(err, ErrNotLoaded) || !strings.Contains(err.Error(), "jump") {
		t.Errorf("jump: %v", err)
	}
	if strings.Contains(err.Error(), "ss_") {
		t.Errorf("message names a C function: %v", err)
	}
	reward, _ := engine.SoundID("reward")
	err = engine.Play(reward, 1, 1, float32(math.NaN()))
	if !errors.Is(err, ErrInvalidArgument) || strings.Contains(err.Error(), "ss_play") {
		t.Errorf("NaN pan: %v", err)
	}
	if err := engine.SetVolume(Bus(7), 0.5); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "7") {
		t.Errorf("bus 7: %v", err)
	}
	if _, err := engine.Render(make([]float32, 3)); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("odd buffer: %v", err)
	}
	if _, err := engine.PlayVoice(reward, &PlayOptions{Volume: 1, Pitch: 99, Priority: -1, StartTime: -1}); !errors.Is(err, ErrInvalidArgument) ||
		!strings.Contains(err.Error(), "99") {
		t.Errorf("pitch 99: %v", err)
	}
	if ErrUnknownName.Error() != "SS_ERR_UNKNOWN_NAME" {
		t.Errorf("code name %q", ErrUnknownName.Error())
	}
	if err := engine.Close(); err != nil {
		t.Fatal(err)
	}
	if err := engine.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
	if err := engine.Play(reward, 1, 1, 0); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
	if engine.Output() != "offline:48000" {
		t.Errorf("output after Close: %q", engine.Output())
	}
	live, err := OpenWith(OpenOptions{Output: OutputSilent})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if _, err := live.Render(make([]float32, 2)); !errors.Is(err, ErrNotOffline) {
		t.Errorf("render on silent: %v", err)
	}
	if live.Output() != "silent" {
		t.Errorf("output %q", live.Output())
	}
}

func TestCloseRefusesWhileRenderRuns(t *testing.T) {
	engine := offline(t)
	started := make(chan struct{})
	done := make(chan error)
	go func() {
		close(started)
		_, err := engine.Render(make([]float32, 2*rate*20)) // long enough to be inside it
		done <- err
	}()
	<-started
	deadline := time.Now().Add(5 * time.Second)
	var refused error
	for time.Now().Before(deadline) {
		engine.mu.Lock()
		busy := engine.busy["Render"]
		engine.mu.Unlock()
		if busy > 0 {
			refused = engine.Close()
			break
		}
		runtime.Gosched()
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if refused == nil || !strings.Contains(refused.Error(), "Engine.Render") {
		t.Errorf("Close during Render: %v", refused)
	}
	if err := engine.Close(); err != nil {
		t.Errorf("Close after Render: %v", err)
	}
}

func TestPreloadStopsWhenItsContextIsCancelled(t *testing.T) {
	engine, err := OpenWith(OpenOptions{Output: OutputOffline, Assets: assets(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := engine.Preload(ctx, nil); !errors.Is(err, ErrCancelled) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	// Cancelled while it runs: the first progress callback cancels the context.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	err = engine.PreloadProgress(ctx, nil, func(fraction float64) {
		calls++
		cancel()
		time.Sleep(50 * time.Millisecond) // gives the watcher its ss_cancel_preload before the next sound
	})
	if !errors.Is(err, ErrCancelled) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled mid-way: %v after %d progress calls", err, calls)
	}
	if calls == 0 {
		t.Error("no progress call")
	}
	var fractions []float64
	if err := engine.PreloadProgress(context.Background(), []string{"reward", "jump"}, func(f float64) {
		fractions = append(fractions, f)
	}); err != nil {
		t.Fatal(err)
	}
	if len(fractions) != 2 || fractions[1] != 1 {
		t.Errorf("progress %v", fractions)
	}
}

func TestEveryOtherCallWorks(t *testing.T) {
	engine := offlineWith(t, "reward", "game")
	defer engine.Close()
	reward, _ := engine.SoundID("reward")
	checks := map[string]error{
		"SetGrid":        engine.SetGrid(80, 24),
		"SetListener":    engine.SetListener(40, 12, 0),
		"PlayPosition":   engine.PlayPosition(reward, 0, 12, 1, 1),
		"SetFilter":      engine.SetFilter(BusEffects, FilterLowpass, 1000, 0.7071, 0),
		"SetReverb":      engine.SetReverb(BusEffects, "cave"),
		"SetVolume":      engine.SetVolume(BusMaster, 0.8),
		"Music":          engine.MusicWith("game", &MusicOptions{Point: MusicBar, Bars: 1, Loops: LoopsDefault}),
		"MusicIntensity": engine.MusicIntensity(0.5, 0),
		"PauseAll":       engine.PauseAll(),
		"ResumeAll":      engine.ResumeAll(),
		"StopEffects":    engine.StopEffects(0),
		"CancelPreload":  engine.CancelPreload(),
	}
	for name, err := range checks {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	left := render(t, engine, 1)
	if both(left) < 1e-6 {
		t.Errorf("nothing heard: %g", both(left))
	}
	position, ok, err := engine.MusicPosition()
	if !ok || err != nil || position.Bar < 1 || position.Beat < 1 {
		t.Errorf("music position %+v %v %v", position, ok, err)
	}
	if now, err := engine.Time(); err != nil || math.Abs(now-1) > 1e-9 {
		t.Errorf("time %v %v", now, err)
	}
	if err := engine.SetReverb(BusEffects, "carpark"); !errors.Is(err, ErrUnknownName) || !strings.Contains(err.Error(), "carpark") {
		t.Errorf("reverb carpark: %v", err)
	}
	if err := engine.StopMusic(0.1); err != nil {
		t.Error(err)
	}
	if LibraryVersion()/10000 != APIVersion/10000 {
		t.Errorf("library %d, header %d", LibraryVersion(), APIVersion)
	}
}

func TestAnEngineNeverClosedIsClosedByItsFinalizer(t *testing.T) {
	closed, err := openUnreferenced()
	if err != nil {
		t.Fatal(err)
	}
	if closed() {
		t.Fatal("closed before the collector ran")
	}
	deadline := time.Now().Add(10 * time.Second)
	for !closed() && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if !closed() {
		t.Error("an unreachable Engine was not closed by its finalizer")
	}
}

func TestStructLayoutsAreCs(t *testing.T) {
	c, goSide := cLayout(), goLayout()
	for i, name := range layoutNames {
		if c[i] != goSide[i] {
			t.Errorf("%s: C %d, Go %d", name, c[i], goSide[i])
		}
	}
	if c[0] != 352 {
		t.Errorf("sizeof ss_event %d, 1.0's is 352", c[0])
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
	render(t, engine, 0.1)
}

func TestMessagesUseGoNames(t *testing.T) {
	for c, want := range map[string]string{
		"ss_play: pan nan":                          "Engine.Play: pan nan",
		"preload it first with ss_preload":          "preload it first with Engine.Preload",
		"ss_voice_stop: voice 0; see ss_play_voice": "Voice.Stop: voice 0; see Engine.PlayVoice",
		"my_ss_play stays, ss_nothing stays":        "my_ss_play stays, ss_nothing stays",
	} {
		if got := goTerms(c); got != want {
			t.Errorf("goTerms(%q) = %q, want %q", c, got, want)
		}
	}
}
