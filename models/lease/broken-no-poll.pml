/*
 * Broken variant of lease.pml (must be rejected): a parked waiter waits for a release notification only; a lost notification strands it while the key is free (L1).
 */
#define BUG_NO_POLL
#include "lease.pml"
