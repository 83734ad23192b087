/*
 * Broken variant of admission.pml (must be rejected): markEvent runs before the admission check, so a rejected delivery is marked and its retry deduped away (A2).
 */
#define BUG_MARK_BEFORE_ADMIT
#include "admission.pml"
