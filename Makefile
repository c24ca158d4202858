# goserver: a GO! (board game Go) server for teaching labs.
#   make run     build (release) and run on port 8000 with the operator console
#                (flags: make run ARGS='--port 9000 --komi 6.5')
#   make chat    the first lesson: examples/chat.rs, a chat room on port 7000 built on
#                the net layer alone (connect with: nc localhost 7000)
#   make test    install/check prerequisites, cargo test, the nc scenario scripts
#   make bench   engine benchmark, then the network load benchmark (scripts/bench.sh)
#   make lint    rustfmt check and clippy with warnings denied
CARGO ?= cargo
ARGS ?=

.PHONY: all build run chat test bench lint fmt clean

all: build

build:
	$(CARGO) build --release

run:
	$(CARGO) run --release --bin goserver -- $(ARGS)

chat:
	$(CARGO) run --release --example chat

test:
	@scripts/run-tests.sh

bench:
	$(CARGO) bench --bench engine
	$(CARGO) bench --bench spectrangle_bot
	CARGO="$(CARGO)" bash scripts/bench.sh

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

clean:
	$(CARGO) clean
