#!/usr/bin/env bash
# Fuzzes rca's parsers, content sniffer and bundle reader with cargo-fuzz (libFuzzer).
#
#   fuzz/run.sh [SECONDS]   fuzz every target in turn, SECONDS in all (default 180) split over
#                           the targets, starting from the stored corpus; new inputs go to a
#                           scratch folder, crashes to fuzz/artifacts/<target>/ (exit 1)
#   fuzz/run.sh seed        write seeds from the fixtures (fuzz/seeds/) and merge those that add
#                           coverage into fuzz/corpus/ (then cmin)
#   fuzz/run.sh cmin        minimise fuzz/corpus/ to the inputs that add edge coverage, cut short
#   fuzz/run.sh repro TARGET FILE
#                           run one input (a crash under fuzz/artifacts/) under the sanitizer
#
# Environment: FUZZ_TARGETS (default "parse sniff bundle").
# Installs cargo-fuzz when it is missing. Builds with the nightly toolchain when rustup has one,
# else with the default toolchain and RUSTC_BOOTSTRAP=1 (the sanitizer flags are unstable).
set -euo pipefail
cd "$(dirname "$0")"

if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install --locked cargo-fuzz
fi
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  fuzz=(cargo +nightly fuzz)
else
  export RUSTC_BOOTSTRAP=1
  fuzz=(cargo fuzz)
fi

targets=(${FUZZ_TARGETS:-parse sniff bundle})

# Longest input per target: the sniffer sees 4 KiB of a file; parsers' structure shows within
# 32 KiB; a bundle needs room for a few tar entries.
max_len() {
  case "$1" in
    sniff) echo 8192 ;;
    parse) echo 32768 ;;
    bundle) echo 262144 ;;
  esac
}

# What the stored corpus keeps of an input, so that the tree holds a few MB: the inputs that add
# edge coverage (-use_counters=0), cut to this many bytes.
stored_len() {
  case "$1" in
    sniff) echo 4096 ;;
    parse) echo 1024 ;;
    bundle) echo 8192 ;;
  esac
}

# Per input: 10 s of time and 2 GiB of memory at most (a hang or a blow-up is a crash).
limits=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1)

case "${1:-180}" in
  seed)
    RCA_FUZZ_SEEDS="$PWD/seeds" cargo test -q --manifest-path ../Cargo.toml -p rca --test all \
      fuzz_replay::seed_corpus -- --ignored --nocapture
    for t in "${targets[@]}"; do
      mkdir -p "corpus/$t"
      "${fuzz[@]}" run "$t" "corpus/$t" "seeds/$t" -- -merge=1 -max_len="$(max_len "$t")" "${limits[@]}"
    done
    ;;
  cmin)
    for t in "${targets[@]}"; do
      "${fuzz[@]}" cmin "$t" "corpus/$t" -- -use_counters=0 -max_len="$(stored_len "$t")" "${limits[@]}"
    done
    ;;
  repro)
    "${fuzz[@]}" run "$2" "$3" -- "${limits[@]}"
    ;;
  *[!0-9]*)
    sed -n '2,/^set/p' "$0" | sed '$d' >&2
    exit 2
    ;;
  *)
    total=$1
    each=$((total / ${#targets[@]}))
    "${fuzz[@]}" build
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    for t in "${targets[@]}"; do
      mkdir -p "$scratch/$t" "artifacts/$t"
      echo "fuzz: $t for ${each} s" >&2
      log="$scratch/$t.log"
      "${fuzz[@]}" run "$t" "$scratch/$t" "corpus/$t" -- -max_total_time="$each" \
        -max_len="$(max_len "$t")" -artifact_prefix="artifacts/$t/" "${limits[@]}" \
        >"$log" 2>&1 && status=0 || status=$?
      grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "$log" >&2 || true
      if [ "$status" -ne 0 ]; then
        tail -n 60 "$log" >&2
        echo "fuzz: $t failed; replay with: fuzz/run.sh repro $t fuzz/artifacts/$t/<file>" >&2
        exit 1
      fi
    done
    ;;
esac
