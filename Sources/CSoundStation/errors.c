/* The thread-local message behind ss_last_error(), and the names of the return codes. */
#include "soundstation_internal.h"

#include <stddef.h>

static _Thread_local char last_error[1024];

const char *ss_last_error(void) { return last_error; }

/* Copies by hand (no strncpy/snprintf) so that it stays async-signal-safe. */
void ss_internal_set_error(const char *message) {
    size_t i = 0;
    if (message != NULL) {
        for (; i + 1 < sizeof last_error && message[i] != '\0'; i++) last_error[i] = message[i];
    }
    last_error[i] = '\0';
}

const char *ss_result_name(int code) {
    switch (code) {
    case SS_OK: return "SS_OK";
    case SS_REFUSED: return "SS_REFUSED";
    case SS_ERR_INVALID_ARGUMENT: return "SS_ERR_INVALID_ARGUMENT";
    case SS_ERR_UNKNOWN_NAME: return "SS_ERR_UNKNOWN_NAME";
    case SS_ERR_NOT_LOADED: return "SS_ERR_NOT_LOADED";
    case SS_ERR_DEVICE: return "SS_ERR_DEVICE";
    case SS_ERR_CATALOGUE: return "SS_ERR_CATALOGUE";
    case SS_ERR_DECODE: return "SS_ERR_DECODE";
    case SS_ERR_NOT_OFFLINE: return "SS_ERR_NOT_OFFLINE";
    case SS_ERR_CLOSED: return "SS_ERR_CLOSED";
    case SS_ERR_CANCELLED: return "SS_ERR_CANCELLED";
    default: return "SS_UNKNOWN_CODE";
    }
}
