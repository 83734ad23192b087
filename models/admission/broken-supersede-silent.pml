/*
 * Broken variant of admission.pml (must be rejected): a superseded waiter gives its slot back but never gets an outcome (A3).
 */
#define BUG_SUPERSEDE_SILENT
#include "admission.pml"
