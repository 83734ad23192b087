/*
 * Broken variant of admission.pml (must be rejected): abandoning a handler at shutdown frees its slot while the handler still runs (A1).
 */
#define BUG_EARLY_SLOT_RELEASE
#include "admission.pml"
