#!/usr/bin/env bash
# The environment of the OpenCL platform: CHENGYING_TRACE writes the commit
# log of every launch (the reference ISS's format) and an unwritable path
# fails context creation with one message naming it.
#   usage: bash test_cl_env.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@"
build=$(dirname "$ventus_bin")
[ -x "$build/test_cl_kernels" ] || { echo "SKIP: OpenCL host tests not built (no OpenCL headers or loader)"; exit 0; }
export OCL_ICD_VENDORS="$build/icd"

entry=$("$ventus" objdump "$build/cl-kernels/vecadd.elf" | awk '/<vecadd>:$/ {print $1}')
if CHENGYING_TRACE="$tmp/trace.log" timeout 60 "$build/test_cl_kernels" >"$tmp/out" 2>"$tmp/err"; then
  ok "host program runs with CHENGYING_TRACE"
else
  bad "host program with CHENGYING_TRACE"
  cat "$tmp/err"
fi
head -n 1 "$tmp/trace.log" | grep -q '^core   0: 0x80000000 (0x[0-9a-f]\{8\}) ' &&
  ok "trace starts at _start of warp 0" || bad "trace: first line '$(head -n 1 "$tmp/trace.log")'"
grep -q "^core   [0-9]*: 0x$entry " "$tmp/trace.log" && ok "trace reaches vecadd at 0x$entry" ||
  bad "trace: no instruction at vecadd's entry 0x$entry"
# the reference format, checked by trace-diff against itself
"$ventus" trace-diff "$tmp/trace.log" "$tmp/trace.log" >/dev/null 2>&1 && ok "trace-diff reads the trace" ||
  bad "trace-diff cannot read the trace"

CHENGYING_TRACE="$tmp/no/such/dir/t.log" timeout 60 "$build/test_cl_kernels" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && ok "unwritable trace: exit $rc" || bad "unwritable trace: exit 0"
n=$(grep -c "^chengying-opencl: CHENGYING_TRACE=$tmp/no/such/dir/t.log: No such file or directory$" "$tmp/err")
[ "$n" = 1 ] && ok "unwritable trace: one message" || { bad "unwritable trace message"; cat "$tmp/err"; }
exit $fail
