#!/usr/bin/env bash
# The Mesa project's OpenCL API tests from Debian's piglit package, run
# against our platform through the ICD loader (only the build tree's .icd is
# visible): every test in tests/cl/piglit-pass.txt (and, with the OpenCL C
# compiler, tests/cl/piglit-pass-cc.txt) must pass; the results of
# the others are printed (docs/opencl.md lists why they fail).
#   usage: bash test_cl_piglit.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@"
build=$(dirname "$ventus_bin")
bin=$(dpkg -L piglit 2>/dev/null | grep -m1 '/piglit/bin/cl-api-get-platform-ids$' | xargs -r dirname)
[ -n "$bin" ] || { echo "SKIP: piglit not installed"; exit 0; }
[ -e "$build/icd/chengying.icd" ] || { echo "SKIP: OpenCL library not built (no OpenCL headers)"; exit 0; }
export OCL_ICD_VENDORS="$build/icd"
# a sanitizer build's library needs the ASan runtime loaded first
if ldd "$build/libchengying-opencl.so" 2>/dev/null | grep -q libasan; then
  export LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0
fi
# with the OpenCL C compiler in this build, tests/cl/piglit-pass-cc.txt must pass too
lists="$src/tests/cl/piglit-pass.txt"
"$ventus_bin" cc /dev/null 2>&1 | grep -q "no OpenCL C compiler" || lists="$lists $src/tests/cl/piglit-pass-cc.txt"
npass=0
nall=0
for t in $(cd "$bin" && ls | grep -E '^cl-(api|custom)-|^cl-program-(max-work-item-sizes|predefined-macros)$'); do
  nall=$((nall + 1))
  r=$(timeout 60 "$bin/$t" -auto 2>&1 | sed -n 's/.*PIGLIT: {"result": "\([a-z]*\)".*/\1/p' | tail -n 1)
  [ "$r" = pass ] && npass=$((npass + 1))
  if cat $lists | grep -qx "$t"; then
    [ "$r" = pass ] && ok "$t" || bad "$t: ${r:-no result} (it is in $(grep -lx "$t" $lists | xargs -n1 basename))"
  else
    echo "info $t: ${r:-no result}"
  fi
done
echo "piglit: $npass of $nall pass"
exit $fail
