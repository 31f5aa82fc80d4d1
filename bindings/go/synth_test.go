package soundstation

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fnv1a is FNV-1a, 64-bit, of the floats' little-endian bytes (Tests/Synth/README.md).
func fnv1a(samples []float32) string {
	value := uint64(0xcbf29ce484222325)
	var bytes [4]byte
	for _, sample := range samples {
		binary.LittleEndian.PutUint32(bytes[:], math.Float32bits(sample))
		for _, b := range bytes {
			value = (value ^ uint64(b)) * 0x100000001b3
		}
	}
	return fmt.Sprintf("%016x", value)
}

func TestSynthRendersTheSameBytesAsSwift(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("..", "..", "Tests", "Synth", "coin-seed7.fnv1a"))
	if err != nil {
		t.Fatal(err)
	}
	engine, err := OpenWith(OpenOptions{Output: OutputOffline, SampleRate: rate})
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	coin, err := engine.Synth("coin", `{"preset": "coin", "seed": 7}`)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Play(coin, 1, 1, 0); err != nil {
		t.Fatal(err)
	}
	samples := make([]float32, 2*24000)
	if _, err := engine.Render(samples); err != nil {
		t.Fatal(err)
	}
	if got, want := fnv1a(samples), strings.TrimSpace(string(golden)); got != want {
		t.Fatalf("coin seed 7 hashes to %s, Swift's to %s", got, want)
	}
	// The preset helper's form, another seed: other bytes.
	other, err := engine.Synth("coin8", SynthPreset("coin", 8, 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Play(other, 1, 1, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.Render(samples); err != nil {
		t.Fatal(err)
	}
	if fnv1a(samples) == strings.TrimSpace(string(golden)) {
		t.Fatal("seed 8 renders seed 7's bytes")
	}
	_, err = engine.Synth("x", `{"preset": "kazoo"}`)
	var failure *Error
	if !errors.As(err, &failure) || failure.Code != ErrInvalidArgument || !strings.Contains(failure.Message, "kazoo") {
		t.Fatalf("a bad preset: %v", err)
	}
	if _, err := engine.Synth("y\x00", `{}`); err == nil {
		t.Fatal("a NUL in the name was taken")
	}
}
