#!/usr/bin/env bash
# The OpenCL host programs under valgrind: no invalid access, no definite or
# indirect leak, in the library or the ICD loader path.
#   usage: bash test_cl_valgrind.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@"
build=$(dirname "$ventus")
command -v valgrind >/dev/null 2>&1 || { echo "SKIP: valgrind not installed"; exit 0; }
ls "$build"/test_cl_* >/dev/null 2>&1 || { echo "SKIP: OpenCL host tests not built"; exit 0; }
if ldd "$build/libchengying-opencl.so" 2>/dev/null | grep -q libasan; then
  echo "SKIP: sanitizer build (valgrind cannot run AddressSanitizer programs)"
  exit 0
fi
export OCL_ICD_VENDORS="$build/icd"
# valgrind 3.19 cannot read the DWARF 5 debug information clang 19 emits
if valgrind -q "$build/test_cl_platform" 2>&1 >/dev/null | grep -q 'unhandled dwarf2 abbrev form'; then
  echo "SKIP: this valgrind cannot read the build's debug information (DWARF 5 from clang?)"
  exit 0
fi
for t in "$build"/test_cl_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  if timeout 300 valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 \
      "$t" >"$tmp/out" 2>"$tmp/err"; then
    ok "$name: valgrind clean"
  else
    bad "$name under valgrind"
    head -n 40 "$tmp/err"
  fi
done
exit $fail
