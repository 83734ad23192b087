#!/usr/bin/env bash
# Checks every model with Spin, two searches at a time (MODELS_JOBS, default 2):
#   - each good configuration exhaustively: it must find no error and finish its search;
#   - each broken variant (*/broken-*.pml) and each model mutation (mutations/models.txt, a patch
#     applied to a copy) until Spin rejects it, and it must be rejected BY THE INVARIANT IT TARGETS:
#     the assertion tag Spin reports (I1, A3, ...), `end` for an invalid end state, `L1` for an
#     acceptance cycle of the liveness claim. Rejected for another reason, or accepted, fails.
# Prints one line per run and a summary; exits non-zero on any unexpected result, and when spin,
# a C compiler or node is missing (never skips). `check.sh PATTERN...` runs only the runs whose names match (globs).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jobs_max="${MODELS_JOBS:-2}"

for tool in spin "${CC:-gcc}" node; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "models: '$tool' is not installed; the model checks cannot run." >&2
    echo "models: install it (Debian/Ubuntu: apt-get install -y spin gcc); .ci/run does this in CI." >&2
    exit 1
  fi
done

work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
started=$(date +%s)

SAFE="-DSAFETY -DNOCLAIM -DCOLLAPSE"
LIVE="-DCOLLAPSE -DNFAIR=3"

# Configurations: name -> model, Spin defines, C defines, pan flags.
declare -A C_MODEL C_DEFS C_CC C_FLAGS
config() { C_MODEL[$1]=$2; C_DEFS[$1]=$3; C_CC[$1]=$4; C_FLAGS[$1]=$5; }
config lease-safety     lease/lease.pml "-DMAXT=5 -DLOSS=0 -DNO_SHUTDOWN" "$SAFE" "-m400000"
config lease-pauses     lease/lease.pml "-DMAXT=4 -DLOSS=0 -DNO_SHUTDOWN -DPAUSES" "$SAFE" "-m400000"
config lease-key-loss   lease/lease.pml "-DMAXT=4 -DLOSS=1 -DNO_SHUTDOWN" "$SAFE" "-m400000"
config lease-shutdown   lease/lease.pml "-DMAXT=4 -DLOSS=0" "$SAFE" "-m400000"
config lease-liveness   lease/lease.pml "-DMAXT=4 -DLOSS=1 -DNO_SHUTDOWN -DLIVENESS" "$LIVE" "-a -f -m400000 -N wants_lock"
config admission-queue  admission/admission.pml "-DSTRATEGY=QUEUE" "$SAFE" "-m400000"
config admission-drop   admission/admission.pml "-DSTRATEGY=DROP" "$SAFE" "-m400000"
config admission-burst  admission/admission.pml "-DSTRATEGY=BURST" "$SAFE" "-m400000"

# Runs: name, kind (pass | reject), model file (absolute), configuration, expected tag.
runs=()
add() { runs+=("$1|$2|$3|$4|$5"); }
# The longest searches first, so two workers stay busy to the end.
add admission-queue pass "$here/admission/admission.pml" admission-queue -
add admission-burst pass "$here/admission/admission.pml" admission-burst -
add admission-drop  pass "$here/admission/admission.pml" admission-drop -
add lease-liveness  pass "$here/lease/lease.pml" lease-liveness -
add lease-key-loss  pass "$here/lease/lease.pml" lease-key-loss -
add lease-shutdown  pass "$here/lease/lease.pml" lease-shutdown -
add lease-safety    pass "$here/lease/lease.pml" lease-safety -
add lease-pauses    pass "$here/lease/lease.pml" lease-pauses -
# Broken variants: the model with one BUG_* switch (see each file's header).
add broken-release-no-token    reject "$here/lease/broken-release-no-token.pml" lease-safety I1
add broken-renew-resets-fence  reject "$here/lease/broken-renew-resets-fence.pml" lease-safety I2
add broken-write-no-fence      reject "$here/lease/broken-write-no-fence.pml" lease-safety F1
add broken-no-poll             reject "$here/lease/broken-no-poll.pml" lease-liveness L1
add broken-early-slot-release  reject "$here/admission/broken-early-slot-release.pml" admission-queue A1
add broken-mark-before-admit   reject "$here/admission/broken-mark-before-admit.pml" admission-queue A2
add broken-supersede-silent    reject "$here/admission/broken-supersede-silent.pml" admission-queue end
add broken-burst-overflow-drop reject "$here/admission/broken-burst-overflow-drop.pml" admission-burst end
# Model mutations: patches of a copy (mutations/models.txt).
mutations="$here/mutations/models.txt"
while IFS=$'\t' read -r name target cfg expect; do
  mkdir -p "$work/mutants"
  node "$here/mutations/apply.mjs" apply "$mutations" "$name" "$here/$target" "$work/mutants/$name.pml"
  add "mutant-$name" reject "$work/mutants/$name.pml" "$cfg" "$expect"
done < <(node "$here/mutations/apply.mjs" list "$mutations")

# What fired, from pan's report: an assertion's tag, `end`, `L1`, or the report line itself.
fired_of() {
  local line
  line=$(grep -m1 -E '^pan:1:' "$1" || true)
  if [[ "$line" =~ assertion\ violated\ \(([A-Z][A-Z0-9]*)\&\& ]]; then
    echo "${BASH_REMATCH[1]}"
  elif [[ "$line" == *"invalid end state"* ]]; then
    echo end
  elif [[ "$line" == *"acceptance cycle"* ]]; then
    echo L1
  else
    echo "other(${line:-no report})"
  fi
}

# One run; writes its result line to $dir/result.
one() {
  local name=$1 kind=$2 model=$3 cfg=$4 expect=$5
  local dir="$work/$name"
  mkdir -p "$dir"
  (
    cd "$dir"
    # shellcheck disable=SC2086
    spin -a ${C_DEFS[$cfg]} "$model" >spin.out 2>&1 || { cat spin.out; exit 3; }
    # shellcheck disable=SC2086
    # Exhaustive searches get an optimised verifier; rejections stop early, so compile fast.
    "${CC:-gcc}" "$([[ "$kind" == pass ]] && echo -O2 || echo -O0)" -w ${C_CC[$cfg]} -o pan pan.c >cc.out 2>&1 || { cat cc.out; exit 3; }
    # shellcheck disable=SC2086
    ./pan ${C_FLAGS[$cfg]} >pan.out 2>&1 || true
  ) >"$dir/build.out" 2>&1 || {
    echo "FAIL $name: could not build the verifier: $(head -3 "$dir/build.out" | tr '\n' ' ')" >"$dir/result"
    return
  }
  local out="$dir/pan.out" errors states secs
  errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$out" | tail -1)
  states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$out" | tail -1)
  secs=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' "$out" | tail -1)
  if [[ -z "$errors" ]]; then
    echo "FAIL $name: pan printed no result: $(head -5 "$out" | tr '\n' ' ')" >"$dir/result"
    return
  fi
  if [[ "$kind" == pass ]]; then
    if [[ "$errors" == 0 ]] && ! grep -qE 'max search depth too small|Search not completed' "$out"; then
      printf 'ok   %-44s %11s states %7ss  no errors, search complete\n' "$name" "$states" "${secs:-0}" >"$dir/result"
    else
      {
        echo "FAIL $name: expected an exhaustive search without errors"
        grep -E 'pan:1|errors:|max search depth|Search not completed' "$out" || true
      } >"$dir/result"
    fi
    return
  fi
  local fired
  if [[ "$errors" == 0 ]]; then
    echo "FAIL $name: accepted (expected a rejection by $expect): the checker missed the bug" >"$dir/result"
  elif fired=$(fired_of "$out") && [[ "$fired" == "$expect" ]]; then
    printf 'ok   %-44s rejected by %-4s %s\n' "$name" "$fired" "$(grep -m1 -E '^pan:1:' "$out" | sed 's/^pan:1: //' | cut -c1-70)" >"$dir/result"
  else
    echo "FAIL $name: rejected by $fired, expected $expect: $(grep -m1 -E '^pan:1:' "$out")" >"$dir/result"
  fi
}

selected=("$@")
wanted() {
  [[ ${#selected[@]} == 0 ]] && return 0
  local s
  for s in "${selected[@]}"; do [[ "$1" == $s ]] && return 0; done
  return 1
}

names=()
for run in "${runs[@]}"; do
  IFS='|' read -r name kind model cfg expect <<<"$run"
  wanted "$name" || continue
  names+=("$name")
  while (($(jobs -rp | wc -l) >= jobs_max)); do wait -n || true; done
  one "$name" "$kind" "$model" "$cfg" "$expect" &
done
wait

passed=0
failed=0
for name in "${names[@]}"; do
  if [[ -f "$work/$name/result" ]]; then
    cat "$work/$name/result"
    if grep -q '^ok' "$work/$name/result"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  else
    echo "FAIL $name: no result"
    failed=$((failed + 1))
  fi
done
echo "models: ${passed} passed, ${failed} failed ($(($(date +%s) - started)) s, ${jobs_max} at a time)"
[[ "$failed" == 0 ]]
