/* Catch: a curses game with sound, the C example of libsoundstation.
 *
 * Glyphs fall; move the paddle with the arrow keys (or a/d) to catch coins ($) and stars (*),
 * let bombs (@) fall past. Each scene has its music ("main" on the menu, "game" in play, a crossfade
 * between them); catching, missing, bombs and levels have their effects.
 *
 * The game logic ticks from a SIGALRM timer (setitimer, 20 ms) whose handler moves the glyphs and
 * calls ss_play, which is async-signal-safe; the main loop reads keys and draws, blocking SIGALRM
 * only while it touches the shared state. Music switches (ss_music is not signal-safe) are made by
 * the main loop when the handler changes the scene.
 *
 *     cc -o catch Examples/CursesC/catch.c $(pkg-config --cflags --libs soundstation) -lncurses
 *     ./catch [--output auto|device|silent] [--assets DIR | --synth] [--autoplay] [--frames N]
 *
 * --output defaults to $SOUNDSTATION_OUTPUT, else "auto" (the device, or silence when there is
 * none); --assets to $SOUNDSTATION_ASSETS, else "Assets". --synth needs no asset folder: every
 * effect is made by the engine's sfxr generator (ss_synth) from a preset and a seed, the coins and
 * bombs vary a little at each catch, and there is no music. --autoplay starts a game by itself and
 * moves the paddle; --frames N quits after N drawn frames (about 30 a second). Keys: Enter/s starts,
 * arrows or a/d move, p pauses, m goes back to the menu, q quits.
 */
#define _POSIX_C_SOURCE 200809L
#include <soundstation.h>

#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

enum { WIDTH = 40, HEIGHT = 18, MAX_GLYPHS = 24, PADDLE = 7, TICK_MS = 20 };
enum { MENU, PLAYING, OVER };
enum { COIN, STAR, BOMB };

struct glyph { int active, kind, x, y, wait; };

/* Everything the handler and the main loop share. The main loop blocks SIGALRM around its use. */
static struct {
    int scene, paddle, move, score, lives, level, ticks, caught, missed;
    struct glyph glyphs[MAX_GLYPHS];
    unsigned seed;
} game;

static ss_engine *sound;
static int fx_coin, fx_reward, fx_miss, fx_explosion, fx_level, fx_tick, fx_click, fx_jump;
static volatile sig_atomic_t autoplay;

static void play(int id, float volume, float pan) { /* from the handler: ss_play only */
    if (id >= 0) ss_play(sound, id, volume, 1.0f, pan);
}

static float pan_of(int x) { return (float)(2 * x - (WIDTH - 1)) / (float)(WIDTH - 1); }

static unsigned next_random(void) { /* rand() is not async-signal-safe; this is */
    game.seed = game.seed * 1103515245u + 12345u;
    return (game.seed >> 16) & 0x7fff;
}

static void spawn(void) {
    for (int i = 0; i < MAX_GLYPHS; i++) {
        struct glyph *g = &game.glyphs[i];
        if (g->active) continue;
        unsigned r = next_random() % 10;
        g->kind = r < 6 ? COIN : r < 8 ? STAR : BOMB;
        g->x = (int)(next_random() % WIDTH);
        g->y = 0;
        g->wait = 0;
        g->active = 1;
        if (g->kind == BOMB) play(fx_tick, 0.7f, pan_of(g->x));
        return;
    }
}

static void start_game(void) {
    memset(game.glyphs, 0, sizeof game.glyphs);
    game.scene = PLAYING;
    game.paddle = (WIDTH - PADDLE) / 2;
    game.score = 0;
    game.lives = 3;
    game.level = 1;
    game.caught = game.missed = 0;
    play(fx_jump, 1.0f, 0.0f);
}

/* The nearest falling coin or star, for --autoplay. */
static int target(void) {
    int best = -1, best_y = -1;
    for (int i = 0; i < MAX_GLYPHS; i++) {
        struct glyph *g = &game.glyphs[i];
        if (g->active && g->kind != BOMB && g->y > best_y) best = i, best_y = g->y;
    }
    return best < 0 ? WIDTH / 2 : game.glyphs[best].x;
}

static void tick(int signo) {
    (void)signo;
    game.ticks++;
    if (game.scene == MENU && autoplay && game.ticks > 50) start_game();
    if (game.scene != PLAYING) return;
    if (autoplay) {
        int centre = game.paddle + PADDLE / 2, want = target();
        game.move = want < centre ? -1 : want > centre ? 1 : 0;
    }
    game.paddle += game.move;
    game.move = 0;
    if (game.paddle < 0) game.paddle = 0;
    if (game.paddle > WIDTH - PADDLE) game.paddle = WIDTH - PADDLE;
    int speed = 8 - game.level < 2 ? 2 : 8 - game.level; /* ticks per row */
    if (game.ticks % (speed * 3) == 0) spawn();
    for (int i = 0; i < MAX_GLYPHS; i++) {
        struct glyph *g = &game.glyphs[i];
        if (!g->active || ++g->wait < speed) continue;
        g->wait = 0;
        if (++g->y < HEIGHT - 1) continue;
        g->active = 0;
        int on_paddle = g->x >= game.paddle && g->x < game.paddle + PADDLE;
        if (on_paddle && g->kind == BOMB) {
            play(fx_explosion, 1.0f, pan_of(g->x));
            game.lives--;
        } else if (on_paddle) {
            game.caught++;
            game.score += g->kind == STAR ? 5 : 1;
            play(g->kind == STAR ? fx_reward : fx_coin, 1.0f, pan_of(g->x));
            if (game.score >= game.level * 15) {
                game.level++;
                play(fx_level, 1.0f, 0.0f);
            }
        } else if (g->kind != BOMB) {
            game.missed++;
            game.lives -= game.missed % 5 == 0;
            play(fx_miss, 0.8f, pan_of(g->x));
        }
        if (game.lives <= 0) {
            game.scene = OVER;
            game.ticks = 0;
            return;
        }
    }
}

static void draw(int scene, int started, int refused) {
    static const char glyph_chars[] = {'$', '*', '@'};
    erase();
    mvprintw(0, 0, "CATCH  score %d  lives %d  level %d", game.score, game.lives, game.level);
    mvprintw(1, 0, "+%.*s+", WIDTH, "----------------------------------------");
    for (int y = 0; y < HEIGHT; y++) mvprintw(2 + y, 0, "|%*s|", WIDTH, "");
    if (scene == MENU) {
        mvprintw(7, 8, "CATCH THE FALLING GLYPHS");
        mvprintw(9, 6, "$ coin 1   * star 5   @ bomb!");
        mvprintw(11, 7, "Enter: play     q: quit");
    } else {
        for (int i = 0; i < MAX_GLYPHS; i++)
            if (game.glyphs[i].active)
                mvaddch(2 + game.glyphs[i].y, 1 + game.glyphs[i].x, (chtype)glyph_chars[game.glyphs[i].kind]);
        mvprintw(2 + HEIGHT - 1, 1 + game.paddle, "=======");
        if (scene == OVER) mvprintw(9, 12, "GAME OVER: %d points", game.score);
    }
    mvprintw(2 + HEIGHT, 0, "+%.*s+", WIDTH, "----------------------------------------");
    mvprintw(3 + HEIGHT, 0, "sounds started %d refused %d   arrows move, p pause, m menu, q quit", started, refused);
    refresh();
}

/* The effects as --synth makes them: sfxr presets with seeds chosen by ear, in the catalogue's JSON
 * form (jsfxr's share strings and sfxr's settings strings work too). */
static const char *const synth_effects[][2] = {
    {"coin", "{\"preset\": \"coin\", \"seed\": 7, \"variation\": 0.5}"},
    {"reward", "{\"preset\": \"powerup\", \"seed\": 4}"},
    {"miss", "{\"preset\": \"hit\", \"seed\": 2}"},
    {"explosion", "{\"preset\": \"explosion\", \"seed\": 3, \"variation\": 1}"},
    {"level-up", "{\"preset\": \"powerup\", \"seed\": 11}"},
    {"bomb-tick", "{\"preset\": \"blip\", \"seed\": 5}"},
    {"click", "{\"preset\": \"blip\", \"seed\": 1}"},
    {"jump", "{\"preset\": \"jump\", \"seed\": 6}"},
};

static int synthesise(void) { /* 0 when every effect was made */
    for (size_t i = 0; i < sizeof synth_effects / sizeof synth_effects[0]; i++) {
        if (ss_synth(sound, synth_effects[i][0], synth_effects[i][1]) < 0) {
            fprintf(stderr, "catch: %s: %s\n", synth_effects[i][0], ss_last_error());
            return -1;
        }
    }
    return 0;
}

static int load(const char *name) {
    int id = ss_sound_id(sound, name);
    if (id < 0) fprintf(stderr, "catch: %s (playing without it)\n", ss_last_error());
    return id;
}

int main(int argc, char **argv) {
    const char *output = getenv("SOUNDSTATION_OUTPUT"), *assets = getenv("SOUNDSTATION_ASSETS");
    long frames = -1;
    int synth = 0;
    if (output == NULL || *output == '\0') output = "auto";
    if (assets == NULL || *assets == '\0') assets = "Assets";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--autoplay") == 0) autoplay = 1;
        else if (strcmp(argv[i], "--output") == 0 && i + 1 < argc) output = argv[++i];
        else if (strcmp(argv[i], "--assets") == 0 && i + 1 < argc) assets = argv[++i];
        else if (strcmp(argv[i], "--synth") == 0) synth = 1;
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            char *end;
            frames = strtol(argv[++i], &end, 10);
            if (*end != '\0' || frames <= 0) { fprintf(stderr, "catch: --frames wants a positive number, not \"%s\"\n", argv[i]); return 2; }
        } else {
            fprintf(stderr, "usage: catch [--output auto|device|device:NAME|silent] [--assets DIR | --synth] [--autoplay] [--frames N]\n");
            return 2;
        }
    }
    if (ss_open(&sound, output, synth ? NULL : assets) != SS_OK) { fprintf(stderr, "catch: %s\n", ss_last_error()); return 1; }
    if (synth) {
        if (synthesise() != 0) { ss_close(sound); return 1; }
    } else if (ss_preload(sound, NULL, 0, NULL, NULL) != SS_OK) {
        fprintf(stderr, "catch: %s\n", ss_last_error());
    }
    fx_coin = load("coin"), fx_reward = load("reward"), fx_miss = load("miss"), fx_explosion = load("explosion");
    fx_level = load("level-up"), fx_tick = load("bomb-tick"), fx_click = load("click"), fx_jump = load("jump");
    game.seed = (unsigned)time(NULL);
    game.scene = MENU;
    game.lives = 3, game.level = 1;

    initscr();
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    timeout(33);

    sigset_t alarm_only;
    sigemptyset(&alarm_only);
    sigaddset(&alarm_only, SIGALRM);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = tick;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(SIGALRM, &action, NULL);
    struct itimerval timer = {{0, TICK_MS * 1000}, {0, TICK_MS * 1000}};
    setitimer(ITIMER_REAL, &timer, NULL);

    int shown_scene = -1, started = 0, refused = 0, paused = 0, quit = 0;
    for (long frame = 0; !quit && (frames < 0 || frame < frames); frame++) {
        ss_event event;
        while (ss_poll_event(sound, &event, sizeof(ss_event)) == 1) {
            started += event.type == SS_EVENT_STARTED;
            refused += event.type == SS_EVENT_REFUSED;
        }
        sigprocmask(SIG_BLOCK, &alarm_only, NULL);
        int scene = game.scene;
        if (scene == OVER && game.ticks > 150) scene = game.scene = MENU; /* 3 s, then the menu */
        if (scene != shown_scene) { /* music per scene, crossfaded; not from the handler */
            if (scene == MENU && !synth) ss_music(sound, "main", 1.5);
            if (scene == PLAYING && !synth) ss_music(sound, "game", 1.0);
            if (scene == OVER) ss_stop_music(sound, 2.0);
            shown_scene = scene;
        }
        draw(scene, started, refused);
        sigprocmask(SIG_UNBLOCK, &alarm_only, NULL);

        int key = getch();
        sigprocmask(SIG_BLOCK, &alarm_only, NULL);
        switch (key) {
        case 'q': quit = 1; break;
        case '\n': case KEY_ENTER: case 's':
            if (game.scene != PLAYING) { ss_play(sound, fx_click, 1.0f, 1.0f, 0.0f); start_game(); }
            break;
        case 'm': game.scene = MENU; break;
        case 'p':
            paused = !paused;
            if (paused) { ss_pause_all(sound); setitimer(ITIMER_REAL, &(struct itimerval){{0, 0}, {0, 0}}, NULL); }
            else { ss_resume_all(sound); setitimer(ITIMER_REAL, &timer, NULL); }
            break;
        case KEY_LEFT: case 'a': game.move = -2; break;
        case KEY_RIGHT: case 'd': game.move = 2; break;
        default: break;
        }
        sigprocmask(SIG_UNBLOCK, &alarm_only, NULL);
    }
    setitimer(ITIMER_REAL, &(struct itimerval){{0, 0}, {0, 0}}, NULL);
    signal(SIGALRM, SIG_IGN);
    endwin();
    ss_close(sound);
    printf("catch: score %d, caught %d, missed %d, sounds started %d, refused %d\n", game.score, game.caught,
           game.missed, started, refused);
    return 0;
}
