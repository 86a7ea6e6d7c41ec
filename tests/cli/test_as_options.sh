#!/usr/bin/env bash
# `ventus as -I/-D`: include search path and command-line macros reach the
# preprocessor; a pseudo-instruction that expands into several instructions
# reports an error in its operand once.
#   usage: bash test_as_options.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail, ok, bad

mkdir -p "$tmp/inc"
echo '#define VAL 42' >"$tmp/inc/k.h"
printf '#include "k.h"\n.text\n.globl _start\n_start: li a0, VAL\n li a1, FOO\n endprg\n' >"$tmp/d.S"

# li a0, 42 = addi a0, zero, 42 = 0x02a00513; li a1, 7 = 0x00700593
if "$ventus" as -I "$tmp/inc" -DFOO=7 -o "$tmp/d.elf" "$tmp/d.S" &&
  "$ventus" objdump "$tmp/d.elf" | grep -q '02a00513' &&
  "$ventus" objdump "$tmp/d.elf" | grep -q '00700593'; then
  ok "-I DIR and -DNAME=V"
else
  bad "-I DIR and -DNAME=V"
fi
if "$ventus" as "-I$tmp/inc" -D FOO -o "$tmp/d.elf" "$tmp/d.S" &&
  "$ventus" objdump "$tmp/d.elf" | grep -q '00100593'; then # li a1, 1
  ok "-IDIR and -D NAME (= 1)"
else
  bad "-IDIR and -D NAME"
fi

out=$("$ventus" as -I "$tmp/inc" -o "$tmp/d.elf" "$tmp/d.S" 2>&1)
rc=$?
n=$(echo "$out" | grep -c "d.S:5:.*error: undefined symbol 'FOO'")
[ $rc -eq 1 ] && [ "$n" -eq 1 ] && ok "li with an undefined symbol: one error, exit 1" ||
  bad "li with an undefined symbol: rc=$rc, $n lines: $out"

"$ventus" as -I >/dev/null 2>&1
[ $? -eq 2 ] && ok "-I without a value is a usage error" || bad "-I without a value"

exit $fail
