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

# CHENGYING_EXPORT_TESTVEC: the vt_start launch as a test vector that
# `ventus run` runs again to C = A + B (the buffers found as the kernel
# finds them: kernel block + 4 = argument block = A, B, C, n)
if [ -x "$tmp/vecadd_host" ] && CHENGYING_EXPORT_TESTVEC="$tmp/vt" under_valgrind "$tmp/vecadd_host" \
    "$tmp/vecadd.elf" "$entry" >/dev/null 2>"$tmp/err" &&
    "$ventus" run "$tmp/vt" --dump "$tmp/vt.dump" --quiet 2>"$tmp/err"; then
  res=$(perl -e '
    sub rd { open my $f, "<", $_[0] or die "$_[0]: $!"; map { hex } grep { /\S/ } <$f> }
    my @m = rd("$ARGV[0].metadata"); my @d = rd("$ARGV[0].data"); my ($n, $k, %in, %out) = ($m[26], 0);
    for my $i (0 .. $n - 1) { my ($b, $s) = ($m[28 + 2 * $i], $m[28 + 2 * ($n + $i)]);
      for (my $o = 0; $o < $s; $o += 4) { $in{$b + $o} = $d[$k++] } }
    open my $f, "<", $ARGV[1] or die; while (<$f>) { my ($a, $w) = split; $out{hex $a} = hex $w }
    my $args = $in{$m[14] + 4}; my ($A, $B, $C, $N) = map { $in{$args + 4 * $_} } 0 .. 3;
    my $good = 0; my $f32 = sub { unpack "f", pack "L", $_[0] };
    for my $i (0 .. $N - 1) { $good++ if $out{$C + 4 * $i} == unpack "L", pack "f", $f32->($in{$A + 4 * $i}) + $f32->($in{$B + 4 * $i}) }
    print "$good of $N" . ($in{$C} ? " (C not zero before)" : "")' "$tmp/vt/kernel_0" "$tmp/vt.dump")
  [ "$(grep -v '^#' "$tmp/vt/kernels.txt")" = kernel_0 ] && [ "${res% of *}" = "${res#* of }" ] && [ "${res#* of }" -gt 0 ] &&
    ok "vt_* launch exported as kernel_0: $res words of C = A + B after ventus run" ||
    bad "vt_* launch exported: $res, kernels.txt: $(grep -v '^#' "$tmp/vt/kernels.txt" 2>/dev/null)"
else
  bad "vt_* launch exported: $(head -n 3 "$tmp/err")"
fi

# only the public API is exported
extra=$(nm -D --defined-only "$lib/libventus_driver.so" | awk '{print $3}' | grep -Ev '^(vt_|cy_)')
internal=$(nm -D --defined-only "$lib/libventus_driver.so" | awk '{print $3}' |
  grep -E '^vt_(device|mem|config|case|kernel|heap|trace|stats)')
[ -z "$extra$internal" ] && ok "exports only vt_*/cy_* API symbols" || bad "extra exports: $extra $internal"
exit $fail
