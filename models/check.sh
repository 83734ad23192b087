#!/usr/bin/env bash
# Checks every model with Spin: each good configuration exhaustively (it must find no error and
# finish its search), each broken variant until Spin rejects it with a counterexample (it must).
# Prints one line per run (states stored, seconds) and a summary line; exits non-zero on any
# unexpected result, and when spin or a C compiler is missing (never skips).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

for tool in spin "${CC:-gcc}"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "models: '$tool' is not installed; the model checks cannot run." >&2
    echo "models: install it (Debian/Ubuntu: apt-get install -y spin gcc); .ci/run does this in CI." >&2
    exit 1
  fi
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# run NAME EXPECT(pass|fail) MODEL "SPIN_DEFINES" "CC_DEFINES" "PAN_FLAGS"
run() {
  local name=$1 expect=$2 model=$3 defines=$4 cc=$5 flags=$6
  local dir="$work/$name"
  mkdir -p "$dir"
  (
    cd "$dir"
    # shellcheck disable=SC2086
    spin -a $defines "$here/$model" >spin.out 2>&1 || { cat spin.out >&2; exit 3; }
    # shellcheck disable=SC2086
    "${CC:-gcc}" -O2 -w $cc -o pan pan.c >cc.out 2>&1 || { cat cc.out >&2; exit 3; }
    # shellcheck disable=SC2086
    ./pan $flags >pan.out 2>&1 || true
  ) || { echo "FAIL $name: could not build the verifier"; failed=$((failed + 1)); return; }
  local out="$dir/pan.out"
  local errors states secs
  errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$out" | tail -1)
  states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$out" | tail -1)
  secs=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' "$out" | tail -1)
  if [[ -z "$errors" ]]; then
    echo "FAIL $name: pan printed no result"; sed -n 1,20p "$out"; failed=$((failed + 1)); return
  fi
  if [[ "$expect" == pass ]]; then
    if [[ "$errors" == 0 ]] && ! grep -qE 'max search depth too small|Search not completed' "$out"; then
      printf 'ok   %-34s %12s states %8ss  no errors, search complete\n' "$name" "$states" "${secs:-0}"
      passed=$((passed + 1))
    else
      echo "FAIL $name: expected an exhaustive search without errors"
      grep -E 'pan:1|errors:|max search depth|Search not completed' "$out" || true
      (cd "$dir" && spin -t $defines "$here/$model" 2>&1 | tail -40) || true
      failed=$((failed + 1))
    fi
  else
    if [[ "$errors" != 0 ]]; then
      local why
      why=$(grep -m1 -E '^pan:1:' "$out" || echo 'error found')
      printf 'ok   %-34s rejected as expected: %s\n' "$name" "${why#pan:1: }"
      passed=$((passed + 1))
    else
      echo "FAIL $name: Spin accepted a broken variant (the checker could not fail)"
      failed=$((failed + 1))
    fi
  fi
}

SAFE="-DSAFETY -DNOCLAIM -DCOLLAPSE"
LIVE="-DCOLLAPSE -DNFAIR=3"

# Model 1: Thread Lock leases over State.
run lease-safety          pass lease/lease.pml "-DMAXT=5" "$SAFE" "-m400000"
run lease-safety-pauses   pass lease/lease.pml "-DMAXT=5 -DPAUSES" "$SAFE" "-m400000"
run lease-three-lanes     pass lease/lease.pml "-DMAXT=4 -DN=3 -DJOBS=1" "$SAFE" "-m400000"
run lease-no-lost-wakeup  pass lease/lease.pml "-DMAXT=5" "$LIVE" "-a -f -m400000 -N no_lost_wakeup"
run broken-release-no-token   fail lease/broken-release-no-token.pml "-DMAXT=5" "$SAFE" "-m400000"
run broken-renew-resets-fence fail lease/broken-renew-resets-fence.pml "-DMAXT=5" "$SAFE" "-m400000"
run broken-no-poll            fail lease/broken-no-poll.pml "-DMAXT=5" "$LIVE" "-a -f -m400000 -N no_lost_wakeup"

# Model 2: per-instance admission, strategies and shutdown.
run admission-queue       pass admission/admission.pml "-DSTRATEGY=QUEUE" "$SAFE" "-m400000"
run admission-drop        pass admission/admission.pml "-DSTRATEGY=DROP" "$SAFE" "-m400000"
run admission-burst       pass admission/admission.pml "-DSTRATEGY=BURST" "$SAFE" "-m400000"
run broken-early-slot-release  fail admission/broken-early-slot-release.pml "" "$SAFE" "-m400000"
run broken-mark-before-admit   fail admission/broken-mark-before-admit.pml "" "$SAFE" "-m400000"
run broken-supersede-silent    fail admission/broken-supersede-silent.pml "" "$SAFE" "-m400000"
run broken-burst-overflow-drop fail admission/broken-burst-overflow-drop.pml "" "$SAFE" "-m400000"

echo "models: ${passed} passed, ${failed} failed"
[[ "$failed" == 0 ]]
