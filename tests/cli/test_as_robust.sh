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

# ---- objdump text re-assembles to the same words ---------------------------
# explicit prefixes (as compilers emit them), a prefix over fields the next
# instruction does not use, a prefix before a prefix, words that decode to
# nothing, branches to labels, and a prefix as the last word
cat >"$tmp/pre.S" <<'SRC'
_start:
  regext zero, zero, 0x41       # rd += 32, rs2 += 32
  vadd.vv v33, v34, v1
  regexti zero, zero, 0x801     # rd += 32; .vi immediate bits 11:6 = 0x20
  vadd.vi v33, v2, -1000
loop:
  regext zero, zero, 0xe00      # rs3 bits only: nothing below uses rs3
  add a0, a1, a2
  regext zero, zero, 1
  regext zero, zero, 2          # a prefix is not changed by the one before it
  vsub.vv v65, v1, v2
  .insn 0x0070200b              # regext rd += 224: x234 (regext reaches x0..x255)
  add a0, a1, a2
  .word 0xffffffff
  bnez a0, loop
  j _start
  regexti zero, zero, 3
SRC
words() { sed -n 's/^ *[0-9a-f]*: \([0-9a-f]\{8\}\) .*/\1/p' "$1"; }
if "$ventus" as -o "$tmp/pre.elf" "$tmp/pre.S" 2>"$tmp/err" && "$ventus" objdump "$tmp/pre.elf" >"$tmp/pre.dis"; then
  sed -n 's/^ *[0-9a-f]*: [0-9a-f]\{8\} *\t\(.*\)$/\1/p' "$tmp/pre.dis" | sed 's/ <[^>]*>$//' >"$tmp/pre2.S"
  if "$ventus" as -o "$tmp/pre2.elf" "$tmp/pre2.S" 2>"$tmp/err" &&
     "$ventus" objdump "$tmp/pre2.elf" >"$tmp/pre2.dis" && words "$tmp/pre.dis" >"$tmp/w1" &&
     words "$tmp/pre2.dis" >"$tmp/w2" && [ "$(wc -l <"$tmp/w1")" -eq 15 ] && cmp -s "$tmp/w1" "$tmp/w2"; then
    ok "objdump -> as keeps every word (explicit prefixes)"
  else
    bad "objdump -> as changed the words"; cat "$tmp/err"; diff "$tmp/w1" "$tmp/w2"; cat "$tmp/pre2.S"
  fi
  grep -q 'vadd.vv v33, v34, v1' "$tmp/pre.dis" && grep -q 'vadd.vi v33, v2, -1000' "$tmp/pre.dis" &&
    grep -q 'add x234, a1, a2' "$tmp/pre.dis" && ok "objdump shows what the prefixes make of the words" ||
    { bad "objdump text under prefixes"; cat "$tmp/pre.dis"; }
else
  bad "assembling explicit prefixes"; cat "$tmp/err"
fi
printf 'regext zero, zero, 1\nvadd.vv v1, v2, v3\n' >"$tmp/mis.S"
expect "explicit prefix that contradicts the operands" 1 \
  "mis.S:2:1: error: vadd.vv: operand 1: register 1 does not match the regext before it \(which makes this field 32..63\)" \
  "$ventus" as -o "$tmp/mis.elf" "$tmp/mis.S"

# ---- clear messages for files that are not regular files -------------------
mkdir -p "$tmp/dir"
printf '.include "%s"\n' "$tmp/dir" >"$tmp/incdir.s"
expect ".include of a directory" 1 "incdir.s:1:10: error: .include file '.*/dir' is a directory$" \
  "$ventus" as -o "$tmp/x.elf" "$tmp/incdir.s"
printf '#include "/dev/null"\n' >"$tmp/incdev.S"
expect "#include of a device" 1 "incdev.S:1:10: error: #include file '/dev/null' is not a regular file$" \
  "$ventus" as -o "$tmp/x.elf" "$tmp/incdev.S"
printf '.include "nonexistent.s"\n' >"$tmp/incmiss.s"
expect ".include of a missing file" 1 "error: .include file 'nonexistent.s' not found$" \
  "$ventus" as -o "$tmp/x.elf" "$tmp/incmiss.s"
expect "as DIR" 4 "^ventus as: .*/dir: is a directory$" "$ventus" as -o "$tmp/x.elf" "$tmp/dir"
expect "objdump DIR" 4 "^ventus objdump: .*/dir: is a directory$" "$ventus" objdump "$tmp/dir"
expect "objdump --raw DIR" 4 "^ventus objdump: .*/dir: is a directory$" "$ventus" objdump --raw "$tmp/dir"

# ---- objdump options and raw input ---------------------------------------------
expect "objdump --start-address above --stop-address" 2 \
  "^ventus objdump: --start-address 0x80000010 is not below --stop-address 0x80000000$" \
  "$ventus" objdump --stop-address 0x80000000 --start-address 0x80000010 "$tmp/pre.elf"
printf '\x13\x00\x00\x00\x01\x02\x03' >"$tmp/tail.bin"
"$ventus" objdump --raw "$tmp/tail.bin" >"$tmp/tail.txt" 2>&1 &&
  grep -q '^       0: 00000013 .*nop$' "$tmp/tail.txt" &&
  grep -q '^       4: 010203 .*\.byte 0x01, 0x02, 0x03 .*3 byte(s) after the last whole word' "$tmp/tail.txt" &&
  ok "objdump --raw shows trailing bytes" || { bad "objdump --raw trailing bytes"; cat "$tmp/tail.txt"; }

# ---- ISA 2025 register groups that can never fit (audit 2, D11) ------------------
printf 'mma64.wg.m64k16.f16 v130, v80, v8, v40, 0, 0, 0, 1, 1024\n' >"$tmp/wg.S"
expect "mma64.wg whose C and D groups run past v255" 1 \
  "wg.S:1:1: error: mma64.wg.m64k16.f16: its register groups run past v255 even at 32 threads per warp \(A v8\+4, C v80\+256, D v130\+256 registers for N = 1024\)$" \
  "$ventus" as --isa 2025 -o "$tmp/x.elf" "$tmp/wg.S"
printf 'mma64.wg.m64k16.f16 v130, v80, v8, v40, 0, 0, 0, 1, 256\n' >"$tmp/wg2.S"
"$ventus" as --isa 2025 -o "$tmp/x.elf" "$tmp/wg2.S" && ok "mma64.wg whose groups fit (N = 256)" ||
  bad "mma64.wg N = 256 refused"
printf 'pre_m_128 7, 0, 0\nvlw12.v v254, 0(v1)\n' >"$tmp/wide.S"
expect "a 128-bit access from v254" 1 \
  "wide.S:2:1: error: vlw12.v: the 128-bit access under the memory prefix needs 4 data registers from 254, past 255$" \
  "$ventus" as --isa 2025 -o "$tmp/x.elf" "$tmp/wide.S"
printf 'pre_m_128 7, 0, 0\nvlw12.v v252, 0(v1)\n' >"$tmp/wide2.S"
"$ventus" as --isa 2025 -o "$tmp/x.elf" "$tmp/wide2.S" && ok "a 128-bit access from v252 fits" ||
  bad "a 128-bit access from v252 refused"

exit $fail
