#!/usr/bin/env bash
# src/cl/cl_dispatch.c is generated from the installed <CL/cl_icd.h> by
# src/cl/gen/gen_dispatch.py; regenerating it gives the committed file, so
# the dispatch table matches the headers the library is built with.
#   usage: bash test_cl_dispatch_gen.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@"
hdr=/usr/include/CL/cl_icd.h
[ -e "$hdr" ] || { echo "SKIP: $hdr not installed"; exit 0; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 0; }
if ! python3 "$src/src/cl/gen/gen_dispatch.py" "$hdr" >"$tmp/gen.c" 2>"$tmp/err"; then
  bad "gen_dispatch.py failed"
  cat "$tmp/err"
  exit 1
fi
if diff -u "$src/src/cl/cl_dispatch.c" "$tmp/gen.c" >"$tmp/diff"; then
  ok "cl_dispatch.c is what gen_dispatch.py makes of $hdr"
else
  bad "cl_dispatch.c differs from the generator's output (regenerate it):"
  head -n 30 "$tmp/diff"
fi
exit $fail
