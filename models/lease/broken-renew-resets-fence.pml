/*
 * Broken variant of lease.pml (must be rejected): renew ties the fence counter to the lease's TTL, so the counter lapses with the lease and the next acquire issues fence 1 again (I2).
 */
#define BUG_RENEW_RESETS_FENCE
#include "lease.pml"
