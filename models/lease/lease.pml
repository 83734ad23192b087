/*
 * Model 1: Thread Lock leases over State, fenced thread-state writes, and shutdown's wait for
 * owed releases (docs/contract.md §5 "Thread Lock mechanics", §7, §8, §10; ADR 0011).
 *
 * Abstracts:
 *   packages/core/src/locks/lock-manager.ts,     LockManager + RenewedLock: renew every TTL/3,
 *   packages/core/src/locks/renewed-lock.ts      local deadline measured from before the request,
 *                                                abort on expiry or on a refused renewal, no
 *                                                release once the lease is lost, lock I/O count
 *   packages/core/src/locks/acquire-when-free.ts the queue strategy's wait: try, park until a
 *                                                wake-up or the poll timer, try again
 *   packages/core/src/runtime/shutdown.ts        shutdown resolves after the deliveries and the
 *                                                lock I/O they still owe
 *   packages/state-memory/src/memory-state.ts    acquireLock / renewLock / releaseLock, fences
 *   packages/state-redis/src/scripts/*.lua       acquire.lua / renew.lua / release.lua (+ PUBLISH)
 *   thread state (§10)                           a write carries the writer's fence; the State
 *                                                accepts it only when the fence is at least the
 *                                                last accepted write's fence
 *
 * What is modelled: N instances ("lanes"), each serving JOBS deliveries of one lock key one after
 * another; one State holding (token, expiresAt, fence) for the key, each operation atomic at the
 * State. Every State call is three steps: the request leaves, the State applies it, the answer
 * arrives; the clock may move between them (answer latency). A request carries what it was sent
 * with: a renewal still in flight after its lane gave up the lease (local deadline, return)
 * still names that lease's token, and the State extends the key if it is that lease's and live
 * (the State cannot know the holder gave up); the next holder then waits for that expiry. The
 * clock advances one unit at a time up to MAXT; a tick fires every local timer that is due at the new time (local expiry, the
 * renew timer, the poll timer), as Node's timers do once the event loop reaches them, before any
 * answer arriving at that time. The State may lose the key once (failover, eviction, LOSS). Handlers
 * run, write thread state (also after their abort: a paused process writes late), and return.
 * Release notifications to parked waiters may be lost; the poll timer is the fallback. Lane 0's
 * instance may shut down at any moment: it starts no more deliveries and resolves once its
 * delivery has its outcome and its lock I/O has settled.
 *
 * Left out: a waiter giving up (detach timeout, shutdown: a lease granted to it late is released
 * at once, an ordinary token-checked release), several deliveries of one instance competing for
 * the key, supersession (model 2), back-off growth and jitter (the poll is one unit here; with
 * -DLIVENESS it is "some time later"), State errors and outages (a failed renew is retried until
 * the local deadline: a late renew here), clock skew between instances, Redis fence time floors
 * and fence-key retention (the counter is never forgotten), dedupe marks, crashes, and a stale
 * renewal still in flight when the lane starts its next delivery (it would be refused: another
 * token). With -DPAUSES a tick may also skip a lane's timers (the instance is paused: GC,
 * SIGSTOP) and they fire later: then only the fence clauses hold, and are checked.
 *
 * Invariants (assertions; each names its tag, which `check.sh` reads from Spin's report):
 *   I1 (§8 renewLock/releaseLock): a renew or release succeeds only for the current token
 *      before its expiry, and one refused changes nothing in the State.
 *   I2 (§5 "a lease carries a fencing token, monotonic per key"): every fence issued is greater
 *      than every fence issued before it.
 *   I3 (§5 lease-loss cancellation): when a lane starts its handler while another lane's handler
 *      still runs, the older lease's local deadline has passed (unless the State lost the key),
 *      and the newer lease has the higher fence.
 *   I4 (§5 "local expiry measured from before the request"): a holder's local deadline is never
 *      later than the State's expiry of its lease as the State set it.
 *   I5 (§5): every holder has aborted by its local deadline (checked after every tick).
 *   I6 (§5 "renewal refused: the lease is lost"): a lane whose renewal was refused has aborted.
 *   F1 (§10 fenced thread state): a write by a holder whose lease was lost is never accepted
 *      after a successor's write (successors are the later tokens).
 *   F2 (§10): a holder whose lease is live (deadline not passed, key not lost) is never refused.
 *   S1 (§7 shutdown): when shutdown resolves, no release owed by a finished delivery is still
 *      to come.
 *   L1 (§5 queue), LTL under weak fairness (-DLIVENESS): a lane that wants the lock holds it
 *      eventually once no live holder remains (the "wants" ghost: from the delivery's start
 *      until its lease is granted).
 *
 * Broken variants switch one of these on (broken-*.pml); model mutations are patches applied by
 * check.sh (mutations.txt):
 *   BUG_RELEASE_NO_TOKEN   release deletes whatever lease is live (no token check)
 *   BUG_RENEW_RESETS_FENCE the fence counter lives only as long as the lease, so it restarts at 1
 *   BUG_NO_POLL            a parked waiter waits for a notification only
 *   BUG_WRITE_NO_FENCE     the State accepts every thread-state write (last writer wins)
 *
 * Trace output (for the replay tests): every request, State operation, answer, timer, wake-up and
 * clock tick prints one line starting with "TRACE"; src/lease-trace.ts turns them into JSON lines.
 */

#ifndef N
#define N 2
#endif
#ifndef JOBS
#define JOBS 2
#endif
#ifndef MAXT
#define MAXT 6
#endif
#ifndef LOSS
#define LOSS 1
#endif
#define TTL 3
#define RENEW_EVERY 1 /* TTL / 3 */
#define POLL 1

/* Invariant tags: constants in every assertion, so Spin's report names the invariant. */
hidden byte I1 = 1;
hidden byte I2 = 1;
hidden byte I3 = 1;
hidden byte I4 = 1;
hidden byte I5 = 1;
hidden byte I6 = 1;
hidden byte F1 = 1;
hidden byte F2 = 1;
hidden byte S1 = 1;

/* The State's entry for the one lock key. Alive while now < sExp. */
byte sTok;        /* holder's token, 0 = none */
byte sExp;
byte lastFence;   /* the fence counter: last fence issued for the key */
byte nextTok = 1;
byte now;
byte maxIssued;   /* ghost: highest fence ever issued (I2) */
byte losses;      /* key losses so far */
bool lost;        /* ghost: the State lost the key at least once */
#ifdef BUG_RENEW_RESETS_FENCE
byte fenceUntil;
#endif

/* Thread state: the fence of the last accepted write, and (ghost) its writer's token. */
byte wFence;
byte wTok;

#define LIVE (sTok != 0 && now < sExp)

/* Lane phases. */
#define IDLE 0
#define ACQ_SENT 1    /* acquire request on its way */
#define ACQ_DONE 2    /* applied at the State; the answer is on its way */
#define PARKED 3      /* refused: waiting for a wake-up or the poll timer */
#define HOLDING 4     /* lease granted: the handler runs (or returned, release on its way) */
#define REL_SENT 5
#define REL_DONE 6
#define DONE 7

/* Renewal phases. */
#define R_NONE 0
#define R_SENT 1
#define R_DONE 2

byte phase[N];
byte job[N];
byte reqAt[N];    /* when the acquire request left */
bool ans[N];      /* the State's answer (acquire, release) */
byte grantTok[N]; /* the token / fence / expiry the State granted (on its way to the lane) */
byte grantFence[N];
byte grantExp[N];
bool running[N];  /* the handler runs */
bool aborted[N];  /* its lease-loss abort fired */
bool refused[N];  /* ghost: a renewal was refused */
byte tok[N];
byte fence[N];
byte localExp[N]; /* local deadline */
byte renewAt[N];  /* the renew timer's due time */
byte rphase[N];
byte rReqAt[N];
bool rAns[N];
byte rExp[N];     /* expiry the State set for the renewal */
byte rTok[N];     /* the token the renewal in flight carries (its lane's when it was sent) */
byte pollAt[N];
bool wants[N];    /* ghost (L1): from the delivery's start until the lease is granted */
bool busy[N];     /* the delivery has no outcome yet */
bool owed[N];     /* ghost (S1): a release owed by a finished delivery, not settled */
byte io[N];       /* lock I/O in flight (acquire and release calls): LockManager.ioInFlight */
bool closed;      /* lane 0's instance is shutting down */

#define DUE(j) (running[j] && !aborted[j] && now >= localExp[j])

/* Fires lane j's timers that are due now (the tick reached them). */
inline fireTimers(j) {
  if
  :: DUE(j) -> aborted[j] = true; printf("TRACE abort inst=%d now=%d why=1\n", j, now)
  :: else -> skip
  fi;
  if
  :: running[j] && !aborted[j] && rphase[j] == R_NONE && now >= renewAt[j] ->
     rphase[j] = R_SENT; rReqAt[j] = now; rTok[j] = tok[j];
     printf("TRACE renewreq inst=%d now=%d\n", j, now)
  :: else -> skip
  fi;
#if !defined(LIVENESS) && !defined(BUG_NO_POLL)
  if
  :: phase[j] == PARKED && now >= pollAt[j] ->
     phase[j] = ACQ_SENT; reqAt[j] = now; io[j]++; pollAt[j] = 0;
     printf("TRACE acqreq inst=%d now=%d why=2\n", j, now)
  :: else -> skip
  fi
#endif
}

/* Release notification to every parked lane; each one may be lost. */
inline notifyRelease() {
  k = 0;
  do
  :: k < N ->
     if
     :: phase[k] == PARKED ->
        phase[k] = ACQ_SENT; reqAt[k] = now; io[k]++; pollAt[k] = 0;
        printf("TRACE wake inst=%d now=%d\n", k, now);
        printf("TRACE acqreq inst=%d now=%d why=3\n", k, now)
     :: true -> skip /* lost (or nobody parked) */
     fi;
     k++
  :: else -> break
  od;
  k = 0
}

proctype Lane(byte i) {
  byte k;
  byte saveTok, saveExp;
end_lane: /* a lane may wait for ever: parked once the clock stopped, or done */
  do
  /* a delivery starts: its first acquire request leaves */
  :: atomic { phase[i] == IDLE && job[i] < JOBS && rphase[i] == R_NONE && !(i == 0 && closed) ->
       busy[i] = true; wants[i] = true;
       phase[i] = ACQ_SENT; reqAt[i] = now; io[i]++;
       printf("TRACE start inst=%d now=%d\n", i, now);
       printf("TRACE acqreq inst=%d now=%d why=1\n", i, now) }
  /* the State applies the acquire */
  :: atomic { phase[i] == ACQ_SENT ->
#ifdef BUG_RENEW_RESETS_FENCE
       if
       :: now >= fenceUntil -> lastFence = 0
       :: else -> skip
       fi;
#endif
       if
       :: LIVE -> ans[i] = false;
          printf("TRACE acquire inst=%d tok=0 now=%d ttl=%d ok=0 fence=0\n", i, now, TTL)
       :: else ->
          lastFence++;
          assert(I2 && lastFence > maxIssued);
          maxIssued = lastFence;
          sTok = nextTok; nextTok++;
          sExp = now + TTL;
#ifdef BUG_RENEW_RESETS_FENCE
          fenceUntil = sExp;
#endif
          ans[i] = true; grantTok[i] = sTok; grantFence[i] = lastFence; grantExp[i] = sExp;
          printf("TRACE acquire inst=%d tok=%d now=%d ttl=%d ok=1 fence=%d\n", i, sTok, now, TTL, lastFence)
       fi;
       phase[i] = ACQ_DONE }
  /* its answer arrives */
  :: atomic { phase[i] == ACQ_DONE ->
       io[i]--;
       printf("TRACE acqans inst=%d now=%d ok=%d\n", i, now, ans[i]);
       if
       :: ans[i] ->
          tok[i] = grantTok[i]; fence[i] = grantFence[i];
          localExp[i] = reqAt[i] + TTL;
          assert(I4 && localExp[i] <= grantExp[i]);
          /* I3: of two handlers running at once, the older lease's is past its deadline */
          k = 0;
          do
          :: k < N ->
             if
             :: k != i && running[k] && fence[k] < fence[i] ->
#ifndef PAUSES
                assert(I3 && (lost || now >= localExp[k]))
#else
                skip
#endif
             :: k != i && running[k] && fence[k] >= fence[i] ->
#ifndef PAUSES
                assert(I3 && (lost || now >= localExp[i]))
#else
                skip
#endif
             :: else -> skip
             fi;
             k++
          :: else -> break
          od;
          k = 0;
          renewAt[i] = now + RENEW_EVERY;
          running[i] = true; aborted[i] = false; refused[i] = false; wants[i] = false;
          phase[i] = HOLDING;
          if
          :: now >= localExp[i] -> aborted[i] = true; printf("TRACE abort inst=%d now=%d why=1\n", i, now)
          :: else -> skip
          fi
       :: else ->
          phase[i] = PARKED; pollAt[i] = now + POLL
       fi;
       ans[i] = false; grantTok[i] = 0; grantFence[i] = 0; grantExp[i] = 0; reqAt[i] = 0 }
#if defined(LIVENESS) && !defined(BUG_NO_POLL)
  /* the poll timer, some time later */
  :: atomic { phase[i] == PARKED ->
       phase[i] = ACQ_SENT; reqAt[i] = now; io[i]++; pollAt[i] = 0;
       printf("TRACE acqreq inst=%d now=%d why=2\n", i, now) }
#endif
  /* the State applies a renewal */
  :: atomic { rphase[i] == R_SENT ->
       saveTok = sTok; saveExp = sExp;
       if
       :: LIVE && sTok == rTok[i] -> /* renewable: the request carries its own token */
          sExp = now + TTL; rAns[i] = true; rExp[i] = sExp
#ifdef BUG_RENEW_RESETS_FENCE
          ; fenceUntil = sExp
#endif
       :: else -> rAns[i] = false
       fi;
       assert(I1 && (rAns[i] -> (saveTok == rTok[i] && now < saveExp) : (sTok == saveTok && sExp == saveExp)));
       saveTok = 0; saveExp = 0;
       printf("TRACE renew inst=%d tok=%d now=%d ttl=%d ok=%d\n", i, rTok[i], now, TTL, rAns[i]);
       rphase[i] = R_DONE }
  /* its answer arrives */
  :: atomic { rphase[i] == R_DONE ->
       printf("TRACE renewans inst=%d now=%d ok=%d\n", i, now, rAns[i]);
       if
       :: !running[i] || aborted[i] -> skip          /* after the return or the loss: ignored */
       :: else ->
          if
          :: rAns[i] ->
             localExp[i] = rReqAt[i] + TTL;
             assert(I4 && localExp[i] <= rExp[i]);
             renewAt[i] = now + RENEW_EVERY
          :: else ->
             refused[i] = true;
             aborted[i] = true; printf("TRACE abort inst=%d now=%d why=2\n", i, now)
          fi;
          assert(I6 && (!refused[i] || aborted[i]))
       fi;
       rphase[i] = R_NONE; rAns[i] = false; rReqAt[i] = 0; rExp[i] = 0; rTok[i] = 0 }
  /* the handler writes thread state with its fence (it may do so after its abort, too) */
  :: atomic { running[i] ->
#ifdef BUG_WRITE_NO_FENCE
       if
       :: true ->
#else
       if
       :: fence[i] >= wFence ->
#endif
          assert(F1 && tok[i] >= wTok);
          wFence = fence[i]; wTok = tok[i]
       :: else ->
          assert(F2 && (aborted[i] || lost || now >= localExp[i]))
       fi }
  /* the handler returns: the outcome is recorded once the release (if any) is under way */
  :: atomic { running[i] ->
       running[i] = false;
       printf("TRACE ret inst=%d now=%d\n", i, now);
       if
       :: !aborted[i] -> owed[i] = true; io[i]++; phase[i] = REL_SENT;
          printf("TRACE relreq inst=%d now=%d\n", i, now)
       :: else -> phase[i] = DONE
       fi;
       busy[i] = false;
       fence[i] = 0; localExp[i] = 0; renewAt[i] = 0; refused[i] = false; aborted[i] = false }
  /* the State applies the release */
  :: atomic { phase[i] == REL_SENT ->
       saveTok = sTok; saveExp = sExp;
#ifdef BUG_RELEASE_NO_TOKEN
       if
       :: LIVE -> ans[i] = (sTok == tok[i]); sTok = 0
       :: else -> ans[i] = false
       fi;
#else
       if
       :: LIVE && sTok == tok[i] -> sTok = 0; ans[i] = true
       :: else -> ans[i] = false
       fi;
#endif
       printf("TRACE release inst=%d tok=%d now=%d ok=%d\n", i, tok[i], now, ans[i]);
       assert(I1 && (ans[i] -> (saveTok == tok[i] && now < saveExp && sTok == 0) : (sTok == saveTok && sExp == saveExp)));
       saveTok = 0; saveExp = 0;
       if
       :: ans[i] -> notifyRelease()
       :: else -> skip
       fi;
       phase[i] = REL_DONE }
  /* its answer arrives */
  :: atomic { phase[i] == REL_DONE ->
       io[i]--; owed[i] = false; ans[i] = false;
       printf("TRACE relans inst=%d now=%d\n", i, now);
       phase[i] = DONE }
  /* the next delivery of this lane */
  :: atomic { phase[i] == DONE -> job[i]++; phase[i] = IDLE; tok[i] = 0 }
  :: phase[i] == IDLE && (job[i] >= JOBS || (i == 0 && closed)) -> break
  od
}

active proctype Clock() {
  byte j;
end_clock: /* the clock may stop anywhere */
  do
  :: atomic { now < MAXT ->
       now++; printf("TRACE tick now=%d\n", now);
       j = 0;
       do
       :: j < N ->
#ifdef PAUSES
          if
          :: fireTimers(j)
          :: skip /* this lane's instance is paused: its timers fire later */
          fi;
#else
          fireTimers(j);
          assert(I5 && !(running[j] && !aborted[j] && now >= localExp[j]));
#endif
          j++
       :: else -> break
       od;
       j = 0 }
#ifdef PAUSES
  :: atomic { j = 0;
       do
       :: j < N -> fireTimers(j); j++
       :: j < N -> j++
       :: else -> break
       od;
       j = 0 }
#endif
  /* the State loses the key (failover to a replica that never saw it, eviction) */
  :: atomic { losses < LOSS && LIVE ->
       sTok = 0; lost = true; losses++; printf("TRACE lose now=%d\n", now) }
  od
}

/* Lane 0's instance shuts down at any moment (S1; not with -DNO_SHUTDOWN). */
#ifndef NO_SHUTDOWN
active proctype Shutdown() {
  atomic { !closed -> closed = true; printf("TRACE shutdown now=%d\n", now) };
end_shutdown: /* it may wait for ever: lane 0's delivery may never get the lock */
  atomic { !busy[0] && io[0] == 0 ->
    printf("TRACE resolved now=%d\n", now);
    assert(S1 && !owed[0]) }
}
#endif

init {
  atomic {
    byte k = 0;
    do
    :: k < N -> run Lane(k); k++
    :: else -> break
    od
  }
}

#ifdef LIVENESS
/* L1: lane 0, once it wants the lock and no live holder remains, eventually holds it. */
ltl wants_lock { [] ((wants[0] && !LIVE) -> <> (!wants[0] || LIVE)) }
#endif
