/*
 * Broken variant of admission.pml (must be rejected): the member that fills a burst batch is cut from it and never handled (A4 via A3).
 */
#define BUG_BURST_OVERFLOW_DROP
#define STRATEGY BURST
#include "admission.pml"
