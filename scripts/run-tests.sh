#!/usr/bin/env bash
# `make test`: prerequisites, the Rust tests, then every scenario script scripts/test-*.sh
# against the release server. The last line is "N passed, M failed":
#   N, M = the totals of cargo's "test result:" lines (every #[test], unit, integration
#          and doc tests; a cargo run that fails without a failed test, e.g. a build
#          error, counts as 1 failed)
#        + one per scenario script (PASS or FAIL).
# Exit status 0 only if M is 0.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/games"
# Above lib.sh's own SCRIPT_TIMEOUT (180 s), so that a script that overruns says so.
SCENARIO_TIMEOUT=${SCENARIO_TIMEOUT:-240}

scripts/prereqs.sh || {
    echo "0 passed, 1 failed"
    exit 1
}

passed=0
failed=0
failures=()
log=$(mktemp "${TMPDIR:-/tmp}/goserver-cargo-test.XXXXXX")
trap 'rm -f "$log"' EXIT

# One build profile for everything: the scenario scripts use target/release/goserver.
echo "== cargo build --release (the server and the examples)"
if ! cargo build --release --bins --examples </dev/null; then
    echo "the release build failed: no tests ran"
    echo "0 passed, 1 failed"
    exit 1
fi

echo "== cargo test --release --no-fail-fast"
cargo test --release --no-fail-fast </dev/null 2>&1 | tee "$log"
cargo_status=${PIPESTATUS[0]}
read -r cargo_passed cargo_failed < <(awk '
    /^test result:/ {
        for (i = 2; i <= NF; i++) {
            if ($i ~ /^passed;?$/) p += $(i - 1)
            if ($i ~ /^failed;?$/) f += $(i - 1)
        }
    }
    END { print p + 0, f + 0 }' "$log")
if ((cargo_status != 0 && cargo_failed == 0)); then
    cargo_failed=1
fi
((cargo_failed > 0)) && failures+=("cargo test ($cargo_failed failed)")
passed=$((passed + cargo_passed))
failed=$((failed + cargo_failed))

echo "== scenario scripts (scripts/test-*.sh)"
for script in scripts/test-*.sh; do
    [[ -e $script ]] || continue
    start=$SECONDS
    if output=$(timeout -k 5 "$SCENARIO_TIMEOUT" bash "$script" </dev/null 2>&1); then
        echo "PASS $script ($((SECONDS - start)) s)"
        passed=$((passed + 1))
    else
        echo "FAIL $script ($((SECONDS - start)) s)"
        printf '%s\n' "$output" | sed 's/^/    /'
        failed=$((failed + 1))
        failures+=("$script")
    fi
done

if ((failed > 0)); then
    echo "failed: ${failures[*]}"
fi
echo "$passed passed, $failed failed"
((failed == 0))
