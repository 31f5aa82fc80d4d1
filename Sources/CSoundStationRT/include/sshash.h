/*
 * sshash: SHA-256 (FIPS 180-4), for naming sound files by their content when they travel to a
 * player's cache over SSH. In C so that hashing a cache of many megabytes is fast in debug builds too.
 */
#ifndef SSHASH_H
#define SSHASH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A running hash: feed bytes with sshash_update, read the digest with sshash_final. */
typedef struct sshash_state {
    uint32_t h[8];
    uint64_t length;
    uint8_t block[64];
    uint32_t used;
} sshash_state;

/** Starts a hash. */
void sshash_init(sshash_state *state);
/** Adds `count` bytes. */
void sshash_update(sshash_state *state, const void *bytes, size_t count);
/** Writes the 32-byte digest; the state must be initialised again before reuse. */
void sshash_final(sshash_state *state, uint8_t digest[32]);

#ifdef __cplusplus
}
#endif

#endif
