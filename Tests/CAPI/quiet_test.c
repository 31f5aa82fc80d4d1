/* A curses program that draws its screen first and then does everything that used to write on a
 * game's terminal: opens "auto" with no sound server (OpenAL Soft falls back to ALSA, which finds no
 * card), preloads a cut-short WAV, a damaged MP3 and a bad module, plays them, and streams the damaged
 * MP3 as music for a while. It records what it drew, line by line, in RECORD, and every notice event
 * after a "--- notices" line; Scripts/e2e-quiet.sh compares the tmux pane with the lines drawn (the
 * terminal must hold exactly those) and checks the notices.
 * Usage: quiet_test ASSETS_DIR RECORD [SECONDS]. Exit 1 when a call fails in a way it should not. */
#define _POSIX_C_SOURCE 200809L
#include <soundstation.h>

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROWS 8
static char drawn[ROWS][128];
static char notices[64][256];
static int notice_count;

static void draw(int row, const char *text) {
    snprintf(drawn[row], sizeof drawn[row], "%s", text);
    mvaddstr(row, 0, drawn[row]);
    clrtoeol();
    move(ROWS, 0);
    refresh();
}

static void pause_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static void drain(ss_engine *engine) {
    ss_event event;
    while (ss_poll_event(engine, &event, sizeof(ss_event)) == 1) {
        if (event.type == SS_EVENT_NOTICE && notice_count < 64) {
            snprintf(notices[notice_count++], sizeof notices[0], "%s", event.text);
        }
    }
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    int seconds = argc > 3 ? atoi(argv[3]) : 3;
    char line[128];
    initscr();
    noecho();
    curs_set(0);
    draw(0, "QUIET TEST (C): this screen is all the terminal may show");
    pause_ms(300);

    ss_engine *engine = NULL;
    int result = ss_open(&engine, "auto", argv[1]);
    snprintf(line, sizeof line, "open: %s, output %s", ss_result_name(result), ss_output(engine));
    draw(1, line);
    if (result != SS_OK) { endwin(); return 1; }

    const char *effects[] = {"cut", "damaged", "module"};
    result = ss_preload(engine, effects, 3, NULL, NULL);
    snprintf(line, sizeof line, "preload: %s", ss_result_name(result));
    draw(2, line);
    /* The bad module is the one failure; its message names it (kept off the screen, in the record). */
    int ok = result == SS_ERR_DECODE && strstr(ss_last_error(), "bad.mod") != NULL;
    const char *streamed[] = {"stream"};
    result = ss_preload(engine, streamed, 1, NULL, NULL);
    snprintf(line, sizeof line, "preload stream: %s", ss_result_name(result));
    draw(3, line);
    ok = ok && result == SS_OK;

    int cut = ss_sound_id(engine, "cut"), damaged = ss_sound_id(engine, "damaged");
    ok = ok && cut >= 0 && damaged >= 0;
    result = ss_music(engine, "stream", 0);
    ok = ok && result == SS_OK;
    for (int tick = 0; tick < seconds * 10; tick++) {
        if (tick % 5 == 0) {
            ss_play(engine, cut, 1, 1, 0);
            ss_play(engine, damaged, 1, 1, 0);
        }
        drain(engine);
        snprintf(line, sizeof line, "playing: %d.%d s, notices %d", tick / 10, tick % 10, notice_count);
        draw(4, line);
        pause_ms(100);
    }
    ss_stop_music(engine, 0);
    ss_close(engine);
    draw(5, ok ? "done: ok" : "done: FAILED");

    FILE *record = fopen(argv[2], "w");
    if (record == NULL) return 1;
    for (int row = 0; row < ROWS; row++) {
        if (drawn[row][0] != '\0') fprintf(record, "%s\n", drawn[row]);
    }
    fprintf(record, "--- notices\n");
    for (int i = 0; i < notice_count; i++) fprintf(record, "%s\n", notices[i]);
    fclose(record);
    /* Stays on its screen until the script has captured it. */
    pause_ms(60000);
    endwin();
    return ok ? 0 : 1;
}
