#include "CSDL2.h"

#include <dlfcn.h>
#include <stdio.h>

/* One pointer per function, set by sfsdl_load. */
#define SFSDL_POINTER(ret, name, params, args) static ret(*p_##name) params;
SFSDL_FUNCTIONS(SFSDL_POINTER)
#undef SFSDL_POINTER

#define SFSDL_FORWARD(ret, name, params, args) \
    ret sfsdl_##name params { return p_##name args; }
SFSDL_FUNCTIONS(SFSDL_FORWARD)
#undef SFSDL_FORWARD

static void *library;

int sfsdl_load(char *error, size_t size) {
    if (library) return 1;
    void *handle = dlopen(SFSDL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(error, size, "cannot load %s: %s", SFSDL_LIBRARY, reason ? reason : "unknown error");
        return 0;
    }
#define SFSDL_FIND(ret, name, params, args) \
    *(void **)(&p_##name) = dlsym(handle, "SDL_" #name); \
    if (!p_##name) { \
        snprintf(error, size, "%s has no SDL_%s (SDL 2.0.5 or newer is needed)", SFSDL_LIBRARY, #name); \
        dlclose(handle); \
        return 0; \
    }
    SFSDL_FUNCTIONS(SFSDL_FIND)
#undef SFSDL_FIND
    library = handle;
    return 1;
}
