#ifndef SOUNDSTATION_COPENAL_SHIM_H
#define SOUNDSTATION_COPENAL_SHIM_H

/* OpenAL Soft exports its extension entry points (loopback, thread-local
   contexts, device pause); asking for the prototypes lets Swift call them
   directly instead of through alcGetProcAddress. */
#define AL_ALEXT_PROTOTYPES 1
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <AL/efx.h>
#include <AL/efx-presets.h>

/* The EFX reverb presets of efx-presets.h by number (SoundStation's ReverbPreset order: generic,
   padded cell, room, ... psychotic), because Swift cannot import their initialiser macros.
   Returns 1 and fills out, or 0 for a number out of range. */
static inline int soundstation_reverb_preset(int index, EFXEAXREVERBPROPERTIES *out) {
    switch (index) {
    case 0: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_GENERIC; *out = p; return 1; }
    case 1: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_PADDEDCELL; *out = p; return 1; }
    case 2: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_ROOM; *out = p; return 1; }
    case 3: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_BATHROOM; *out = p; return 1; }
    case 4: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_LIVINGROOM; *out = p; return 1; }
    case 5: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_STONEROOM; *out = p; return 1; }
    case 6: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_AUDITORIUM; *out = p; return 1; }
    case 7: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_CONCERTHALL; *out = p; return 1; }
    case 8: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_CAVE; *out = p; return 1; }
    case 9: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_ARENA; *out = p; return 1; }
    case 10: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_HANGAR; *out = p; return 1; }
    case 11: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_CARPETEDHALLWAY; *out = p; return 1; }
    case 12: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_HALLWAY; *out = p; return 1; }
    case 13: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_STONECORRIDOR; *out = p; return 1; }
    case 14: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_ALLEY; *out = p; return 1; }
    case 15: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_FOREST; *out = p; return 1; }
    case 16: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_CITY; *out = p; return 1; }
    case 17: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_MOUNTAINS; *out = p; return 1; }
    case 18: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_QUARRY; *out = p; return 1; }
    case 19: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_PLAIN; *out = p; return 1; }
    case 20: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_PARKINGLOT; *out = p; return 1; }
    case 21: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_SEWERPIPE; *out = p; return 1; }
    case 22: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_UNDERWATER; *out = p; return 1; }
    case 23: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_DRUGGED; *out = p; return 1; }
    case 24: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_DIZZY; *out = p; return 1; }
    case 25: { EFXEAXREVERBPROPERTIES p = EFX_REVERB_PRESET_PSYCHOTIC; *out = p; return 1; }
    default: return 0;
    }
}

#endif
