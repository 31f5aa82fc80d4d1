#include "CFluidSynth.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The library's functions, found once by ssfs_load. */
static struct {
    fluid_settings_t *(*new_fluid_settings)(void);
    void (*delete_fluid_settings)(fluid_settings_t *);
    int (*fluid_settings_setnum)(fluid_settings_t *, const char *, double);
    int (*fluid_settings_setint)(fluid_settings_t *, const char *, int);
    int (*fluid_settings_setstr)(fluid_settings_t *, const char *, const char *);
    fluid_synth_t *(*new_fluid_synth)(fluid_settings_t *);
    void (*delete_fluid_synth)(fluid_synth_t *);
    int (*fluid_synth_sfload)(fluid_synth_t *, const char *, int);
    int (*fluid_synth_write_float)(fluid_synth_t *, int, void *, int, int, void *, int, int);
    fluid_player_t *(*new_fluid_player)(fluid_synth_t *);
    void (*delete_fluid_player)(fluid_player_t *);
    int (*fluid_player_add_mem)(fluid_player_t *, const void *, size_t);
    int (*fluid_player_set_loop)(fluid_player_t *, int);
    int (*fluid_player_play)(fluid_player_t *);
    int (*fluid_player_stop)(fluid_player_t *);
    int (*fluid_player_seek)(fluid_player_t *, int);
    fluid_log_function_t (*fluid_set_log_function)(int, fluid_log_function_t, void *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[256];

static void load(void) {
    void *library = dlopen("libfluidsynth.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(failure, sizeof failure, "%s", dlerror());
        return;
    }
#define FIND(name)                                                                   \
    do {                                                                             \
        *(void **)(&api.name) = dlsym(library, #name);                               \
        if (api.name == NULL) {                                                      \
            snprintf(failure, sizeof failure, "libfluidsynth.so.3 lacks %s", #name); \
            return;                                                                  \
        }                                                                            \
    } while (0)
    FIND(new_fluid_settings);
    FIND(delete_fluid_settings);
    FIND(fluid_settings_setnum);
    FIND(fluid_settings_setint);
    FIND(fluid_settings_setstr);
    FIND(new_fluid_synth);
    FIND(delete_fluid_synth);
    FIND(fluid_synth_sfload);
    FIND(fluid_synth_write_float);
    FIND(new_fluid_player);
    FIND(delete_fluid_player);
    FIND(fluid_player_add_mem);
    FIND(fluid_player_set_loop);
    FIND(fluid_player_play);
    FIND(fluid_player_stop);
    FIND(fluid_player_seek);
    FIND(fluid_set_log_function);
#undef FIND
    /* FluidSynth logs on stderr by default; a library never writes on the terminal. */
    for (int level = FLUID_PANIC; level <= FLUID_DBG; level++) api.fluid_set_log_function(level, NULL, NULL);
}

int ssfs_load(char *error, int size) {
    pthread_once(&once, load);
    if (failure[0] == '\0') return 0;
    if (error != NULL && size > 0) snprintf(error, (size_t)size, "%s", failure);
    return -1;
}

fluid_settings_t *ssfs_new_fluid_settings(void) { return api.new_fluid_settings(); }
void ssfs_delete_fluid_settings(fluid_settings_t *settings) { api.delete_fluid_settings(settings); }
int ssfs_fluid_settings_setnum(fluid_settings_t *settings, const char *name, double value) {
    return api.fluid_settings_setnum(settings, name, value);
}
int ssfs_fluid_settings_setint(fluid_settings_t *settings, const char *name, int value) {
    return api.fluid_settings_setint(settings, name, value);
}
int ssfs_fluid_settings_setstr(fluid_settings_t *settings, const char *name, const char *value) {
    return api.fluid_settings_setstr(settings, name, value);
}
fluid_synth_t *ssfs_new_fluid_synth(fluid_settings_t *settings) { return api.new_fluid_synth(settings); }
void ssfs_delete_fluid_synth(fluid_synth_t *synth) { api.delete_fluid_synth(synth); }
int ssfs_fluid_synth_sfload(fluid_synth_t *synth, const char *filename, int reset_presets) {
    return api.fluid_synth_sfload(synth, filename, reset_presets);
}
int ssfs_fluid_synth_write_float(fluid_synth_t *synth, int len, void *lout, int loff, int lincr, void *rout,
                                 int roff, int rincr) {
    return api.fluid_synth_write_float(synth, len, lout, loff, lincr, rout, roff, rincr);
}
fluid_player_t *ssfs_new_fluid_player(fluid_synth_t *synth) { return api.new_fluid_player(synth); }
void ssfs_delete_fluid_player(fluid_player_t *player) { api.delete_fluid_player(player); }
int ssfs_fluid_player_add_mem(fluid_player_t *player, const void *buffer, size_t len) {
    return api.fluid_player_add_mem(player, buffer, len);
}
int ssfs_fluid_player_set_loop(fluid_player_t *player, int loop) { return api.fluid_player_set_loop(player, loop); }
int ssfs_fluid_player_play(fluid_player_t *player) { return api.fluid_player_play(player); }
int ssfs_fluid_player_stop(fluid_player_t *player) { return api.fluid_player_stop(player); }
int ssfs_fluid_player_seek(fluid_player_t *player, int ticks) { return api.fluid_player_seek(player, ticks); }
