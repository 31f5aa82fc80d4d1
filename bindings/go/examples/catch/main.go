// Catch, a terminal game in Go with the standard library only: stars fall, move the basket with a/d
// (or the arrow keys) to catch them; q quits. The terminal is put in raw mode with `stty`, the screen
// drawn with ANSI escapes, and every catch, miss and level is a sound.
//
//	go run ./examples/catch [--autoplay] [--frames N] [--output OUT] [--assets DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"time"

	soundstation "github.com/soundstation/soundstation/bindings/go"
)

const width, height = 40, 16

func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// rawTerminal puts the terminal in raw mode with stty and returns what restores it.
func rawTerminal() func() {
	if !isTerminal(os.Stdin) {
		return func() {}
	}
	stty := func(args ...string) {
		cmd := exec.Command("stty", args...)
		cmd.Stdin = os.Stdin
		_ = cmd.Run()
	}
	cmd := exec.Command("stty", "-g")
	cmd.Stdin = os.Stdin
	saved, _ := cmd.Output()
	stty("raw", "-echo")
	fmt.Print("\x1b[?25l\x1b[2J")
	return func() {
		stty(strings.TrimSpace(string(saved)))
		fmt.Print("\x1b[?25h\x1b[2J\x1b[H")
	}
}

func play(autoplay bool, frames int, output, assets string) (score, missed int, err error) {
	engine, err := soundstation.Open(output, assets)
	if err != nil {
		return 0, 0, err
	}
	defer engine.Close()
	loading, stop := signal.NotifyContext(context.Background(), os.Interrupt) // Ctrl-C stops the loading
	err = engine.Preload(loading, nil)
	stop()
	if err != nil {
		return 0, 0, err
	}
	ids := map[string]int{}
	for _, name := range []string{"coin", "miss", "level-up"} {
		if ids[name], err = engine.SoundID(name); err != nil {
			return 0, 0, err
		}
	}
	if err := engine.Music("game", 0); err != nil {
		return 0, 0, err
	}
	keys := make(chan byte, 16)
	if isTerminal(os.Stdin) {
		go func() {
			buf := make([]byte, 1)
			for {
				if n, err := os.Stdin.Read(buf); err != nil || n == 0 {
					return
				}
				keys <- buf[0]
			}
		}()
	}
	restore := rawTerminal()
	defer restore()
	basket, starX, starY, seed := width/2, 7, 0, uint32(12345)
	random := func(limit int) int {
		seed = seed*1103515245 + 12345
		return int((seed >> 16) % uint32(limit))
	}
	for frame := 1; ; frame++ {
		for len(keys) > 0 {
			switch <-keys {
			case 'q':
				return score, missed, nil
			case 'a', 'D':
				basket = max(basket-2, 1)
			case 'd', 'C':
				basket = min(basket+2, width-2)
			}
		}
		if autoplay && starX != basket {
			basket += (starX - basket) / abs(starX-basket)
		}
		starY++
		if starY == height-1 {
			if abs(starX-basket) <= 1 {
				score++
				err = engine.Play(ids["coin"], 1, 1, float32(starX)/width*2-1)
				if err == nil && score%10 == 0 {
					err = engine.Play(ids["level-up"], 1, 1, 0)
				}
			} else {
				missed++
				err = engine.Play(ids["miss"], 1, 1, 0)
			}
			if err != nil {
				return score, missed, err
			}
			starX, starY = 1+random(width-2), 0
		}
		var screen strings.Builder
		fmt.Fprintf(&screen, "\x1b[HCATCH  score %d  missed %d  (a/d move, q quits)\r\n", score, missed)
		for y := 0; y < height; y++ {
			row := []byte(strings.Repeat(" ", width))
			if y == starY {
				row[starX] = '*'
			}
			if y == height-1 {
				row[basket-1], row[basket], row[basket+1] = '\\', '_', '/'
			}
			fmt.Fprintf(&screen, "|%s|\r\n", row)
		}
		fmt.Print(screen.String())
		if frames > 0 && frame >= frames {
			return score, missed, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func max(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func main() {
	autoplay := flag.Bool("autoplay", false, "move the basket by itself")
	frames := flag.Int("frames", 0, "stop after this many frames (0: play until q)")
	output := flag.String("output", "auto", `"auto", "device", "silent" or "offline:RATE"`)
	defaultAssets := os.Getenv("SOUNDSTATION_ASSETS")
	if defaultAssets == "" {
		defaultAssets = "Assets"
	}
	assets := flag.String("assets", defaultAssets, "the folder with catalogue.json")
	flag.Parse()
	score, missed, err := play(*autoplay, *frames, *output, *assets)
	if err != nil {
		fmt.Fprintf(os.Stderr, "catch: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("catch: score %d, missed %d\n", score, missed)
}
