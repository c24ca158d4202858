#!/usr/bin/env bash
# Checks what `make test` needs besides Rust: nc (Debian package netcat-openbsd) for the
# scenario scripts, gnugo for the engine cross-check (tests/go_gnugo.rs), chromium
# for the web board's browser test (tests/browser.rs), and script (bsdutils) for the
# console's terminal in tests/docs_facts.rs. As root with apt-get, installs
# what is missing; otherwise says exactly what to install and fails.
set -uo pipefail

if ! command -v cargo >/dev/null; then
    echo "prerequisites: cargo is not installed: install Rust from https://rustup.rs" >&2
    exit 1
fi

missing=()
command -v nc >/dev/null || missing+=(netcat-openbsd)
# Debian installs gnugo in /usr/games, which is not always on PATH.
command -v gnugo >/dev/null || [[ -x /usr/games/gnugo ]] || missing+=(gnugo)
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
# `script` gives the console a terminal in tests/docs_facts.rs.
command -v script >/dev/null || missing+=(bsdutils)
for tool in timeout mkfifo awk; do
    command -v "$tool" >/dev/null || {
        echo "prerequisites: '$tool' is missing (Debian: apt-get install coreutils mawk)" >&2
        exit 1
    }
done

((${#missing[@]} == 0)) && exit 0

if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "prerequisites: installing ${missing[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    # Another apt (an unattended upgrade, a second session) may hold the lock: wait
    # for it rather than fail.
    wait_for_lock=(-o DPkg::Lock::Timeout=120)
    apt-get "${wait_for_lock[@]}" update -qq </dev/null &&
        apt-get "${wait_for_lock[@]}" install -y -qq --no-install-recommends "${missing[@]}" </dev/null || {
        echo "prerequisites: apt-get could not install ${missing[*]}" >&2
        exit 1
    }
    exit 0
fi

echo "prerequisites: missing ${missing[*]}. Install with:" >&2
echo "    sudo apt-get install ${missing[*]}" >&2
exit 1
