#!/usr/bin/env bash
# The F-register instructions (flw, fsw, fmv.x.w, fmv.w.x) through the tools:
# `ventus as` takes f registers by number or ABI name and nothing else in an
# f slot, `ventus objdump` prints LLVM's ABI names, and `ventus run` moves
# values through f as the reference ISS does (f mirrors x of the same
# number). Expected words are the RISC-V F encodings worked out by hand.
#   usage: bash test_as_fregs.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail, ok, bad

# ---- assembler and disassembler ----------------------------------------------
cat >"$tmp/f.S" <<'EOF2'
  flw ft0, 8(a0)
  fsw fs1, -4(sp)
  fmv.x.w a0, fa0
  fmv.w.x f31, t6
  fmv.w.x f40, a0
EOF2
if "$ventus" as -o "$tmp/f.elf" "$tmp/f.S" 2>"$tmp/err"; then
  "$ventus" objdump "$tmp/f.elf" >"$tmp/out"
  # flw: imm 8, rs1 a0=10, funct3 2, rd 0, opcode 0x07 -> 0x00852007
  # fsw: imm -4 = 0xffc -> [31:25]=0x7f [11:7]=0x1c, rs2 fs1=9, rs1 sp=2 -> 0xfe912e27
  # fmv.x.w: 0xe0000053 | rs1 fa0=10 <<15 | rd a0=10 <<7 -> 0xe0050553
  # fmv.w.x: 0xf0000053 | rs1 t6=31 <<15 | rd 31 <<7 -> 0xf00f8fd3
  # f40: regext with rd high bits 1 (0x0010200b), then rd 8 -> 0xf0050453
  for want in "00852007     	flw ft0, 8(a0)" "fe912e27     	fsw fs1, -4(sp)" \
      "e0050553     	fmv.x.w a0, fa0" "f00f8fd3     	fmv.w.x ft11, t6" \
      "fmv.w.x f40, a0"; do
    grep -qF "$want" "$tmp/out" && ok "objdump: $want" || { bad "objdump: $want"; cat "$tmp/out"; }
  done
  "$ventus" objdump --word 0x0010200b 0xf0050453 | grep -q 'fmv.w.x f40, a0' && ok "regext prefix on an f register" ||
    bad "regext prefix on an f register"
else
  bad "assembling f-register forms"
  cat "$tmp/err"
fi

# an x register (or garbage) where an f register belongs: one line, exit 1
printf '  nop\n  fmv.w.x a0, a1\n' >"$tmp/bad1.S"
"$ventus" as -o "$tmp/x.elf" "$tmp/bad1.S" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
    grep -q "bad1.S:2:11: error: expected an f register, got 'a0'" "$tmp/err"; then
  ok "x register in an f slot rejected"
else
  bad "x register in an f slot (exit $rc)"
  cat "$tmp/err"
fi
printf '  flw f256, 0(a0)\n' >"$tmp/bad2.S"
"$ventus" as -o "$tmp/x.elf" "$tmp/bad2.S" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "bad2.S:1:7: error: expected an f register, got 'f256'" "$tmp/err" &&
  ok "f256 rejected" || { bad "f256 (exit $rc)"; cat "$tmp/err"; }

# ---- running: out[0..2] through f, with the Zfinx result mirrored ------------
cat >"$tmp/k.S" <<'EOF2'
        .text
        .globl  fregs
fregs:
        lw      a1, 0(a0)       # out
        li      t1, 0x3fc00000  # 1.5
        fmv.w.x ft5, t1         # f5 = 1.5, and its copy in x5 (t0)
        fsw     ft5, 0(a1)      # out[0] = 1.5
        fmv.x.w t2, ft6         # f6 mirrors t1: t2 = 1.5
        sw      t2, 4(a1)       # out[1] = 1.5
        fadd.s  t2, t2, t0      # Zfinx on x: 1.5 + 1.5 = 3, written to f7 as well
        fsw     ft7, 8(a1)      # out[2] = 3
        ret
EOF2
if "$ventus" as -o "$tmp/k.elf" "$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S" "$tmp/k.S" 2>"$tmp/err"; then
  "$ventus" run "$tmp/k.elf" --kernel fregs --global 1 --local 1 --threads 4 --arg buf:f32:3 \
    --quiet --show 0 >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "arg0 f32[3]: 1.5 1.5 3" ]; then
    ok "run: values through f registers"
  else
    bad "run: values through f registers (exit $rc)"
    cat "$tmp/out" "$tmp/err"
  fi
else
  bad "assembling the f-register kernel"
  cat "$tmp/err"
fi

exit $fail
