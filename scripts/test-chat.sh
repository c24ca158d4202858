#!/usr/bin/env bash
# The first lesson, examples/chat.rs: a chat room built on goserver's net layer alone.
# Each client's first line is its name; every later line goes to everyone in the room,
# the sender too, in the order the room loop heard them. A line too long for the line
# bound (4 KiB) is refused and the client stays; one that leaves is seen to go.
source "$(dirname "$0")/lib.sh"
start_example chat

connect ann
expect ann "* welcome: what is your name?"
send ann "Ann"
expect ann "* Ann joined"
connect bob
expect bob "* welcome: what is your name?"
send bob "Bob"
expect_both ann bob "* Bob joined"
# Ann's two lines come in her order, to both.
send ann "hello"
send ann "anyone here?"
expect_both ann bob "Ann: hello"
expect_both ann bob "Ann: anyone here?"
send bob "hi Ann"
expect_both ann bob "Bob: hi Ann"
# Too long for the line bound: refused, and Bob is still in the room.
send bob "$(printf 'x%.0s' $(seq 5000))"
expect bob "* that line was too long, or not text"
send bob "still here"
expect_both ann bob "Bob: still here"
disconnect bob
expect ann "* Bob left"
pass
