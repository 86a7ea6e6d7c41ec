#!/usr/bin/env bash
# libventus_driver.so serves a host program that knows only the upstream
# header include/ventus.h: it is compiled and linked like the upstream OpenCL
# runtime links its driver, runs the vecadd example through vt_* calls and
# checks every result. The library exports nothing but the public API.
#   usage: bash test_shared_lib.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@"
lib=$(dirname "$ventus_bin")
cc=${CC:-cc}
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "SKIP: no C compiler ($cc) to build the host program"
  exit 0
fi
[ -e "$lib/libventus_driver.so" ] || { bad "libventus_driver.so not built next to $ventus"; exit 1; }

assemble_example vecadd "$tmp/vecadd.elf"
entry=$("$ventus" objdump "$tmp/vecadd.elf" | awk '/<vecadd>:$/ {print "0x" $1}')
[ -n "$entry" ] && ok "vecadd entry at $entry" || bad "no <vecadd> symbol in the objdump output"

# a sanitizer build of the library needs its runtime in the program too
san=""
ldd "$lib/libventus_driver.so" 2>/dev/null | grep -q libasan && san="-fsanitize=address,undefined"
if "$cc" -std=c17 -Wall -Wextra -Werror $san -I "$src/include" "$src/tests/host/vecadd_host.c" \
    -L "$lib" -lventus_driver -Wl,-rpath,"$lib" -o "$tmp/vecadd_host" 2>"$tmp/cc.err"; then
  ok "host program links against libventus_driver.so"
else
  bad "building the host program"
  cat "$tmp/cc.err"
fi
if [ -x "$tmp/vecadd_host" ] && out=$(under_valgrind "$tmp/vecadd_host" "$tmp/vecadd.elf" "$entry" 2>&1); then
  ok "vt_* launch: $out"
else
  bad "vt_* launch: ${out:-not run}"
fi

# only the public API is exported
extra=$(nm -D --defined-only "$lib/libventus_driver.so" | awk '{print $3}' | grep -Ev '^(vt_|cy_)')
internal=$(nm -D --defined-only "$lib/libventus_driver.so" | awk '{print $3}' |
  grep -E '^vt_(device|mem|config|case|kernel|heap|trace|stats)')
[ -z "$extra$internal" ] && ok "exports only vt_*/cy_* API symbols" || bad "extra exports: $extra $internal"
exit $fail
