#ifndef SOUNDSTATION_CSDL2_H
#define SOUNDSTATION_CSDL2_H

/* Starfall's window front end reaches SDL2 through this table instead of linking it: libSDL2 and the
 * ~35 libraries it pulls in (X11, Wayland, PulseAudio, D-Bus, udev...) cost every start of the game
 * about a fifth of its start-up in the dynamic loader, and only the window needs them. SDL's headers
 * still give the types and constants; `sfsdl_load` opens the library with dlopen when a window is
 * about to open, and each `sfsdl_X` calls the `SDL_X` it found. Nothing here may be called before
 * `sfsdl_load` returned 1. */
#include <SDL2/SDL.h>
#include <stddef.h>

/* Every SDL function the window uses: return type, name, parameters, arguments. */
#define SFSDL_FUNCTIONS(X) \
    X(int, Init, (Uint32 flags), (flags)) \
    X(void, Quit, (void), ()) \
    X(const char *, GetError, (void), ()) \
    X(void, Delay, (Uint32 ms), (ms)) \
    X(int, PollEvent, (SDL_Event *event), (event)) \
    X(SDL_Window *, CreateWindow, (const char *title, int x, int y, int w, int h, Uint32 flags), \
      (title, x, y, w, h, flags)) \
    X(void, DestroyWindow, (SDL_Window *window), (window)) \
    X(SDL_Renderer *, CreateRenderer, (SDL_Window *window, int index, Uint32 flags), (window, index, flags)) \
    X(void, DestroyRenderer, (SDL_Renderer *renderer), (renderer)) \
    X(int, RenderSetLogicalSize, (SDL_Renderer *renderer, int w, int h), (renderer, w, h)) \
    X(int, SetRenderDrawBlendMode, (SDL_Renderer *renderer, SDL_BlendMode mode), (renderer, mode)) \
    X(int, SetRenderDrawColor, (SDL_Renderer *renderer, Uint8 r, Uint8 g, Uint8 b, Uint8 a), \
      (renderer, r, g, b, a)) \
    X(int, RenderClear, (SDL_Renderer *renderer), (renderer)) \
    X(int, RenderFillRect, (SDL_Renderer *renderer, const SDL_Rect *rect), (renderer, rect)) \
    X(void, RenderPresent, (SDL_Renderer *renderer), (renderer)) \
    X(int, GetRendererOutputSize, (SDL_Renderer *renderer, int *w, int *h), (renderer, w, h)) \
    X(int, RenderReadPixels, (SDL_Renderer *renderer, const SDL_Rect *rect, Uint32 format, void *pixels, int pitch), \
      (renderer, rect, format, pixels, pitch)) \
    X(SDL_Surface *, CreateRGBSurfaceWithFormat, (Uint32 flags, int w, int h, int depth, Uint32 format), \
      (flags, w, h, depth, format)) \
    X(void, FreeSurface, (SDL_Surface *surface), (surface)) \
    X(SDL_RWops *, RWFromFile, (const char *file, const char *mode), (file, mode)) \
    X(int, SaveBMP_RW, (SDL_Surface *surface, SDL_RWops *dst, int freedst), (surface, dst, freedst)) \
    X(SDL_bool, IsGameController, (int index), (index)) \
    X(SDL_GameController *, GameControllerOpen, (int index), (index)) \
    X(SDL_bool, GameControllerGetAttached, (SDL_GameController *controller), (controller)) \
    X(void, GameControllerClose, (SDL_GameController *controller), (controller)) \
    X(Uint8, GameControllerGetButton, (SDL_GameController *controller, SDL_GameControllerButton button), \
      (controller, button)) \
    X(Sint16, GameControllerGetAxis, (SDL_GameController *controller, SDL_GameControllerAxis axis), \
      (controller, axis))

#define SFSDL_DECLARE(ret, name, params, args) ret sfsdl_##name params;
SFSDL_FUNCTIONS(SFSDL_DECLARE)
#undef SFSDL_DECLARE

/* The file name dlopen is given: SDL2's soname, as Debian's libsdl2-2.0-0 installs it. */
#define SFSDL_LIBRARY "libSDL2-2.0.so.0"

/* Opens SDL2 and finds every function above; safe to call again (the later calls return at once).
 * Returns 1, or 0 with the reason (dlopen's or the missing function's name) in `error`. Not
 * thread-safe: call it from the thread that runs the window. */
int sfsdl_load(char *error, size_t size);

#endif
