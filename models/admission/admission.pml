/*
 * Model 2: per-instance admission, concurrency strategies and shutdown (docs/contract.md §3, §4, §5, §7).
 *
 * Abstracts:
 *   packages/core/src/dispatch/prelude.ts             dispatch prelude (shutdown check, admission,
 *                                                     dedupe mark)
 *   packages/core/src/dispatch/delivery-runner.ts     tails: handler start, slot release, what
 *                                                     shutdown cancels, aborts and abandons
 *   packages/core/src/runtime/shutdown.ts             shutdown (close, cancel what has not started,
 *                                                     grace, abandon, drain)
 *   packages/core/src/admission/admission-controller.ts  the bound and the per-tenant ceiling
 *   packages/core/src/strategies/coalescing.ts        queue: one parked survivor per scope,
 *                                                     supersession, the survivor takes the lock
 *   packages/core/src/strategies/drop.ts              drop: one try, `dropped` on conflict
 *   packages/core/src/strategies/burst.ts             burst: open batch per scope, closed at
 *                                                     maxBatch or by its window, run in order
 *   packages/core/src/runtime/outcome-ledger.ts       the ledger shutdown waits on
 *
 * What is modelled: D deliveries arriving one after another, each with a tenant (2) whose one lock
 * scope it uses (rt's lock keys start with adapter:tenant)
 * and an event id (fresh, or the first delivery's again: a redelivery); the deferred dispatch mode; the bound MAX and the
 * tenant ceiling CEIL; the `await markEvent` between reservation and marking (shutdown may start
 * there); one strategy per run (-DSTRATEGY=QUEUE|DROP|BURST); handlers that complete, fail, honour
 * their abort, ignore it, or never return; shutdown starting at any point.
 * The Thread Lock is this instance's view of it: held while a handler of the scope runs (model 1
 * checks the lease protocol behind it; other instances holding the key only delay acquisition).
 *
 * Left out: the sync dispatch mode (no cap, §4 non-goal), debounce (queue with a quiet
 * window: same accounting) and concurrent, detach timeouts (`timed-out` is one more way a handler
 * settles), State errors and prelude errors, lease loss (model 1), observations other than
 * outcomes, time lengths (grace and abandon are "later"), adapters' stop/drain, and crashes.
 *
 * Invariants (assertions carry their tag, which check.sh reads from Spin's report):
 *   A1 (§4 invariant 1, bounded retention): at every state, slots held <= MAX, each tenant's
 *      slots <= CEIL, the per-tenant counters sum to the slots held, and slots held = deliveries
 *      whose tail still retains something (a slot is never released while its handler's promise
 *      has not settled). Monitor process.
 *   A2 (§4 invariant 2, §3 rules, honest rejection): a refused delivery was never marked.
 *   A3 (§4 invariant 3, §6, no silent loss): no delivery gets a second terminal outcome; when
 *      shutdown resolves, every admitted delivery has exactly one, and admitted = sum of
 *      terminal outcomes of admitted deliveries.
 *   A4 (§5 burst, delivery-preserving shaping): every member of a batch gets the batch's
 *      outcome (checked by A3/A5: a member dropped from its batch never gets one).
 *   A5 (§7): when shutdown resolves, every dispatched delivery has its outcome, those still in
 *      the prelude (awaiting markEvent) included.
 *   A6 (§7 (1)): after close, deliveries are only refused.
 *   A7 (§5 drop, queue, burst): no handler starts while another holds its scope's lock.
 *   A8 (§3 dedupe): at most one admission per Event Identity (tenant, id).
 *   A9 (§6): every duplicate gets the outcome `duplicate`.
 *   end (§7 (5), shutdown terminates): shutdown reaches its end in every run (Spin's
 *      invalid-end-state check: the Shutdown process has no end label while waiting).
 *
 * Broken variants (broken-*.pml):
 *   BUG_EARLY_SLOT_RELEASE   abandoning a handler at shutdown frees its slot though it still runs
 *   BUG_MARK_BEFORE_ADMIT    markEvent before the admission check (a "dedupe probe")
 *   BUG_SUPERSEDE_SILENT     a superseded waiter frees its slot but gets no outcome
 *   BUG_BURST_OVERFLOW_DROP  a delivery arriving at a full batch is not kept in any batch
 *
 * Scenario output (for the replay tests): dispatches, handler runs and settles, burst windows and
 * the shutdown phases print lines starting with "SCEN".
 */

#define QUEUE 1
#define DROP 2
#define BURST 3
#ifndef STRATEGY
#define STRATEGY QUEUE
#endif
#ifndef D
#define D 4
#endif
#define IDS (2 * D) /* marks are keyed on (tenant, event id): the Event Identity */
#define MAX 3
#define CEIL 2
#define MAXBATCH 2

#define O_NONE 0
#define O_COMPLETED 1
#define O_FAILED 2
#define O_DROPPED 3
#define O_SUPERSEDED 4
#define O_SHUTDOWN 5
#define O_REJECTED 6
#define O_DUPLICATE 7

/* Invariant tags: constants in every assertion, so Spin's report names the invariant. */
hidden byte A1 = 1;
hidden byte A2 = 1;
hidden byte A3 = 1;
hidden byte A5 = 1;
hidden byte A6 = 1;
hidden byte A7 = 1;
hidden byte A8 = 1;
hidden byte A9 = 1;

byte outcome[D];
bool admittedD[D];
bool markedBy[D];    /* ghost: this delivery's markEvent call marked its id */
bool slot[D];
bool runningD[D];
bool abandoned[D];
byte tenantOf[D];
byte marked[IDS];    /* the State's dedupe marks */
byte admits[IDS];    /* ghost: admissions per Event Identity (A8) */
bool dup[D];         /* ghost: found a duplicate (A9) */
byte dispatchedN;    /* ghost: deliveries that entered the prelude (A5) */

byte inFlight;
byte perTenant[2];
byte retained;       /* ghost: deliveries whose tail retains something */
byte admitted;
byte settled;        /* terminal outcomes among admitted deliveries */
byte inPrelude;      /* reserved, awaiting markEvent (the ledger's open entries) */

bool closed;
bool graceOver;
bool lockHeld[2];
byte parked[2];      /* queue: 1 + the scope's parked survivor, 0 = none */
byte openMask[2];    /* burst: members of the scope's open batch */
chan closedQ[2] = [D] of { byte }; /* burst: closed batches waiting for the lock, in order */


#define INV (inFlight <= MAX && perTenant[0] <= CEIL && perTenant[1] <= CEIL && \
             perTenant[0] + perTenant[1] == inFlight && inFlight == retained)

active proctype Monitor() {
end_monitor:
  atomic { !INV -> assert(A1 && INV) }
}

inline releaseSlot(k) {
  if
  :: slot[k] -> slot[k] = false; inFlight--; perTenant[tenantOf[k]]--
  :: else -> skip
  fi
}

inline record(k, o) {
  assert(A2 && (o != O_REJECTED || !markedBy[k])); /* a refused delivery was never marked */
  assert(A3 && outcome[k] == O_NONE); /* exactly one terminal outcome */
  outcome[k] = o;
  printf("SCEN outcome d=%d o=%d\n", k, o);
  if
  :: admittedD[k] -> settled++
  :: else -> skip
  fi
}

/* The tail of delivery k leaves before its handler started: outcome o, slot back. */
inline leave(k, o) {
  releaseSlot(k); retained--; record(k, o)
}

/* Every member of mask leaves with outcome o (shutdown of a batch that never ran). */
inline leaveAll(mask, o) {
  k = 0;
  do
  :: k < D -> if :: mask & (1 << k) -> leave(k, o) :: else -> skip fi; k++
  :: else -> break
  od;
  k = 0
}

/* One handler run for the members in mask (one delivery, or a burst batch) of scope s. */
proctype Handler(byte s; byte mask) {
  byte res;
  byte k;
  if
  :: true -> /* completes, or honours its abort once the grace deadline passed */
     printf("SCEN run mask=%d kind=1\n", mask);
     if
     :: res = O_COMPLETED
     :: graceOver -> res = O_SHUTDOWN
     fi
  :: true -> /* fails (throws), or honours its abort */
     printf("SCEN run mask=%d kind=2\n", mask);
     if
     :: res = O_FAILED
     :: graceOver -> res = O_SHUTDOWN
     fi
  :: true -> res = O_COMPLETED; /* ignores its signal, returns eventually */
     printf("SCEN run mask=%d kind=3\n", mask)
  :: true -> /* ignores its signal and never returns: keeps its slots for good */
     printf("SCEN run mask=%d kind=4\n", mask);
end_hang:
     false
  fi;
  k = 0;
  /* the handler's promise settled: release the lock, then every member's slot and outcome */
  atomic {
    /* a handler whose signal aborted (grace is over) ends `shutdown`, whatever it returned */
    if
    :: graceOver -> res = O_SHUTDOWN
    :: else -> skip
    fi;
    printf("SCEN settle mask=%d res=%d\n", mask, res);
    lockHeld[s] = false;
    k = 0;
    do
    :: k < D ->
       if
       :: mask & (1 << k) ->
          runningD[k] = false;
          releaseSlot(k); retained--;
          if
          :: abandoned[k] -> skip /* its outcome (shutdown) was recorded when abandoned */
          :: else -> record(k, res)
          fi
       :: else -> skip
       fi;
       k++
    :: else -> break
    od;
    k = 0; res = 0
  }
}

/* Marks every member of mask running and starts its handler; the lock is free. */
inline start(s, mask) {
  assert(A7 && !lockHeld[s]);
  lockHeld[s] = true;
  k = 0;
  do
  :: k < D -> if :: mask & (1 << k) -> runningD[k] = true :: else -> skip fi; k++
  :: else -> break
  od;
  k = 0;
  run Handler(s, mask)
}

#if STRATEGY == QUEUE
/* The scope's wait loop: the parked survivor takes the lock when it frees. */
proctype Runner(byte s) {
  byte k, d;
end_runner:
  do
  :: atomic { parked[s] != 0 && !lockHeld[s] ->
       d = parked[s] - 1; parked[s] = 0; start(s, 1 << d); d = 0 }
  od
}
#endif

#if STRATEGY == BURST
proctype Runner(byte s) {
  byte k, m;
end_runner:
  do
  :: atomic { closedQ[s]?[m] && !lockHeld[s] -> closedQ[s]?m; start(s, m); m = 0 }
  :: atomic { openMask[s] != 0 -> closedQ[s]!openMask[s]; openMask[s] = 0;
       printf("SCEN window scope=%d\n", s) } /* window elapsed */
  od
}
#endif

proctype Dispatcher() {
  byte d = 0;
  byte s, t, id, k;
  byte old;
  bool ok;
  do
  :: d < D ->
     /* the platform's choice: scope, tenant, event id (a repeated id is a redelivery) */
     /* symmetry: the first delivery has scope 0, tenant 0, id 0; a later one a fresh id or 0 */
     /* a lock scope belongs to one tenant (rt's lock keys start with adapter:tenant): here each
        tenant has one scope, so scope = tenant */
     if :: t = 0 :: d > 0 -> t = 1 fi;
     s = t;
     if :: id = 0 :: d > 0 -> id = d fi;
     atomic {
       printf("SCEN dispatch d=%d scope=%d tenant=%d id=%d\n", d, s, t, id);
       tenantOf[d] = t; dispatchedN = d + 1;
#ifdef BUG_MARK_BEFORE_ADMIT
       if
       :: marked[id * 2 + t] == 0 -> marked[id * 2 + t] = 1; markedBy[d] = true
       :: else -> skip
       fi;
#endif
       /* (1) shutdown check, (3) admission: reserve a slot or reject */
       if
       :: closed || inFlight >= MAX || perTenant[t] >= CEIL ->
          record(d, O_REJECTED);
          printf("SCEN decide d=%d res=3 why=%d\n", d, (closed -> 1 : (inFlight >= MAX -> 2 : 3)));
          ok = false
       :: else ->
          assert(A6 && !closed);
          slot[d] = true; inFlight++; perTenant[t]++; retained++; inPrelude++;
          ok = true
       fi
     };
     /* (4) await state.markEvent(...) */
     if
     :: ok ->
        atomic {
          printf("SCEN mark d=%d\n", d);
          inPrelude--;
#ifdef BUG_MARK_BEFORE_ADMIT
          if
          :: markedBy[d] -> marked[id * 2 + t] = 0 /* its own probe: treat as a first mark */
          :: else -> skip
          fi;
#endif
          if
          :: marked[id * 2 + t] != 0 -> dup[d] = true; leave(d, O_DUPLICATE);
             printf("SCEN decide d=%d res=2\n", d)
          :: else ->
             marked[id * 2 + t] = 1; markedBy[d] = true;
             admitted++; admittedD[d] = true;
             admits[id * 2 + t]++; assert(A8 && admits[id * 2 + t] <= 1);
             printf("SCEN decide d=%d res=1\n", d);
             /* (5) the detached tail starts */
             if
             :: closed -> leave(d, O_SHUTDOWN) /* parks into an aborted shutdown signal */
             :: else ->
#if STRATEGY == QUEUE
                if
                :: parked[s] != 0 ->
                   old = parked[s] - 1;
#ifdef BUG_SUPERSEDE_SILENT
                   releaseSlot(old); retained--;
#else
                   leave(old, O_SUPERSEDED);
#endif
                   old = 0
                :: else -> skip
                fi;
                parked[s] = d + 1
#elif STRATEGY == DROP
                if
                :: lockHeld[s] -> leave(d, O_DROPPED)
                :: else -> start(s, 1 << d)
                fi
#else
                openMask[s] = openMask[s] | (1 << d);
                k = 0;
                /* popcount of the open batch */
                old = 0;
                do
                :: k < D -> if :: openMask[s] & (1 << k) -> old++ :: else -> skip fi; k++
                :: else -> break
                od;
                k = 0;
                if
                :: old >= MAXBATCH -> closedQ[s]!openMask[s]; openMask[s] = 0
                :: else -> skip
                fi;
#ifdef BUG_BURST_OVERFLOW_DROP
                /* "overflow": the member that filled the batch is cut from it and forgotten */
                if
                :: old >= MAXBATCH -> releaseSlot(d); retained--
                   ; closedQ[s]?old; closedQ[s]!(old & ~(1 << d))
                :: else -> skip
                fi;
#endif
                old = 0
#endif
             fi
          fi
        }
     :: else -> skip
     fi;
     s = 0; t = 0; id = 0; ok = false;
     d++
  :: else -> break
  od
}

active proctype Shutdown() {
  byte s, k, m;
#ifdef SIM_SHUTDOWN_AFTER
  dispatchedN >= SIM_SHUTDOWN_AFTER; /* from that delivery's reservation on */
#endif
  /* may start at any point: (1) close admission, (3) what has not started leaves now */
  atomic {
    printf("SCEN shutdown\n");
    closed = true;
    s = 0;
    do
    :: s < 2 ->
       if
       :: parked[s] != 0 -> leave(parked[s] - 1, O_SHUTDOWN); parked[s] = 0
       :: else -> skip
       fi;
       if
       :: openMask[s] != 0 -> leaveAll(openMask[s], O_SHUTDOWN); openMask[s] = 0
       :: else -> skip
       fi;
       do
       :: closedQ[s]?[m] -> closedQ[s]?m; leaveAll(m, O_SHUTDOWN)
       :: else -> break
       od;
       m = 0;
       s++
    :: else -> break
    od;
    s = 0
  };
  /* (4) grace is over: running handlers' signals abort */
  atomic { graceOver = true; printf("SCEN grace\n") };
  /* abandon time: handlers still running get `shutdown`; their slots stay held until they settle */
  atomic {
    printf("SCEN abandon\n");
    k = 0;
    do
    :: k < D ->
       if
       :: runningD[k] && !abandoned[k] && outcome[k] == O_NONE ->
          abandoned[k] = true; record(k, O_SHUTDOWN)
#ifdef BUG_EARLY_SLOT_RELEASE
          ; releaseSlot(k)
#endif
       :: else -> skip
       fi;
       k++
    :: else -> break
    od;
    k = 0
  };
  /* (5) resolve once every admitted delivery has its terminal outcome (A5: this is reached) */
  atomic { (settled == admitted && inPrelude == 0) -> printf("SCEN resolved\n") };
  k = 0;
  do
  :: k < D ->
     assert(A9 && (!dup[k] || outcome[k] == O_DUPLICATE));
     assert(A3 && (!admittedD[k] || outcome[k] != O_NONE));
     assert(A5 && (k >= dispatchedN || outcome[k] != O_NONE));
     k++
  :: else -> break
  od
}

init {
  atomic {
    run Dispatcher();
#if STRATEGY != DROP
    run Runner(0);
    run Runner(1);
#endif
  }
}
