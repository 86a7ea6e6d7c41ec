#!/usr/bin/env bash
# Memory protection seen from `ventus run` (docs/simulator.md §3): code
# pages are read/execute (a store is a device fault, exit 3) unless
# writable_code = 1, and then a patched instruction runs even after it was
# decoded once, from the ELF and from its test vector; with strict_bounds = 1 an access past a buffer's requested
# size (in its 4 KiB padding) is a device fault; 16 groups sweeping the
# local window stop at lds_sparse_limit instead of taking gigabytes.
#   usage: bash test_run_memory.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail

# assemble NAME: start.S + workitem.S + $tmp/NAME.S into $tmp/NAME.elf
assemble() {
  "$ventus" as -o "$tmp/$1.elf" "$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S" "$tmp/$1.S" \
    2>"$tmp/err" || { echo "FAIL assembling $1.S"; cat "$tmp/err"; exit 1; }
}
# run WANT-STATUS WANT-STDERR-PART WANT-STDOUT-PART WHAT ARGS...
run() {
  local want=$1 msg=$2 out=$3 what=$4
  shift 4
  "$ventus" run "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$want" ]; then bad "$what: exit $got, expected $want"; sed 's/^/  | /' "$tmp/err" | head -3
  elif [ "$want" != 0 ] && [ "$(wc -l <"$tmp/err")" != 1 ]; then bad "$what: expected one error line"
  elif ! grep -qF -- "$msg" "$tmp/err"; then bad "$what: stderr lacks '$msg'"; sed 's/^/  | /' "$tmp/err" | head -3
  elif [ -n "$out" ] && ! grep -qF -- "$out" "$tmp/out"; then bad "$what: stdout lacks '$out'"; sed 's/^/  | /' "$tmp/out" | head -3
  else ok "$what"; fi
}

# Self-modifying: pass 1 runs "addi a2, a2, 1" and overwrites it with the
# word of "addi a2, a2, 100"; pass 2 must run the new word: 1 + 100 = 101
# (a stale decoded copy would give 2).
cat >"$tmp/smc.S" <<'ASM'
        .text
        .globl k
k:      lw      a1, 0(a0)
        li      a2, 0
        li      a3, 2
        la      t0, 1f
        la      t1, 2f
        lw      t2, 0(t1)
1:      addi    a2, a2, 1
        sw      t2, 0(t0)
        addi    a3, a3, -1
        bnez    a3, 1b
        sw      a2, 0(a1)
        ret
        .data
2:      addi    a2, a2, 100
ASM
assemble smc
A=("$tmp/smc.elf" --kernel k --global 1 --arg buf:u32:1 --show 0)
run 3 "memory is code (read/execute; writable_code = 1 allows stores)" "" "store into code faults" "${A[@]}"
run 0 "" "arg0 u32[1]: 101" "writable_code = 1: the patched instruction runs" "${A[@]}" -c writable_code=1
# the same launch as a test vector (every buffer writable and executable;
# run-ahead on): the patched instruction runs there too
run 0 "" "" "export the self-modifying launch" "${A[@]}" -c writable_code=1 --export-testvec "$tmp/smc-tv"
run 0 "" "0x90000000 0x00000065" "test vector: the patched instruction runs" "$tmp/smc-tv" --dump-range 0x90000000:4

# Padding: a 4-byte buffer is allocated 4 KiB; the word after it is
# padding. A word load from a 2-byte buffer straddles into the padding.
cat >"$tmp/pad.S" <<'ASM'
        .text
        .globl k, k2
k:      lw      a1, 0(a0)
        li      t0, 5
        sw      t0, 4(a1)
        ret
k2:     lw      a1, 0(a0)
        lw      t0, 0(a1)
        ret
ASM
assemble pad
P="address is in the padding after a buffer's requested size (strict_bounds = 1)"
run 0 "" "" "store into the padding without strict_bounds" "$tmp/pad.elf" --kernel k --global 1 --arg buf:u32:1
run 3 "4-byte store at 0x90000004: $P" "" "strict_bounds: store into the padding" \
  "$tmp/pad.elf" --kernel k --global 1 --arg buf:u32:1 -c strict_bounds=1
run 0 "" "arg0 u32[2]: 0 5" "strict_bounds: the requested bytes stay accessible" \
  "$tmp/pad.elf" --kernel k --global 1 --arg buf:u32:2 -c strict_bounds=1 --show 0
run 3 "4-byte load at 0x90000000: $P" "" "strict_bounds: a load straddling into the padding" \
  "$tmp/pad.elf" --kernel k2 --global 1 --arg buf:u8:2 -c strict_bounds=1

# AUDIT R23: every group stores one word per page of the 256 MiB window;
# 16 groups of 1 work-item used to hold 4 GiB of sparse pages.
cat >"$tmp/fill.S" <<'ASM'
        .text
        .globl k
k:      csrr    t0, lds
        li      t1, 0x10000000
        add     t1, t0, t1
        li      t2, 0x1000
1:      sw      t2, 0(t0)
        add     t0, t0, t2
        bltu    t0, t1, 1b
        ret
ASM
assemble fill
run 3 "lds_sparse_limit of 0x4000000 bytes for such pages is used up" "" "local window sweep stops at lds_sparse_limit" \
  "$tmp/fill.elf" --kernel k --global 16 --local 1

exit $fail
