#!/usr/bin/env bash
# Assembles every example kernel together with start.S and checks the ELF with
# an independent reader (llvm-readelf-19): it must parse without warnings,
# the entry point and _start must be 0x80000000, and the kernel's global
# symbol (named after the file) must be defined.
#   usage: bash test_examples_elf.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
readelf=llvm-readelf-19

if ! command -v "$readelf" >/dev/null 2>&1; then
  echo "SKIP: $readelf not installed (apt-get install llvm-19); ELF checks not run"
  exit 0
fi

for k in "$src"/kernels/examples/*.S; do
  name=$(basename "$k" .S)
  elf="$tmp/$name.elf"
  if ! "$ventus" as -o "$elf" "$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S" "$k" \
      >"$tmp/as.log" 2>&1; then
    if grep -q 'not built yet' "$tmp/as.log"; then
      echo "SKIP: 'ventus as' is not built yet; ELF checks not run"
      exit 0
    fi
    echo "FAIL $name: ventus as failed:"
    cat "$tmp/as.log"
    fail=1
    continue
  fi
  if ! "$readelf" -h -S -s "$elf" >"$tmp/re.log" 2>&1; then
    echo "FAIL $name: $readelf exited non-zero:"
    cat "$tmp/re.log"
    fail=1
    continue
  fi
  if grep -qi warning "$tmp/re.log"; then
    echo "FAIL $name: $readelf warns:"
    grep -i warning "$tmp/re.log"
    fail=1
  fi
  entry=$(sed -nE 's/^ *Entry point address: *(0x[0-9a-fA-F]+).*/\1/p' "$tmp/re.log")
  if [ "$((entry))" != "$((0x80000000))" ]; then
    echo "FAIL $name: entry point is '$entry', expected 0x80000000"
    fail=1
  fi
  # symbol table rows: Num: Value Size Type Bind Vis Ndx Name
  if ! awk '$8 == "_start" && $2 ~ /^0*80000000$/ { ok = 1 } END { exit !ok }' "$tmp/re.log"; then
    echo "FAIL $name: no _start symbol at 0x80000000"
    fail=1
  fi
  if ! awk -v k="$name" '$8 == k && $5 == "GLOBAL" && $7 != "UND" { ok = 1 } END { exit !ok }' \
      "$tmp/re.log"; then
    echo "FAIL $name: no defined global symbol '$name'"
    fail=1
  fi
  [ $fail -eq 0 ] && echo "ok $name"
done
exit $fail
