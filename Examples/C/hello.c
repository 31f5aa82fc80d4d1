#include <soundstation.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    ss_engine *sound;
    if (ss_open(&sound, "auto", "Assets") != SS_OK) { fprintf(stderr, "%s\n", ss_last_error()); return 1; }
    if (ss_preload(sound, NULL, 0, NULL, NULL) != SS_OK) fprintf(stderr, "%s\n", ss_last_error());
    int reward = ss_sound_id(sound, "reward");  /* look ids up once, before the game loop */
    ss_music(sound, "main", 0.0);
    ss_play(sound, reward, 1.0f, 1.0f, -0.5f);  /* volume, pitch, pan */
    sleep(1);
    ss_close(sound);
    return 0;
}
