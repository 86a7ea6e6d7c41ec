#!/usr/bin/env bash
# `ventus as` / `ventus objdump`: usage and exit codes, output accepted by the
# LLVM tools without warnings, a relocatable object linked by ld.lld equals our
# own executable, disassembly text, and one diagnostic line (file:line:col)
# per malformed assembly or ELF input.
#   usage: bash test_as_objdump.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail, ok, bad
expect_rc() { # name want cmd...
  local name=$1 want=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -eq "$want" ]; then ok "$name"; else bad "$name (exit $rc, want $want)"; cat "$tmp/err"; fi
}

# ---- usage -------------------------------------------------------------------
expect_rc "as --help" 0 "$ventus" as --help
expect_rc "objdump --help" 0 "$ventus" objdump --help
expect_rc "as without files" 2 "$ventus" as
expect_rc "as bad option" 2 "$ventus" as --bogus x.S
expect_rc "as bad --text-addr" 2 "$ventus" as --text-addr zz x.S
expect_rc "objdump without input" 2 "$ventus" objdump
expect_rc "objdump bad word" 2 "$ventus" objdump --word 0xzz
expect_rc "as missing file" 4 "$ventus" as -o "$tmp/x" "$tmp/does-not-exist.S"

# ---- a program ------------------------------------------------------------------
cat >"$tmp/p.S" <<'EOF'
  .text
  .globl _start
  .type _start, @function
_start:
  li t4, 32
  vsetvli t4, t4, e32, m1, ta, ma
  la a0, table
  lw a1, 4(a0)
  call kern
loop:
  addi a1, a1, -1
  bnez a1, loop
  vadd.vv v40, v33, v2        # needs a regext prefix
1: auipc t1, %pcrel_hi(done)
  setrpc zero, t1, %pcrel_lo(1b)
  vbeq v1, v2, done
  csrr a2, tid
done:
  join zero, zero, 0
  endprg x0, x0, x0
  .globl kern
  .type kern, @function
kern:
  lui a3, %hi(table)
  lw a4, %lo(table)(a3)
  ret
  .size kern, .-kern
  .data
table: .word 1, 2, kern
  .rodata
msg: .string "hello"
  .bss
buf: .zero 64
EOF
expect_rc "assemble executable" 0 "$ventus" as -o "$tmp/p.elf" "$tmp/p.S"
expect_rc "assemble relocatable" 0 "$ventus" as -c -o "$tmp/p.o" "$tmp/p.S"

if command -v llvm-readelf-19 >/dev/null 2>&1; then
  for f in p.elf p.o; do
    if llvm-readelf-19 -h -S -s -l -r "$tmp/$f" >"$tmp/re" 2>&1 && ! grep -qi warning "$tmp/re"; then
      ok "llvm-readelf accepts $f"
    else
      bad "llvm-readelf on $f"; cat "$tmp/re"
    fi
    if llvm-objdump-19 -d "$tmp/$f" >"$tmp/od" 2>&1 && ! grep -qi warning "$tmp/od"; then
      ok "llvm-objdump accepts $f"
    else
      bad "llvm-objdump on $f"; cat "$tmp/od"
    fi
  done
  grep -q 'Entry point address: *0x80000000' "$tmp/re" 2>/dev/null || true
  llvm-readelf-19 -h "$tmp/p.elf" | grep -q 'Entry point address: *0x80000000' && ok "entry" || bad "entry"
  llvm-readelf-19 -l "$tmp/p.elf" | grep -c 'LOAD' | grep -q '^3$' && ok "3 PT_LOAD" || bad "PT_LOAD count"
  llvm-readelf-19 -r "$tmp/p.o" | grep -q 'R_RISCV_HI20' && ok "relocations" || bad "relocations"
else
  echo "NOTE: llvm-readelf-19 not installed; LLVM tool checks not run"
fi

# The linker resolves our relocations to the same code as our own layout.
lld=$(command -v ld.lld-19 || command -v ld.lld || true)
if [ -n "$lld" ] && command -v llvm-objcopy-19 >/dev/null 2>&1; then
  if "$lld" -m elf32lriscv -e _start --section-start=.text=0x80000000 \
      --section-start=.rodata=0x80001000 --section-start=.data=0x80002000 \
      --section-start=.bss=0x8000200c "$tmp/p.o" -o "$tmp/linked.elf" 2>"$tmp/lld.err"; then
    llvm-objcopy-19 -O binary --only-section=.text "$tmp/linked.elf" "$tmp/a.bin"
    llvm-objcopy-19 -O binary --only-section=.text "$tmp/p.elf" "$tmp/b.bin"
    llvm-objcopy-19 -O binary --only-section=.data "$tmp/linked.elf" "$tmp/c.bin"
    llvm-objcopy-19 -O binary --only-section=.data "$tmp/p.elf" "$tmp/d.bin"
    if cmp -s "$tmp/a.bin" "$tmp/b.bin" && cmp -s "$tmp/c.bin" "$tmp/d.bin"; then
      ok "ld.lld link of -c output equals our executable"
    else
      bad "ld.lld link differs"
      "$ventus" objdump "$tmp/linked.elf" >"$tmp/l.txt"; "$ventus" objdump "$tmp/p.elf" >"$tmp/m.txt"
      diff "$tmp/l.txt" "$tmp/m.txt" | head -20
    fi
  else
    bad "ld.lld failed"; cat "$tmp/lld.err"
  fi
else
  echo "NOTE: ld.lld or llvm-objcopy-19 not installed; link comparison not run"
fi

# ---- objdump ----------------------------------------------------------------------
"$ventus" objdump -d "$tmp/p.elf" >"$tmp/dis" 2>&1 || bad "objdump exit"
check_dis() { grep -qF -- "$1" "$tmp/dis" && ok "objdump: $1" || { bad "objdump lacks '$1'"; cat "$tmp/dis"; }; }
check_dis "80000000 <_start>:"
check_dis "80000000: 02000e93"
check_dis "li t4, 32"
check_dis "vsetvli t4, t4, e32, m1, ta, ma"
check_dis "bnez a1, -4 <loop>"
check_dis "vadd.vv v40, v33, v2"
check_dis "<kern>:"
check_dis "csrr a2, tid"
check_dis "join zero, zero, 0"
"$ventus" objdump --start-address 0x80000010 --stop-address 0x80000018 "$tmp/p.elf" >"$tmp/dis2"
[ "$(grep -c '^8000001[04]:' "$tmp/dis2")" = 2 ] && [ "$(grep -c '^ *8000' "$tmp/dis2")" = 2 ] &&
  ok "start/stop address" || { bad "start/stop address"; cat "$tmp/dis2"; }
"$ventus" objdump --word 0x0040a37b | grep -q 'vlw12.v v6, 4(v1)' && ok "--word" || bad "--word"
"$ventus" objdump --word 0x0010200b 0x02110457 | grep -q 'vadd.vv v40, v1, v2' &&
  ok "--word folds a regext prefix" || bad "--word prefix folding"
printf '\x5b\x20\x00\x00\x0b\x40\x00\x00' >"$tmp/raw.bin"
"$ventus" objdump --raw "$tmp/raw.bin" --base 0x80000000 >"$tmp/raw.txt"
grep -q '80000000: 0000205b.*join' "$tmp/raw.txt" && grep -q '80000004: 0000400b.*endprg' "$tmp/raw.txt" &&
  ok "--raw" || { bad "--raw"; cat "$tmp/raw.txt"; }

# disassembly re-assembles to the same code
sed -n 's/^ *[0-9a-f]*: [0-9a-f]\{8\} *\t\(.*\)$/\1/p' "$tmp/dis" | sed 's/ <[^>]*>$//' >"$tmp/re.S"
"$ventus" as -o "$tmp/re.elf" "$tmp/re.S" 2>"$tmp/re.err" || { bad "re-assembly"; cat "$tmp/re.err"; }
if command -v llvm-objcopy-19 >/dev/null 2>&1; then
  llvm-objcopy-19 -O binary --only-section=.text "$tmp/re.elf" "$tmp/re.bin"
  llvm-objcopy-19 -O binary --only-section=.text "$tmp/p.elf" "$tmp/p.bin"
  cmp -s "$tmp/re.bin" "$tmp/p.bin" && ok "objdump output re-assembles identically" ||
    bad "re-assembled code differs"
fi

# ---- malformed assembly: one line "ventus as: file:line:col: error: ..." each ------
n=0
while IFS='|' read -r src loc msg; do
  n=$((n + 1))
  f="$tmp/bad$n.S"
  printf '%b\n' "$src" >"$f"
  "$ventus" as -o "$tmp/bad.elf" "$f" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  lines=$(wc -l <"$tmp/err")
  if [ "$rc" -eq 1 ] && [ "$lines" -eq 1 ] &&
     grep -qE "^ventus as: $f:$loc: error: .*$msg" "$tmp/err"; then
    ok "bad asm: $msg"
  else
    bad "bad asm '$src' (exit $rc, $lines lines, want $f:$loc ... $msg):"; cat "$tmp/err"
  fi
done <<'EOF'
  foo a0, a1|1:3|unknown instruction
addi a0, a1, 5000|1:14|out of range
addi a0, a1|1:12|missing operand
add a0, a1, v2|1:13|expected an x register
vadd.vv v1, a0, v2|1:13|expected a vector register
j nowhere|1:3|undefined symbol 'nowhere'
.bogus 1|1:1|unknown directive
x: nop\nnop\nx: nop|3:1|already defined
li a0, 1 +|1:11|expected an expression
csrr a0, nosuchcsr|1:10|unknown CSR
beq a0, a1, 3|1:13|not a multiple of 2
lw a0, 4(a1|1:8|memory operand
vadd.vi v1, v2, 5000|1:17|out of range
fadd.s a0, a1, a2, xyz|1:20|rounding mode
vsetvli a0, a1, e7|1:17|element width
.string "abc|1:9|unterminated
add a0, a1, a2, a3|1:17|too many operands
add x256, a0, a1|1:5|expected an x register
.word 1, , 2|1:10|expected a value
lw a0, %foo(x)(a1)|1:8|unknown relocation operator
.byte 300|1:7|does not fit
.section .x, "q"|1:15|unknown flag
nop # fine\n/* fine */ bnez a0, 1b|2:21|no previous definition
EOF

# binary garbage is rejected, not a crash
head -c 3000 /dev/urandom >"$tmp/garbage.S"
"$ventus" as -o "$tmp/g.elf" "$tmp/garbage.S" >/dev/null 2>&1
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] && ok "garbage input rejected" || bad "garbage input (exit $rc)"

# ---- malformed ELF for objdump ------------------------------------------------------
head -c 100 "$tmp/p.elf" >"$tmp/trunc.elf"
"$ventus" objdump "$tmp/trunc.elf" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok "truncated ELF rejected" ||
  { bad "truncated ELF (exit $rc)"; cat "$tmp/err"; }
"$ventus" objdump "$tmp/p.S" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] && grep -q 'not an ELF file' "$tmp/err" && ok "text file rejected" ||
  { bad "text file as ELF (exit $rc)"; cat "$tmp/err"; }

exit $fail
