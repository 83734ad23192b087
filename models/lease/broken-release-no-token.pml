/*
 * Broken variant of lease.pml (must be rejected): release deletes the live lease without checking the token; a late release from a lost lease then deletes its successor's lease (I1, and I3 when a third acquire follows).
 */
#define BUG_RELEASE_NO_TOKEN
#include "lease.pml"
