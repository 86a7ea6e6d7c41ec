#!/usr/bin/env bash
# The error catalogue (docs/errors.md), executed: every bad input below must
# give its documented exit status and exactly one error line containing the
# documented text, within a time bound (and, outside sanitizer builds, an
# address-space bound). Each case has the id of its entry in docs/errors.md;
# the test also checks that the ids here and there are the same set.
#   usage: bash test_error_catalogue.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
cd "$tmp" || exit 1
LIB=("$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S")
# ASan reserves terabytes of address space: bound memory only without it
if ldd "$ventus" 2>/dev/null | grep -q libasan; then memcap=unlimited; else memcap=2097152; fi
ncases=0
ids=()
# the bound on each case: memcheck runs 20-50 times slower than native code
limit=30
[ -n "${VT_VALGRIND:-}" ] && limit=180

# cat_case ID EXIT TEXT COMMAND...: one catalogue entry
cat_case() {
  local id=$1 want=$2 text=$3
  shift 3
  ncases=$((ncases + 1))
  ids+=("$id")
  (ulimit -v "$memcap"; exec timeout -k 5 "$limit" "$@") </dev/null >"$tmp/out" 2>"$tmp/err"
  local got=$?
  local why=""
  if [ "$got" = 124 ] || [ "$got" = 137 ]; then why="did not finish within $limit s"
  elif [ "$got" != "$want" ]; then why="exit $got, expected $want"
  elif [ -n "$text" ] && ! grep -qF -- "$text" "$tmp/err"; then why="stderr lacks '$text'"
  elif [ -n "$text" ] && [ "$want" != 0 ] && [ "$(wc -l <"$tmp/err")" != 1 ]; then
    why="expected exactly one error line"
  elif grep -q "runtime error\|AddressSanitizer\|LeakSanitizer" "$tmp/err"; then why="sanitizer report"
  fi
  if [ -n "$why" ]; then
    echo "FAIL $id: $why"
    sed 's/^/  | /' "$tmp/err" | head -5
    fail=1
  else
    echo "ok   $id $(head -c 150 "$tmp/err")"
  fi
}

asm() { printf '%b' "$2" >"$tmp/$1"; }
kernel() { # NAME BODY: assemble start.S + workitem.S + a kernel 'k' into NAME.elf
  printf '.text\n.globl k\nk:\n%b' "$2" >"$tmp/$1.S"
  "$ventus" as -o "$tmp/$1.elf" "${LIB[@]}" "$tmp/$1.S" || { echo "FAIL assembling $1"; fail=1; }
}

# ---- assembler (exit 1 for assembly errors, as GNU as; 2 usage; 4 files) --------
asm a01.S '.text\nfoo a0\n'
cat_case A01 1 "a01.S:2:1: error: unknown instruction 'foo'" "$ventus" as -o o.elf a01.S
asm a02.S '.text\naddi x0, x256, 1\n'
cat_case A02 1 "a02.S:2:10: error: expected an x register, got 'x256'" "$ventus" as -o o.elf a02.S
asm a03.S '.text\naddi a0, a0, 4096\n'
cat_case A03 1 "a03.S:2:14: error: immediate 4096 out of range" "$ventus" as -o o.elf a03.S
asm a04.S '.text\naddi a0, a0, 2048\n'
cat_case A04 1 "a04.S:2:14: error: immediate 2048 out of range [-2048, 2047]" "$ventus" as -o o.elf a04.S
asm a05.S '.text\nj nowhere\n'
cat_case A05 1 "error: undefined symbol 'nowhere'" "$ventus" as -o o.elf a05.S
asm a06.S '.text\nx:\nx:\n'
cat_case A06 1 "a06.S:3:1: error: symbol 'x' is already defined" "$ventus" as -o o.elf a06.S
asm a07.S '.text\n.word 1/0\n'
cat_case A07 1 "a07.S:2:8: error: division by zero" "$ventus" as -o o.elf a07.S
asm a08.S '.text\n.word (-9223372036854775807-1)/-1\n'
cat_case A08 1 "a08.S:2:" "$ventus" as -o o.elf a08.S
{ printf '.text\n.word '; printf '(%.0s' $(seq 10000); printf 1; printf ')%.0s' $(seq 10000); echo; } >a09.S
cat_case A09 1 "nested too deeply" "$ventus" as -o o.elf a09.S
asm a10.S '.text\n.bogus 1\n'
cat_case A10 1 "a10.S:2:1: error: unknown directive '.bogus'" "$ventus" as -o o.elf a10.S
asm a11.S '.text\n.macro m\nnop\n'
cat_case A11 1 "error: .macro without .endm" "$ventus" as -o o.elf a11.S
asm a12.S '.text\n.include "nothere.inc"\n'
cat_case A12 1 "a12.S:2:10: error: .include file 'nothere.inc' not found" "$ventus" as -o o.elf a12.S
asm a13.S '.text\n.include "/"\n'
cat_case A13 1 "a13.S:2:10: error: .include file '/'" "$ventus" as -o o.elf a13.S
asm a14.S '.text\nbeq a0, a1, far\n.zero 8192\nfar: nop\n'
cat_case A14 1 "a14.S:2:13: error: immediate 8196 out of range [-4096, 4094]" "$ventus" as -o o.elf a14.S
asm a15.S '.text\nnop\n.org 0\n'
cat_case A15 1 "a15.S:3:6: error: .org: cannot move the location counter backwards" "$ventus" as -o o.elf a15.S
asm a16.S '.text\nlw a0, 0(a1\n'
cat_case A16 1 "a16.S:2:8: error: expected a memory operand" "$ventus" as -o o.elf a16.S
{ echo '.text'; for i in $(seq 0 39); do echo "#define a$((i + 1)) a$i+1 a$i+1"; done; echo '.word a40'; } >a17.S
sed -i 's/a0+1 a0+1/1/' a17.S
cat_case A17 1 "a17.S:" "$ventus" as -o o.elf a17.S
asm a18.S '.bss\n.rept 17\n.zero 0x10000000\n.endr\n'
cat_case A18 1 "a18.S:" "$ventus" as -o o.elf a18.S
asm a19.S '.text\nnop\nnop\n'
cat_case A19 1 "does not fit below 4 GiB" "$ventus" as --text-addr 0xfffffffc -o o.elf a19.S
cat_case A20 4 "nothere.S" "$ventus" as -o o.elf nothere.S
cp a19.S same.S
cat_case A21 2 "same.S" "$ventus" as -o same.S same.S
cmp -s a19.S same.S || { echo "FAIL A21: the source was overwritten"; fail=1; }
cat_case A22 2 "unknown option '--bogus'" "$ventus" as --bogus a19.S
# ISA revisions (docs/isa-extensions.md)
asm a23.S '.text\nvlw12d.v v1, 0(v2)\n'
cat_case A23 1 "a23.S:2:1: error: 'vlw12d.v' is an ISA 2025 instruction (assemble with --isa 2025)" "$ventus" as -o o.elf a23.S
asm a24.S '.text\nvlw.v v1, 0(v2)\n'
cat_case A24 1 "a24.S:2:1: error: 'vlw.v' is not in ISA revision 2025" "$ventus" as --isa 2025 -o o.elf a24.S
asm a25.S '.text\nvlw12d.v v1, 0(v3)\n'
cat_case A25 1 "vlw12d.v: operand 3: register 3 is odd; a register pair starts at an even register" "$ventus" as --isa 2025 -o o.elf a25.S
cat_case A26 2 "ventus as: --isa needs a revision: base or 2025" "$ventus" as --isa 1999 -o o.elf a23.S
asm a27.S '.text\npre_m_64 0, 2, 0\n'
cat_case A27 1 "a27.S:2:13: error: immediate 2 out of range [0, 1]" "$ventus" as --isa 2025 -o o.elf a27.S
asm a28.S '.text\nvadd64 v2, v4, v6, 48, 32, 0, 0, 0, 0\n'
cat_case A28 1 "vadd64: operand 4: a data size is 8, 16, 32 or 64, not 48" "$ventus" as --isa 2025 -o o.elf a28.S
asm a29.S '.text\nvfadd64 v3, v4, v6, 32, 64, 0, 0, 0, 0\n'
cat_case A29 1 "vfadd64: operand 1: register 3 is odd; 64-bit data is a register pair starting at an even register" "$ventus" as --isa 2025 -o o.elf a29.S
asm a30.S '.text\nmma64.m8n8k16.s8 v130, v80, v8, v40, 2, 0, 0\n'
cat_case A30 1 "mma64.m8n8k16.s8: RD is 0 (saturate) or 1 (wrap) for integer C/D" "$ventus" as --isa 2025 -o o.elf a30.S
asm a31.S '.text\nmma64.wg.m64k16.f16 v130, v80, v8, v40, 0, 0, 0, 1, 24\n'
cat_case A31 1 "mma64.wg.m64k16.f16: operand 9: the warp-group N is 8, 16, 32, ... 1024, not 24" "$ventus" as --isa 2025 -o o.elf a31.S
asm a32.S '.text\nvfadd64 v2, v4, v6, 8, 32, 0, 0, 0, 0\n'
cat_case A32 1 "vfadd64: operand 4: 8-bit data is for the integer forms (vadd64 ... vmul64)" "$ventus" as --isa 2025 -o o.elf a32.S
asm a33.S '.text\nmma64.wg.m64k16.f16 v130, v80, v8, v40, 0, 0, 0, 1, 1024\n'
cat_case A33 1 "mma64.wg.m64k16.f16: its register groups run past v255 even at 32 threads per warp (A v8+4, C v80+256, D v130+256 registers for N = 1024)" "$ventus" as --isa 2025 -o o.elf a33.S
asm a34.S '.text\npre_m_128 7, 0, 0\nvlw12.v v254, 0(v1)\n'
cat_case A34 1 "vlw12.v: the 128-bit access under the memory prefix needs 4 data registers from 254, past 255" "$ventus" as --isa 2025 -o o.elf a34.S

# ---- objdump -----------------------------------------------------------------------
printf 'not an elf at all\n' >notelf.bin
cat_case O01 4 "nothere.elf" "$ventus" objdump nothere.elf
cat_case O02 4 "not an ELF file" "$ventus" objdump notelf.bin
"$ventus" as -o good.elf a19.S
head -c 30 good.elf >trunc.elf
cat_case O03 4 "malformed ELF" "$ventus" objdump trunc.elf
cat_case O04 4 "not a 32-bit ELF file" "$ventus" objdump "$(command -v bash)"
cat_case O05 2 "bad word '0xzz'" "$ventus" objdump --word 0xzz
cat_case O06 4 "is a directory" "$ventus" objdump "$tmp"
cat_case O07 2 "--start-address" "$ventus" objdump --start-address 0x80000004 --stop-address 0x80000000 good.elf
printf '\x13\x00\x00\x00\x13\x00' >odd.bin
cat_case O08 0 "" "$ventus" objdump --raw odd.bin
grep -q "\.byte 0x13, 0x00" "$tmp/out" || { echo "FAIL O08: the 2 trailing bytes are not listed"; fail=1; }

# ---- kernel ELF loading (ventus run) ---------------------------------------------------
kernel ok 'ret\n'
cat_case R01 0 "" "$ventus" run ok.elf --kernel k --global 1
cat_case R02 4 "not an ELF" "$ventus" run notelf.bin --kernel k --global 1
cat_case R03 2 "no symbol named 'nosuch'" "$ventus" run ok.elf --kernel nosuch --global 1
cat_case R04 4 "malformed ELF" "$ventus" run trunc.elf --kernel k --global 1
cat_case R05 4 "not a 32-bit ELF file" "$ventus" run "$(command -v bash)" --kernel k --global 1
asm big.S '.text\n.globl k\nk: ret\n.bss\n.skip 0x10000000\n'
"$ventus" as -o big.elf "${LIB[@]}" big.S
cat_case R06 4 "segment 1 [0x80001000, +0x10000008) reaches into the buffer heap at 0x90000000" "$ventus" run big.elf --kernel k --global 1

# ---- command-line options ----------------------------------------------------------------
cat_case U01 2 "unknown command 'bogus'" "$ventus" bogus
cat_case U02 2 "no input" "$ventus" run
cat_case U03 2 "--global 0" "$ventus" run ok.elf --kernel k --global 0
cat_case U04 2 "--threads 33" "$ventus" run ok.elf --kernel k --global 64 --threads 33
cat_case U05 2 "global size 10 is not a multiple of the local size 3 (dimension 0)" "$ventus" run ok.elf --kernel k --global 10 --local 3
cat_case U06 2 "--arg" "$ventus" run ok.elf --kernel k --global 1 --arg buf:q32:4
cat_case U07 2 "1 GiB" "$ventus" run ok.elf --kernel k --global 1 --arg buf:zero:4G
cat_case U08 2 "--max-steps -1" "$ventus" run ok.elf --kernel k --global 1 --max-steps -1
cat_case U10 2 "exclude each other" "$ventus" run ok.elf --kernel k --global 1 --trace t.log --trace-dir "$tmp"
ln -s /dev/full fulllink
cat_case U11 4 "fulllink" "$ventus" run ok.elf --kernel k --global 1 --arg buf:u32:4 --dump fulllink
[ -L fulllink ] || { echo "FAIL U11: --dump removed the symlink it could not write"; fail=1; }

# ---- configuration ----------------------------------------------------------------------
cat_case C01 4 "num_sm must be 1..1024" "$ventus" config -c num_sm=0
cat_case C02 4 "unknown config key 'bogus'" "$ventus" config -c bogus=1
cat_case C03 4 "num_sm" "$ventus" config -c num_sm=x
cat_case C04 2 "expected KEY=VALUE" "$ventus" config -c num_sm
cat_case C05 4 "nothere.ini" "$ventus" config --config nothere.ini
printf 'num_sm 3\n' >c06.ini
cat_case C06 4 "c06.ini:1: expected 'key = value'" "$ventus" config --config c06.ini
cat_case C07 4 "is a directory" "$ventus" config --config "$tmp"
cat_case C08 4 "/dev/zero" "$ventus" config --config /dev/zero
{ printf '#'; printf 'x%.0s' $(seq 600); printf 'num_sm = 7\n'; } >c09.ini
"$ventus" config --config c09.ini >c09.out 2>&1
grep -q "num_sm = 2" c09.out || { echo "FAIL C09: a long comment's tail was applied"; fail=1; }
cat_case C10 4 "warps_per_sm" "$ventus" config -c warps_per_sm=0
cat_case C11 4 "l1i_sets must be a power of two, 0 (off), 1..65536" "$ventus" config -c l1i_sets=6
cat_case C12 4 "l2_line must be a power of two, 4..4096 bytes" "$ventus" config -c l2_line=12
cat_case C13 4 "ibuffer_depth must be num_fetch..64" "$ventus" config -c num_fetch=4 -c ibuffer_depth=2
cat_case C14 4 "config error: isa must be 0 (or base: the upstream baseline) or 2025" "$ventus" config -c isa=7

# ---- test vectors (.metadata / .data / kernels.txt / expected files) ------------------
# metadata writer: start id gx gy gz wf wg knl lds pds sgpr vgpr pdsbase then buffers
meta() { # FILE FIELD... : each field a uint64 as two lines, low word first
  local f=$1
  shift
  : >"$f"
  for v in "$@"; do printf '%08x\n%08x\n' $((v & 0xffffffff)) $((v >> 32)) >>"$f"; done
}
endprg=$("$ventus" objdump e.elf 2>/dev/null | awk '/endprg/{print $2}')
printf '.text\nendprg\n' >e.S
"$ventus" as -o e.elf e.S
endprg=$("$ventus" objdump e.elf | awk '/endprg/{print $2}')
# two buffers: the code (one endprg) at 0x80000000, the private region
meta tv.metadata 0x80000000 0 1 1 1 8 1 0 0x1000 0x1000 32 32 0x90000000 2 0x80000000 0x90000000 4 0 4 0x8000
echo "$endprg" >tv.data
cat_case T01 0 "" "$ventus" run tv.metadata
head -n 5 tv.metadata >t02.metadata
cp tv.data t02.data
cat_case T02 4 "t02.metadata" "$ventus" run t02.metadata
sed '3s/.*/zzzzzzzz/' tv.metadata >t03.metadata
cp tv.data t03.data
cat_case T03 4 "t03.metadata:3" "$ventus" run t03.metadata
cp tv.metadata t04.metadata
: >t04.data
cat_case T04 4 "t04.data" "$ventus" run t04.metadata
cp tv.metadata t05.metadata
cat_case T05 4 "t05.data" "$ventus" run t05.metadata
meta t06.metadata 0x80000000 0 0 1 1 8 1 0 0x1000 0x1000 32 32 0x90000000 2 0x80000000 0x90000000 4 0 4 0x8000
cp tv.data t06.data
cat_case T06 4 "t06.metadata" "$ventus" run t06.metadata
mkdir -p tvdir tvnone
cp tv.metadata tv.data tvdir/
printf 'tv\nmissing\n' >tvdir/kernels.txt
cat_case T07 4 "missing" "$ventus" run tvdir
cat_case T08 4 "kernels.txt" "$ventus" run tvnone
printf '0x80000000 0x%s\n' "$endprg" >exp_ok.txt
printf '0x80000000 0x00000001\n' >exp_bad.txt
printf 'hello world\n' >exp_fmt.txt
cat_case T09 1 "0x80000000" "$ventus" run tv.metadata --expect exp_bad.txt
cat_case T10 4 "exp_fmt.txt:1" "$ventus" run tv.metadata --expect exp_fmt.txt
cat_case T11 4 "/dev/zero" "$ventus" run tv.metadata --expect /dev/zero

# ---- commit logs (trace-diff) -----------------------------------------------------------
"$ventus" run ok.elf --kernel k --global 1 --trace good.log -q
cat_case D01 4 "none.log" "$ventus" trace-diff none.log good.log
cat_case D02 4 "no commit log lines" "$ventus" trace-diff notelf.bin good.log
printf 'core 99999999999999999999: 0x80000000 (0x0000400b) endprg\n' >wrap.log
cat_case D03 4 "wrap.log:1" "$ventus" trace-diff wrap.log good.log
sed 's/0x80000000/0x80000004/' good.log >diff.log
cat_case D04 1 "" "$ventus" trace-diff good.log diff.log
cat_case D06 2 "--max" "$ventus" trace-diff --max -1 good.log good.log
cat_case D05 4 "is a directory" "$ventus" trace-diff "$tmp" good.log

# ---- device faults (exit 3, one line with kernel/wg/warp/lane/pc/insn) -------------------
kernel ill '.word 0xffffffff\nret\n'
cat_case F01 3 "illegal instruction 0xffffffff [kernel 0 wg 0 warp 0 pc 0x" "$ventus" run ill.elf --kernel k --global 1
kernel unm 'li t0, 0x10\nlw t1, 0(t0)\nret\n'
cat_case F02 3 "address is not mapped [kernel 0 wg 0 warp 0 pc 0x" "$ventus" run unm.elf --kernel k --global 1
kernel vunm 'vid.v v1\nvsll.vi v1, v1, 12\nvlw12.v v2, 0(v1)\nret\n'
cat_case F03 3 "lane 0 pc 0x" "$ventus" run vunm.elf --kernel k --global 4 --local 4 --threads 4
kernel mis 'lw t1, 2(a0)\nret\n'
cat_case F04 3 "misaligned 4-byte load at" "$ventus" run mis.elf --kernel k --global 1 --arg u32:1
kernel jmis 'addi t0, ra, 2\njr t0\n'
cat_case F05 3 "misaligned access" "$ventus" run jmis.elf --kernel k --global 1
kernel loop '1: j 1b\n'
cat_case F06 3 "step limit of 1000 warp-instructions reached [kernel 0 wg 0 warp 0 pc" "$ventus" run loop.elf --kernel k --global 1 --max-steps 1000
# a parallel launch (two host threads; docs/simulator.md §6): the step limit of
# all threads together, and the fault of the lowest faulting group
cat_case F21 3 "step limit of 100000 warp-instructions reached by the launch's 2 host threads together" "$ventus" run loop.elf --kernel k --global 1024 --local 64 --max-steps 100000 --host-threads 2
kernel pf 'csrr t0, 0x808\nli t1, 5\nblt t0, t1, 1f\nlw t2, 4(zero)\n1: ret\n'
cat_case F22 3 "address is not mapped [kernel 0 wg 5 warp 0 pc 0x" "$ventus" run pf.elf --kernel k --global 4096 --local 64 --host-threads 2
# ... and a parallel timing launch: the steps summed at the end of each quantum
cat_case F24 3 "step limit of 100000 warp-instructions reached by the timing launch's 2 host threads together" "$ventus" run --timing loop.elf --kernel k --global 1024 --local 64 --max-steps 100000 --host-threads 2
kernel bar 'csrr t0, wid\nbnez t0, 1f\nret\n1: barrier x0, x0, 0\nret\n'
cat_case F07 3 "barrier deadlock" "$ventus" run bar.elf --kernel k --global 64 --local 64 --threads 32 -c barrier_counts_ended=0
# lane i splits off at level i and the rest loop back without joining: the
# SIMT stack overflows
kernel simt 'vid.v v1\nli t2, 0\n1: vmv.v.x v2, t2\naddi t2, t2, 1\nla t1, 2f\nsetrpc zero, t1, 0\nvbeq v1, v2, 2f\nj 1b\n2: join zero, zero, 0\nret\n'
cat_case F08 3 "SIMT stack overflow (depth 9, limit 8) [kernel 0 wg 0 warp 0 pc" "$ventus" run simt.elf --kernel k --global 32 --local 32 --threads 32 -c simt_stack_depth=8
cat_case F09 4 "set warps_per_sm to at least 32" "$ventus" run ok.elf --kernel k --global 1024 --local 1024
kernel smc 'la t0, k\nsw zero, 0(t0)\nret\n'
cat_case F10 3 "memory is code (read/execute; writable_code = 1 allows stores)" "$ventus" run smc.elf --kernel k --global 1
kernel vill 'li t0, 4\nvsetvli t0, t0, e8, m1, ta, ma\nvadd.vv v1, v1, v1\nret\n'
cat_case F11 3 "vector instruction while vtype.vill is set (the last vsetvl* asked for an unsupported SEW/LMUL; only e32, m1 is implemented)" "$ventus" run vill.elf --kernel k --global 1
# revision 2025 has every element width, still at LMUL 1 only
kernel vill2 'li t0, 4\nvsetvli t0, t0, e16, m2, ta, ma\nvadd.vv v2, v2, v2\nret\n'
cat_case F11 3 "only e8, e16, e32, e64 with m1 is implemented" "$ventus" run vill2.elf --kernel k --global 1 --isa 2025
kernel ovr 'lw t0, 0(a0)\nsw zero, 8(t0)\nret\n'
cat_case F12 3 "address is in the padding after a buffer's requested size (strict_bounds = 1)" "$ventus" run ovr.elf --kernel k --global 1 --arg buf:u32:2 -c strict_bounds=1
cat_case F13 0 "" "$ventus" run ovr.elf --kernel k --global 1 --arg buf:u32:2
kernel x25 '.word 0x0000602b\nret\n'
cat_case F14 3 "illegal instruction 0x0000602b (vsw12d.v exists only in ISA revision 2025: isa = 2025)" "$ventus" run x25.elf --kernel k --global 1
kernel hi64 'li t0, 0x90000000\nvmv.v.x v2, t0\nvmv.v.i v3, 1\n.word 0x0001222b\nret\n'
cat_case F15 3 "64-bit address 0x0000000190000000 is beyond the 32-bit device address space" "$ventus" run hi64.elf --kernel k --global 1 --isa 2025
kernel odd64 '.word 0x0001a22b\nret\n'
cat_case F16 3 "v3 is odd: a register pair starts at an even register" "$ventus" run odd64.elf --kernel k --global 1 --isa 2025
printf '.text\n.globl k\nk:\nprefix 0, 0, 0, 1\nadd a2, a0, a0\nret\n' >pfx.S
"$ventus" as --isa 2025 -o pfx.elf "${LIB[@]}" pfx.S || { echo "FAIL assembling pfx"; fail=1; }
cat_case F17 3 "the prefix gives x10 different ABS/NEG modifiers as two sources of one instruction" "$ventus" run pfx.elf --kernel k --global 1 --isa 2025
printf '.text\n.globl k\nk:\npre_m_64 0, 0, 0\nlb a2, 0(a0)\nret\n' >wide.S
"$ventus" as --isa 2025 -o wide.elf "${LIB[@]}" wide.S || { echo "FAIL assembling wide"; fail=1; }
cat_case F18 3 "a 64/96/128-bit access needs a word load or store" "$ventus" run wide.elf --kernel k --global 1 --isa 2025
printf '.text\n.globl k\nk:\nli t0, 0x70000000\nvmv.v.x v3, t0\nvmv.v.i v4, 9\ncp_dma.8 v3, v2, v4\nret\n' >dma.S
"$ventus" as --isa 2025 -o dma.elf "${LIB[@]}" dma.S || { echo "FAIL assembling dma"; fail=1; }
cat_case F19 3 "cp_dma: srcsize 9 is larger than the copy size 8" "$ventus" run dma.elf --kernel k --global 1 --isa 2025
kernel w64 '.word 0x0000103f\n.word 0x00300000\nret\n'
cat_case F20 3 "illegal instruction 0x003000000000103f (64-bit)" "$ventus" run w64.elf --kernel k --global 1 --isa 2025
printf '.text\n.globl k\nk:\ncsrr t0, wid\nbnez t0, 1f\nret\n1: cp_dma_mbarrier\nret\n' >mbar.S
"$ventus" as --isa 2025 -o mbar.elf "${LIB[@]}" mbar.S || { echo "FAIL assembling mbar"; fail=1; }
cat_case F23 3 "barrier deadlock: cp_dma_mbarrier can never complete: work-group 0, group 0 (warps 0..1): warps 1 wait, warps 0 ended" "$ventus" run mbar.elf --kernel k --global 64 --local 64 --threads 32 --isa 2025 -c barrier_counts_ended=0
printf '.text\n.globl k\nk:\ncsrr t0, wid\nbnez t0, 2f\nla t3, 3f\nla t4, 4f\nlw t5, 0(t4)\nsw t5, 0(t3)\nret\n2: li a3, 400\n3: addi a2, a2, 1\naddi a3, a3, -1\nbnez a3, 3b\nret\n.data\n4: addi a2, a2, 1000\n' >race.S
"$ventus" as -o race.elf "${LIB[@]}" race.S || { echo "FAIL assembling race"; fail=1; }
cat_case F25 3 "which warp 1 of work-group 0 may already have run ahead of this round" "$ventus" run race.elf --kernel k --global 64 --local 64 --threads 32 -c writable_code=1

# ---- the catalogue and docs/errors.md list the same ids ---------------------------------
doc_ids=$(grep -oE '^\| [A-OQ-Z][0-9]{2} ' "$src/docs/errors.md" | tr -d '| ' | sort)
test_ids=$(printf '%s\n' "${ids[@]}" C09 | sort -u)
if [ "$doc_ids" != "$test_ids" ]; then
  echo "FAIL docs/errors.md and this test list different ids:"
  diff <(echo "$doc_ids") <(echo "$test_ids") | sed 's/^/  | /'
  fail=1
fi
echo "$ncases catalogue cases run"
exit $fail
