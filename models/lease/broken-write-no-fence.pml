/*
 * Broken variant of lease.pml (must be rejected): the State accepts every thread-state write
 * (last writer wins, no fence check), so a holder whose lease was lost overwrites its
 * successor's write (F1).
 */
#define BUG_WRITE_NO_FENCE
#include "lease.pml"
