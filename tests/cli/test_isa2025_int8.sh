#!/usr/bin/env bash
# Revision 2025's element widths end to end (docs/isa-extensions.md,
# "Element widths", "Fixed point"): an OpenCL-style kernel that loads int8
# operands per thread (vlb12.v), adds them with int8 saturation at SEW 8
# (vsadd.vv) and stores the bytes, assembled with `ventus as --isa 2025`
# and run with `ventus run --isa 2025` on 300 of 320 work-items; every
# output byte against awk's saturating sum, vxsat read back by the kernel,
# the objdump spelling, and the baseline assembler refusing vsadd.vv.
#   usage: bash test_isa2025_int8.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
cat >"$tmp/sadd8.S" <<'ASM'
        .text
        .globl  vsadd8
vsadd8:                                 # vsadd8(char *A, char *B, char *C, uint n, uint *sat)
        sw      ra, 0(sp)
        addi    sp, sp, 4
        lw      a1, 0(a0)
        lw      a2, 4(a0)
        lw      a3, 8(a0)
        lw      a4, 12(a0)
        lw      a5, 16(a0)
        call    vt_global_id_x
        vmv.v.v v1, v0
        vmv.v.x v2, a4
        la      t1, .Lend
        setrpc  zero, t1, 0
        vbgeu   v1, v2, .Lend           # work-items i >= n do nothing
        vadd.vx v4, v1, a1
        vadd.vx v5, v1, a2
        vadd.vx v6, v1, a3
        vlb12.v v7, 0(v4)
        vlb12.v v8, 0(v5)
        csrr    t2, vl
        vsetvli x0, t2, e8, m1, ta, ma
        vsadd.vv v9, v7, v8
        vsetvli x0, t2, e32, m1, ta, ma
        vsb12.v v9, 0(v6)
        csrr    t3, vxsat
        bnez    t3, 1f
        j       .Lend
1:      sw      t3, 0(a5)
.Lend:
        join    zero, zero, 0
        addi    sp, sp, -4
        lw      ra, 0(sp)
        ret
ASM
elf=$tmp/sadd8.elf
if ! "$ventus" as --isa 2025 -o "$elf" "$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S" \
    "$tmp/sadd8.S" 2>"$tmp/err"; then
  echo "FAIL assembling the kernel"
  cat "$tmp/err"
  exit 1
fi
# A[i] = i mod 256 (iota), B[i] = 100; C[i] = sat8(int8(A[i]) + 100) for i < 300, else 0
if ! "$ventus" run --isa 2025 "$elf" --kernel vsadd8 --global 320 --local 64 \
    --arg buf:u8:320:iota --arg buf:u8:320:fill=100 --arg buf:u8:320 --arg u32:300 --arg buf:u32:1 \
    --show 2:0 --show 4:1 >"$tmp/out" 2>"$tmp/err"; then
  echo "FAIL ventus run --isa 2025"
  sed 's/^/  | /' "$tmp/err" | head -5
  exit 1
fi
awk 'BEGIN {
  printf "arg2 u8[320]:"
  for (i = 0; i < 320; i++) {
    if (i >= 300) { printf " 0"; continue }
    a = i % 256; if (a > 127) a -= 256
    s = a + 100; if (s > 127) s = 127; if (s < -128) s = -128
    printf " %d", (s + 256) % 256
  }
  printf "\n"
}' >"$tmp/want"
if grep -q '^arg2 u8' "$tmp/out" && cmp -s <(grep '^arg2 u8' "$tmp/out") "$tmp/want"; then
  echo "ok   300 int8 saturating sums at SEW 8"
else
  echo "FAIL the int8 sums differ from awk's:"
  grep '^arg2' "$tmp/out" | cut -c1-200 | sed 's/^/  | /'
  cut -c1-200 "$tmp/want" | sed 's/^/  | want /'
  fail=1
fi
if grep -q '^arg4 u32\[1\]: 1$' "$tmp/out"; then
  echo "ok   vxsat set by the saturating sums"
else
  echo "FAIL vxsat: $(grep '^arg4' "$tmp/out")"
  fail=1
fi
if "$ventus" objdump --isa 2025 "$elf" | grep -q 'vsadd.vv v9, v7, v8'; then
  echo "ok   objdump --isa 2025 prints vsadd.vv"
else
  echo "FAIL objdump --isa 2025 does not print vsadd.vv v9, v7, v8"
  fail=1
fi
printf 'vsadd.vv v1, v2, v3\n' >"$tmp/base.S"
if "$ventus" as -o "$tmp/base.o" -c "$tmp/base.S" 2>"$tmp/err"; then
  echo "FAIL the baseline assembler accepts vsadd.vv"
  fail=1
elif grep -q '2025' "$tmp/err"; then
  echo "ok   the baseline assembler refuses vsadd.vv, naming revision 2025"
else
  echo "FAIL the baseline refusal does not name the revision: $(cat "$tmp/err")"
  fail=1
fi
exit $fail
