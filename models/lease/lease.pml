/*
 * Model 1: Thread Lock leases over State (docs/contract.md §5 "Thread Lock mechanics", docs/contract.md §8, docs/contract.md §2 "Thread
 * Lock", "Lock Scope").
 *
 * Abstracts:
 *   packages/core/src/locks/lock-manager.ts      RenewedLock: renew every TTL/3, local expiry
 *                                                measured from before the request, lease-loss
 *                                                abort, release skipped once the lease is lost
 *   packages/core/src/locks/acquire-when-free.ts the queue strategy's wait: try, park until a
 *                                                wake-up or a poll, try again
 *   packages/core/src/strategies/coalescing.ts   a queue survivor taking the lock, running, releasing
 *   packages/state-memory/src/memory-state.ts    acquireLock / renewLock / releaseLock, fences
 *   packages/state-redis/src/scripts/*.lua       acquire.lua / renew.lua / release.lua (+ PUBLISH)
 *
 * What is modelled: N instances ("lanes"), each serving JOBS deliveries of one lock key one after
 * another; one State holding (token, expiresAt, fence) for the key, every operation atomic; a
 * clock that advances by one unit nondeterministically up to MAXT; acquire/renew/release requests
 * that are applied at the State at any later moment (network latency, a slow State); a renew
 * timer that may fire late; a local expiry timer that fires on time (the clock does not pass a due
 * deadline before the timer ran); handlers that finish, keep running after their abort (ignore the
 * signal), and write to a fenced resource; release notifications that may be lost, and the
 * polling fallback.
 *
 * Left out: a waiter giving up (detach timeout, shutdown; a lease granted to it late is released
 * at once, an ordinary token-checked release), several deliveries of one instance competing for the key (a local release wakes local
 * waiters in-process; modelled as the same possibly-lost notification), supersession (model 2),
 * back-off lengths and jitter (a poll is "some time later"), State errors and outages (a failed
 * renew is retried until the local deadline: the same as a late renew here), clock skew between
 * instances (one clock), Redis fence time floors and fence-key retention (the fence counter is
 * never forgotten; see ADR 0011), dedupe marks, and crashes (the documented crash class).
 * With -DPAUSES the clock may also pass a due deadline: a whole instance paused (GC, SIGSTOP) past
 * its lease, so its abort comes late; then only the fence clauses of I3 hold, and are checked.
 *
 * Invariants (assertions unless said otherwise):
 *   I1 (docs/contract.md §2 "Released only by its holder (token-checked)", docs/contract.md §8 renewLock/releaseLock):
 *      a renew or release by anyone but the live holder changes nothing in the State.
 *   I2 (docs/contract.md §5 "A lease carries a fencing token, monotonic per key"): every fence issued is
 *      strictly greater than every fence issued before it.
 *   I3 (docs/contract.md §5 "universal lease-loss cancellation" + fences): when a lane acquires while another
 *      lane's handler still runs, the older lease's local deadline has passed (its abort fired, or
 *      is due at that very instant), and the newer lease has the higher fence; a handler whose
 *      local deadline has not passed is never refused by the fenced resource, and the resource
 *      refuses every write older than one it took (so it is never written out of order).
 *   L1 (docs/contract.md §5 queue "the waiter acquires when the lock frees ... poll ... or a wake-up"), LTL
 *      under weak fairness: a parked waiter does not stay parked forever while the lock is free.
 *
 * Broken variants switch one of these on (see broken-*.pml):
 *   BUG_RELEASE_NO_TOKEN   release deletes whatever lease is live (no token check)
 *   BUG_RENEW_RESETS_FENCE renew ties the fence counter's life to the lease, so the counter is
 *                          forgotten when the lease lapses and the next fence starts again at 1
 *   BUG_NO_POLL            a parked waiter waits for a notification only
 *
 * Trace output (for the replay tests): every State operation and clock tick prints one line
 * starting with "TRACE"; tools in this folder turn them into JSON lines.
 */

#ifndef N
#define N 2
#endif
#ifndef JOBS
#define JOBS 2
#endif
#ifndef MAXT
#define MAXT 7
#endif
#define TTL 3
#define RENEW_EVERY 1 /* TTL / 3 */

/* The State's entry for the one lock key. Alive while now < sExp. */
byte sTok;        /* holder's token, 0 = none */
byte sExp;
byte sFence;
byte lastFence;   /* the fence counter: last fence issued for the key */
#ifdef BUG_RENEW_RESETS_FENCE
byte fenceUntil;  /* the counter is forgotten once now >= fenceUntil */
#endif
byte nextTok = 1;
byte now;
byte maxIssued;   /* ghost: highest fence ever issued (I2) */

#define LIVE (sTok != 0 && now < sExp)

/* Per lane. */
bool running[N];  /* its handler runs (from acquire until the handler returns) */
bool aborted[N];  /* its lease-loss abort fired */
byte tok[N];
byte fence[N];
byte localExp[N]; /* local deadline: request time + TTL */
bool waiting[N];  /* parked in acquireWhenFree */
chan wake[N] = [1] of { bit };

byte resFence;    /* the fenced resource: highest fence written */

#define DUE(j) (running[j] && !aborted[j] && now >= localExp[j])
#if N == 1
#define ANY_DUE (DUE(0))
#elif N == 2
#define ANY_DUE (DUE(0) || DUE(1))
#else
#define ANY_DUE (DUE(0) || DUE(1) || DUE(2))
#endif

/* Release notification to every parked lane; each one may be lost. */
inline notifyRelease() {
  j = 0;
  do
  :: j < N ->
     if
     :: waiting[j] && nfull(wake[j]) -> wake[j]!1
     :: true -> skip /* lost (or nobody parked) */
     fi;
     j++
  :: else -> break
  od
}

proctype Lane(byte i) {
  byte job = 0;
  byte reqAt;
  byte renewArmedAt;
  byte j;
  bool ok;
  bool renewing;
  byte renewReqAt;
  byte saveTok, saveExp, saveFence;

  do
  :: job < JOBS ->
     /* acquireWhenFree: try, park until woken or polled, try again */
     do
     :: reqAt = now;
        /* the acquire request is applied at the State (possibly later: the clock may move) */
        atomic {
#ifdef BUG_RENEW_RESETS_FENCE
          if
          :: now >= fenceUntil -> lastFence = 0
          :: else -> skip
          fi;
#endif
          if
          :: LIVE ->
             ok = false;
             printf("TRACE acquire inst=%d tok=0 now=%d ttl=%d ok=0 fence=0\n", i, now, TTL)
          :: else ->
             lastFence++;
             assert(lastFence > maxIssued); /* I2 */
             maxIssued = lastFence;
             sTok = nextTok; nextTok++;
             sExp = now + TTL;
             sFence = lastFence;
#ifdef BUG_RENEW_RESETS_FENCE
             fenceUntil = sExp;
#endif
             /* I3: a handler still running elsewhere is past its deadline and has a lower fence */
             j = 0;
             do
             :: j < N ->
                if
                :: j != i && running[j] ->
#ifndef PAUSES
                   assert(now >= localExp[j]);
#endif
                   assert(fence[j] < sFence)
                :: else -> skip
                fi;
                j++
             :: else -> break
             od;
             j = 0;
             tok[i] = sTok; fence[i] = sFence;
             localExp[i] = reqAt + TTL;
             running[i] = true; aborted[i] = false;
             renewArmedAt = now; renewing = false;
             ok = true; reqAt = 0;
             printf("TRACE acquire inst=%d tok=%d now=%d ttl=%d ok=1 fence=%d\n", i, sTok, now, TTL, sFence)
          fi
        };
        reqAt = 0;
        if
        :: ok -> ok = false; break
        :: else ->
           waiting[i] = true;
           if
           :: wake[i]?_   /* a release notification (a hint: try again) */
#ifndef BUG_NO_POLL
           :: true        /* the poll timer: back-off elapsed */
#endif
           fi;
           waiting[i] = false
        fi
     od;

     /* The handler runs under the lease; RenewedLock renews and watches the deadline. */
     do
     :: atomic { DUE(i) -> aborted[i] = true } /* local expiry: abort with PreemptedError */
     :: atomic { running[i] && !aborted[i] && !renewing && now >= renewArmedAt + RENEW_EVERY ->
          renewing = true; renewReqAt = now }  /* renew timer (may fire late) */
     :: atomic { renewing ->
          /* the renew request is applied at the State, then its answer handled */
          saveTok = sTok; saveExp = sExp; saveFence = sFence;
          if
          :: LIVE && sTok == tok[i] ->
             sExp = now + TTL; ok = true
#ifdef BUG_RENEW_RESETS_FENCE
             ; fenceUntil = sExp
#endif
          :: else -> ok = false;
             assert(sTok == saveTok && sExp == saveExp && sFence == saveFence) /* I1 */
          fi;
          saveTok = 0; saveExp = 0; saveFence = 0;
          printf("TRACE renew inst=%d tok=%d now=%d ttl=%d ok=%d\n", i, tok[i], now, TTL, ok);
          renewing = false;
          if
          :: aborted[i] -> skip                   /* answer after the loss: ignored */
          :: !aborted[i] && ok -> localExp[i] = renewReqAt + TTL; renewArmedAt = now
          :: !aborted[i] && !ok -> aborted[i] = true /* renewal refused: lease lost */
          fi;
          renewReqAt = 0; ok = false
        }
     :: atomic { running[i] ->
          /* the handler writes to a fenced resource (it may do so after its abort, too) */
          if
          :: fence[i] >= resFence -> resFence = fence[i]
          :: else -> assert(aborted[i] || now >= localExp[i]) /* I3: only a lost lease is refused */
          fi
        }
     :: running[i] -> break /* the handler returns (completed, failed, or preempted) */
     od;

     /* release(): timers stop; nothing is sent once the lease was declared lost */
     atomic { running[i] = false; renewing = false };
     if
     :: aborted[i] -> skip
     :: else ->
        /* the release request is applied at the State (possibly later) */
        atomic {
          saveTok = sTok; saveExp = sExp; saveFence = sFence;
#ifdef BUG_RELEASE_NO_TOKEN
          if
          :: LIVE -> ok = (sTok == tok[i]); sTok = 0
          :: else -> ok = false
          fi;
#else
          if
          :: LIVE && sTok == tok[i] -> sTok = 0; ok = true
          :: else -> ok = false
          fi;
#endif
          if
          :: !ok -> assert(sTok == saveTok && sExp == saveExp && sFence == saveFence) /* I1 */
          :: else -> skip
          fi;
          saveTok = 0; saveExp = 0; saveFence = 0;
          printf("TRACE release inst=%d tok=%d now=%d ok=%d\n", i, tok[i], now, ok);
          if
          :: ok -> notifyRelease()
          :: else -> skip
          fi;
          j = 0; ok = false
        }
     fi;
     atomic { job++; renewArmedAt = 0; localExp[i] = 0; aborted[i] = false; tok[i] = 0; fence[i] = 0 }
  :: else -> break
  od
}

active proctype Clock() {
end_clock: /* the clock may stop anywhere */
  do
#ifdef PAUSES
  :: atomic { now < MAXT -> now++; printf("TRACE tick now=%d\n", now) }
#else
  :: atomic { now < MAXT && !ANY_DUE -> now++; printf("TRACE tick now=%d\n", now) }
#endif
  od
}

init {
  atomic {
    byte k = 0;
    do
    :: k < N -> run Lane(k); k++
    :: else -> break
    od
  }
}

/* L1: lane 0 never stays parked while the key is free (no lost wake-up). */
ltl no_lost_wakeup { [] ((waiting[0] && !LIVE) -> <> (!waiting[0] || LIVE)) }
