package main

import (
	"context"
	"fmt"
	"log"
	"time"

	soundstation "github.com/soundstation/soundstation/bindings/go"
)

func main() {
	engine, err := soundstation.OpenWith(soundstation.OpenOptions{Output: soundstation.OutputAuto, Assets: "Assets"})
	if err != nil {
		log.Fatal(err)
	}
	defer engine.Close()
	if err := engine.Preload(context.Background(), nil); err != nil { // every sound, before the game loop
		log.Fatal(err)
	}
	reward, _ := engine.SoundID("reward") // look ids up once
	engine.Music("main", 0)
	engine.Play(reward, 1, 1, -0.5) // volume, pitch, pan
	options := soundstation.DefaultPlayOptions()
	options.Loops = soundstation.LoopsForever
	jump, _ := engine.SoundID("jump")
	hum, err := engine.PlayVoice(jump, &options) // a handle to this one play
	if err != nil {
		log.Fatal(err)
	}
	time.Sleep(time.Second)
	hum.Stop(0.2)                           // that one sound, faded out
	fmt.Println("output:", engine.Output()) // "silent" when there was no device
	for _, event := range engine.Events() {
		fmt.Println(event.Type, event.Text) // Text: the name, or a notice's line
	}
}
