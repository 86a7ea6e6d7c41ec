#!/usr/bin/env bash
# `cmake --install` (staged with DESTDIR, prefix /opt/cy) puts the command,
# the libraries, headers, start-up code, a pkg-config file naming them and
# the .icd file naming the installed OpenCL library; through that library the
# ICD loader finds the platform.
#   usage: bash test_cl_install.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@"
build=$(dirname "$ventus_bin")
command -v cmake >/dev/null 2>&1 || { echo "SKIP: cmake not on PATH"; exit 0; }
stage="$tmp/stage"
if ! DESTDIR="$stage" cmake --install "$build" --prefix /opt/cy >"$tmp/log" 2>&1; then
  bad "cmake --install"
  cat "$tmp/log"
  exit 1
fi
libdir=$(sed -n 's/^libdir=\${prefix}//p' "$stage/opt/cy/"lib*/pkgconfig/chengying.pc 2>/dev/null | head -n 1)
[ -n "$libdir" ] && ok "pkg-config file, libdir /opt/cy$libdir" || { bad "no chengying.pc"; exit 1; }
for f in bin/ventus "${libdir#/}/libventus_driver.so.0" include/chengying/ventus.h include/chengying/chengying.h \
    share/chengying/kernels/start.S share/chengying/kernels/workitem.S share/chengying/kernels/args.inc; do
  [ -e "$stage/opt/cy/$f" ] && ok "installed $f" || bad "missing $f"
done
grep -q '^Libs: -L${libdir} -lventus_driver$' "$stage/opt/cy/${libdir#/}/pkgconfig/chengying.pc" &&
  ok "pkg-config Libs" || bad "pkg-config Libs line"

[ -e "$build/icd/chengying.icd" ] || { echo "SKIP: OpenCL library not built (no OpenCL headers)"; exit $fail; }
icd="$stage/etc/OpenCL/vendors/chengying.icd"
want="/opt/cy$libdir/libchengying-opencl.so.0"
[ "$(cat "$icd" 2>/dev/null)" = "$want" ] && ok ".icd file names $want" || bad ".icd file: '$(cat "$icd" 2>/dev/null)'"
[ -e "$stage$want" ] && ok "installed $want" || bad "missing $want"
command -v clinfo >/dev/null 2>&1 || { echo "SKIP: clinfo not installed (loader check)"; exit $fail; }
# the staged library through the loader (the .icd of a real install names /opt/cy directly)
mkdir -p "$tmp/vendors"
echo "$stage$want" >"$tmp/vendors/chengying.icd"
ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 OCL_ICD_VENDORS="$tmp/vendors" timeout 30 clinfo -l \
  >"$tmp/out" 2>&1
grep -q 'Platform #0: chengying' "$tmp/out" && ok "the loader lists the installed platform" ||
  { bad "clinfo -l with the installed library"; cat "$tmp/out"; }
exit $fail
