#ifndef SOUNDSTATION_CFLUIDSYNTH_H
#define SOUNDSTATION_CFLUIDSYNTH_H

/* FluidSynth, loaded with dlopen the first time a MIDI file is opened: linking it would map its
 * audio drivers' libraries (PulseAudio, JACK, SDL2, GLib: about 40) into every program that uses the
 * engine, MIDI or not. Its header gives the types; each ssfs_ function calls the library's function
 * of the same name (without the prefix) and must only be called after ssfs_load succeeded. */
#include <fluidsynth.h>

/* Loads libfluidsynth.so.3 once per process. Returns 0, or -1 with what dlopen or dlsym said in
 * `error` (NUL-terminated, cut to `size` bytes). Threads: any. */
int ssfs_load(char *error, int size);

fluid_settings_t *ssfs_new_fluid_settings(void);
void ssfs_delete_fluid_settings(fluid_settings_t *settings);
int ssfs_fluid_settings_setnum(fluid_settings_t *settings, const char *name, double value);
int ssfs_fluid_settings_setint(fluid_settings_t *settings, const char *name, int value);
int ssfs_fluid_settings_setstr(fluid_settings_t *settings, const char *name, const char *value);
fluid_synth_t *ssfs_new_fluid_synth(fluid_settings_t *settings);
void ssfs_delete_fluid_synth(fluid_synth_t *synth);
int ssfs_fluid_synth_sfload(fluid_synth_t *synth, const char *filename, int reset_presets);
int ssfs_fluid_synth_write_float(fluid_synth_t *synth, int len, void *lout, int loff, int lincr, void *rout,
                                 int roff, int rincr);
fluid_player_t *ssfs_new_fluid_player(fluid_synth_t *synth);
void ssfs_delete_fluid_player(fluid_player_t *player);
int ssfs_fluid_player_add_mem(fluid_player_t *player, const void *buffer, size_t len);
int ssfs_fluid_player_set_loop(fluid_player_t *player, int loop);
int ssfs_fluid_player_play(fluid_player_t *player);
int ssfs_fluid_player_stop(fluid_player_t *player);
int ssfs_fluid_player_seek(fluid_player_t *player, int ticks);

#endif
