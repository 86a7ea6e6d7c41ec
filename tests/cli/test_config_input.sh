#!/usr/bin/env bash
# `ventus config` (and run's -c/--config) on bad configuration input: one
# error line, exit 2 (usage) or 4 (input), in bounded time; a value is never
# cut short and applied.
#   usage: bash test_config_input.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
expect 4 "/dev/zero:1: NUL byte" "--config /dev/zero (hung)" timeout 20 "$ventus" config --config /dev/zero
expect 4 "config $tmp: is a directory" "--config a directory (was accepted)" "$ventus" config --config "$tmp"
{ printf '#%0510d' 0 | tr 0 x; echo 'num_sm = 7'; } >"$tmp/long.ini"
expect 0 "" "a long comment line" "$ventus" config --config "$tmp/long.ini"
grep -qx "num_sm = 2" "$tmp/out" || bad "the tail of a long comment was applied: $(grep num_sm "$tmp/out")"
# a value padded past the old 256-byte copy: '4x' was cut to '4' and accepted
expect 4 "is not a non-negative integer" "-c with a long padded value" "$ventus" config -c "num_sm=$(printf '%250s' '')4x"
expect 4 "config num_sm: '-1' is not a non-negative integer" "-c num_sm=-1" "$ventus" config -c num_sm=-1
expect 4 "17179869184G is out of range (at most 18446744073709551615)" "-c max_steps overflow" "$ventus" config -c max_steps=17179869184G
expect 2 "config override 'num_sm': expected KEY=VALUE" "-c without =" "$ventus" config -c num_sm
head -c 2000 /dev/urandom | tr -d '\n#=' | head -c 100 >"$tmp/rand.ini"
printf ' = 1\n' >>"$tmp/rand.ini"
"$ventus" config --config "$tmp/rand.ini" 2>"$tmp/err" >/dev/null
if LC_ALL=C grep -q '[^ -~]' "$tmp/err"; then bad "raw bytes in the message: $(cat -v "$tmp/err")"; else ok "random bytes: message is printable"; fi
args=()
for i in $(seq 65); do args+=(-c num_sm=1); done
expect 2 "more than 64 overrides" "65 overrides (was 'unexpected argument')" "$ventus" config "${args[@]}"
exit $fail
