package main

import (
	"fmt"
	"log"
	"time"

	soundstation "github.com/soundstation/soundstation/bindings/go"
)

func main() {
	engine, err := soundstation.Open("auto", "Assets")
	if err != nil {
		log.Fatal(err)
	}
	defer engine.Close()
	if err := engine.Preload(nil); err != nil { // every sound, before the game loop
		log.Fatal(err)
	}
	reward, _ := engine.SoundID("reward") // look ids up once
	engine.Music("main", 0)
	engine.Play(reward, 1, 1, -0.5) // volume, pitch, pan
	time.Sleep(time.Second)
	for event, ok, _ := engine.PollEvent(); ok; event, ok, _ = engine.PollEvent() {
		fmt.Println(event.Type, event.Name)
	}
}
