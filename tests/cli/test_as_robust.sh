#!/usr/bin/env bash
# `ventus as` / `ventus objdump` on hostile input: one clear error line and the
# documented exit status, never a crash, a hang or a silently wrong file.
#   usage: bash test_as_robust.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail, ok, bad

# expect NAME RC PATTERN CMD...: exit status RC, one stderr line matching PATTERN
expect() {
  local name=$1 want=$2 pat=$3
  shift 3
  timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -eq "$want" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qE -- "$pat" "$tmp/err"; then
    ok "$name"
  else
    bad "$name (exit $rc, want $want and one line matching '$pat')"; cat "$tmp/err"
  fi
}

# ---- the output file is an input file: refused, the source is untouched -----
printf 'nop\n' >"$tmp/same.S"
cp "$tmp/same.S" "$tmp/same.orig"
expect "as -o same.S same.S" 2 "^ventus as: output file '.*same.S' is the input file '.*same.S'$" \
  "$ventus" as -o "$tmp/same.S" "$tmp/same.S"
cmp -s "$tmp/same.S" "$tmp/same.orig" && ok "source left alone" || bad "source overwritten"
mkdir -p "$tmp/d"
expect "as -o via another spelling" 2 "is the input file" \
  "$ventus" as -o "$tmp/d/../same.S" "$tmp/other.S" "$tmp/same.S"

# ---- sections that would wrap the 32-bit address space ----------------------
printf 'nop\nnop\n' >"$tmp/wrap.S"
expect "--text-addr near 4 GiB" 1 \
  "^ventus as: section '.text' at 0xfffffffc \(0x8 bytes\) does not fit below 4 GiB" \
  "$ventus" as --text-addr 0xfffffffc -o "$tmp/wrap.elf" "$tmp/wrap.S"
[ ! -e "$tmp/wrap.elf" ] && ok "no ELF written for a wrapping layout" || bad "wrapping ELF written"

exit $fail
