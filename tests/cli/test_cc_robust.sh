#!/usr/bin/env bash
# `ventus cc` under bad input (robustness audit 2, ../shared/repro/round2):
# a damaged, foreign or endless libclc library (D1), more than 88 build
# options (D3), -o naming the source (D4), 64 KiB of __local data and
# long kernel names (D6, D7), a 3000-case switch (D9), and constructs named
# in the user's words (D12).
#   usage: bash test_cc_robust.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail, ok, bad, expect

printf 'kernel void k(global int *a) { a[0] = 1; }\n' >"$tmp/ok.cl"
if ! "$ventus_bin" cc -o "$tmp/probe.elf" "$tmp/ok.cl" 2>"$tmp/err"; then
  if grep -q "no OpenCL C compiler\|cannot run the OpenCL C front end" "$tmp/err"; then
    echo "SKIP: ventus cc is not available here: $(cat "$tmp/err")"
    exit 0
  fi
fi

# D1: the math library is read by us, bounded, and must be bitcode: exit 4, one line
printf 'kernel void m(global float *a) { a[0] = tgamma(a[1]) + erf(a[2]); }\n' >"$tmp/math.cl"
printf 'this is not bitcode\n' >"$tmp/text.bc"
CHENGYING_LIBCLC="$tmp/text.bc" expect 4 "$tmp/text.bc: not a readable LLVM bitcode library (no bitcode header)" \
  "libclc: a text file" "$ventus" cc -o "$tmp/m.elf" "$tmp/math.cl"
CHENGYING_LIBCLC=/dev/zero expect 4 "/dev/zero: not a readable LLVM bitcode library (not a regular file)" \
  "libclc: /dev/zero refused at once" "$ventus" cc -o "$tmp/m.elf" "$tmp/math.cl"
printf 'BC\300\336' >"$tmp/magic.bc"
head -c 4000 /dev/zero | tr '\0' '\252' >>"$tmp/magic.bc"
CHENGYING_LIBCLC="$tmp/magic.bc" expect 4 "$tmp/magic.bc: not a readable LLVM bitcode library (LLVM: " \
  "libclc: a bitcode header before garbage" "$ventus" cc -o "$tmp/m.elf" "$tmp/math.cl"
if [ -r /usr/lib/clc/nvptx--.bc ]; then
  head -c 1000 /usr/lib/clc/nvptx--.bc >"$tmp/trunc.bc"
  CHENGYING_LIBCLC="$tmp/trunc.bc" expect 4 "$tmp/trunc.bc: not a readable LLVM bitcode library (LLVM: " \
    "libclc: a truncated copy of nvptx--.bc" "$ventus" cc -o "$tmp/m.elf" "$tmp/math.cl"
  # the bodies are read when the linker takes them: zeros in their place
  # (10 % to 90 % of the file, where the function blocks lie) are met then
  cp /usr/lib/clc/nvptx--.bc "$tmp/holes.bc"
  sz=$(stat -c %s "$tmp/holes.bc")
  dd if=/dev/zero of="$tmp/holes.bc" bs=1024 seek=$((sz / 10240)) count=$((sz * 8 / 10240)) conv=notrunc status=none
  CHENGYING_LIBCLC="$tmp/holes.bc" expect 4 "$tmp/holes.bc: linking the library failed (LLVM: " \
    "libclc: function bodies zeroed, found when linked" "$ventus" cc -o "$tmp/m.elf" "$tmp/math.cl"
  truncate -s 65M "$tmp/big.bc"
  CHENGYING_LIBCLC="$tmp/big.bc" expect 4 "$tmp/big.bc: not a readable LLVM bitcode library (larger than 64 MiB)" \
    "libclc: a file over the size bound" "$ventus" cc -o "$tmp/m.elf" "$tmp/math.cl"
fi

# D3: every option reaches clang (X is the 101st -D here)
printf 'kernel void k(global int *a) { a[0] = X; }\n' >"$tmp/many.cl"
defs=()
for i in $(seq 1 100); do defs+=("-DA$i=$i"); done
if "$ventus" cc -S -o "$tmp/many.s" "${defs[@]}" -DX=12345 "$tmp/many.cl" 2>"$tmp/err" &&
  grep -q "12345" "$tmp/many.s"; then
  ok "101 -D options: the last one reaches clang"
else
  bad "101 -D options: $(head -2 "$tmp/err")"
fi

# D4: the output would replace the source
cp "$tmp/ok.cl" "$tmp/same.cl"
expect 2 "output file '$tmp/same.cl' is the input file '$tmp/same.cl'" "-o naming the input" \
  "$ventus" cc -o "$tmp/same.cl" "$tmp/same.cl"
expect 2 "is the input file" "-o naming the input by another path" \
  "$ventus" cc -o "$tmp/./same.cl" "$tmp/same.cl"
cmp -s "$tmp/ok.cl" "$tmp/same.cl" && ok "the source is kept" || bad "the source was overwritten"

# D6: 64 KiB of __local data compiles (the resource record's long form) and runs
cat >"$tmp/l64.cl" <<'CL'
kernel void l64(global int *a) {
  local int l[16384];
  int i = get_local_id(0);
  l[16383 - i] = i * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[i] = l[16383 - i] + l[16383];
}
CL
if "$ventus" cc -o "$tmp/l64.elf" "$tmp/l64.cl" 2>"$tmp/err" &&
  "$ventus" run -q "$tmp/l64.elf" --kernel l64 --global 32 --local 32 --arg buf:i32:32 --show 0:4 >"$tmp/out" 2>&1 &&
  grep -q "^arg0 i32\[32\]: 0 3 6 9" "$tmp/out"; then
  ok "64 KiB of __local data compiles and runs"
else
  bad "64 KiB of __local data: $(head -2 "$tmp/err" "$tmp/out")"
fi
printf 'kernel void huge(global int *a) { local int l[1 << 28]; l[a[0]] = 1; barrier(CLK_LOCAL_MEM_FENCE); a[1] = l[a[2]]; }\n' \
  >"$tmp/huge.cl"
expect 1 "kernel huge: more than 16 MiB of __local data (the most any device holds)" "1 GiB of __local data" \
  "$ventus" cc -o "$tmp/huge.elf" "$tmp/huge.cl"

# D7: kernel names up to 4095 characters compile and run (the CTS's
# kernel_name_size goes to 2048); longer ones are refused plainly
n4095=$(printf 'k%.0s' $(seq 1 4095))
printf 'kernel void %s(global int *a) { a[get_global_id(0)] = 7; }\n' "$n4095" >"$tmp/n4095.cl"
if "$ventus" cc -o "$tmp/n4095.elf" "$tmp/n4095.cl" 2>"$tmp/err" &&
  "$ventus" run -q "$tmp/n4095.elf" --kernel "$n4095" --global 4 --local 4 --arg buf:i32:4 --show 0:4 >"$tmp/out" 2>&1 &&
  grep -q "^arg0 i32\[4\]: 7 7 7 7" "$tmp/out"; then
  ok "a 4095-character kernel name"
else
  bad "a 4095-character kernel name: $(head -2 "$tmp/err" "$tmp/out" | cut -c1-200)"
fi
printf 'kernel void %sk(global int *a) { a[0] = 7; }\n' "$n4095" >"$tmp/n4096.cl"
expect 1 "a name of 4096 characters (at most 4095)" "a 4096-character kernel name" \
  "$ventus" cc -o "$tmp/n4096.elf" "$tmp/n4096.cl"

# D9: a large switch (lowered after the last instcombine, which took seconds
# over its compare tree) compiles in bounded time and selects the right case
{
  printf 'kernel void sw(global int *a) { switch (a[1]) {'
  for i in $(seq 0 2999); do printf 'case %d: a[0] = %d; break;' "$i" $((i * 7 + 3)); done
  printf 'default: a[0] = -1; } }\n'
} >"$tmp/sw.cl"
start=$(date +%s)
if "$ventus" cc -o "$tmp/sw.elf" "$tmp/sw.cl" 2>"$tmp/err" &&
  "$ventus" run -q "$tmp/sw.elf" --kernel sw --global 1 --local 1 --arg buf:i32:2:iota --show 0:2 >"$tmp/out" 2>&1 &&
  grep -q "^arg0 i32\[2\]: 10 1" "$tmp/out"; then
  ok "a 3000-case switch (past the 2048 blocks that leave simplifycfg out) compiles ($(($(date +%s) - start)) s) and selects case 1"
else
  bad "a 3000-case switch: $(head -2 "$tmp/err" "$tmp/out")"
fi

# D12: constructs named in words, and a front end that says nothing
printf 'float4 ext(read_only image2d_t im);\nkernel void k(read_only image2d_t im, global float4 *o) { o[0] = ext(im); }\n' \
  >"$tmp/img.cl"
expect 1 "img.cl:2: error: an image or sampler passed to ext: images and samplers may only be passed to the program's own functions and the image builtins (kernel k)" \
  "an image passed to an undefined function" "$ventus" cc -o "$tmp/o.elf" "$tmp/img.cl"
printf 'kernel void k(write_only pipe int p, global int *a) { write_pipe(p, &a[0]); }\n' >"$tmp/pipe.cl"
expect 1 "error: a pipe argument (argument 0)" "a pipe argument" "$ventus" cc -cl-std=CL2.0 -o "$tmp/o.elf" "$tmp/pipe.cl"
printf '#pragma OPENCL EXTENSION cl_khr_fp16 : enable\nkernel void k(global half *a) { half h = a[1]; a[0] = h * h; }\n' \
  >"$tmp/half.cl"
expect 0 "" "half arithmetic (cl_khr_fp16, done in float)" "$ventus" cc -o "$tmp/o.elf" "$tmp/half.cl"
# printf of a half in a source that uses double too: clang promotes it to
# double, the record carries the float it widens to
printf '%s\n' '#pragma OPENCL EXTENSION cl_khr_fp16 : enable' \
  'kernel void k(global half *a, global double *d) { half h = a[0] * (half)2.0f; d[0] = 1.0; printf("h=%f\n", h); }' \
  >"$tmp/hpf.cl"
if "$ventus" cc -o "$tmp/hpf.elf" "$tmp/hpf.cl" 2>"$tmp/err" &&
  "$ventus" run -q "$tmp/hpf.elf" --kernel k --global 1 --local 1 --threads 1 --arg buf:u32:1:fill=0x3e00 \
    --arg buf:u32:2 >"$tmp/out" 2>&1 &&
  [ "$(cat "$tmp/out")" = "h=3.000000" ]; then
  ok "printf of a half promoted to double"
else
  bad "printf of a half promoted to double: $(head -2 "$tmp/err" "$tmp/out" | cat -v)"
fi
# printf of doubles, longs and a double vector: two words each, the format's
# l modifiers made to follow the arguments (%lf of a float loses its l)
cat >"$tmp/dpf.cl" <<'CL'
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global double *a, global long *l) {
  double d = a[0] / 3.0;
  float f = (float)d;
  double2 v = (double2)(d, -d * 1e300);
  printf("d=%.17g f=%f l=%ld lx=%lx i=%d v=%.3v2le lf=%lf %s\n", d, f, l[0], l[0], 7, v, f, "ok");
}
CL
if "$ventus" cc -w -o "$tmp/dpf.elf" "$tmp/dpf.cl" 2>"$tmp/err" &&
  "$ventus" run -q "$tmp/dpf.elf" --kernel k --global 1 --local 1 --threads 1 --arg buf:u32:2:fill=0x3ff00000 \
    --arg buf:u32:2:fill=0xfffffff0 >"$tmp/out" 2>&1 &&
  [ "$(cat "$tmp/out")" = "d=0.3333334127285828 f=0.333333 l=-64424509456 lx=fffffff0fffffff0 i=7 v=3.333e-01,-3.333e+299 lf=0.333333 ok" ]; then
  ok "printf of doubles, longs and a double vector"
else
  bad "printf of doubles, longs and a double vector: $(head -2 "$tmp/err" "$tmp/out" | cat -v)"
fi
printf 'kernel void k(global int *a) { __asm__ volatile ("ecall"); a[0] = 1; }\n' >"$tmp/asm.cl"
expect 1 "asm.cl:1: error: inline assembly (an asm statement) is not supported (kernel k)" "inline assembly" \
  "$ventus" cc -o "$tmp/o.elf" "$tmp/asm.cl"
CHENGYING_CLANG=/bin/false expect 1 \
  "ok.cl: the OpenCL C front end '/bin/false' failed (exit status 1) without printing a diagnostic" \
  "a front end that fails silently" "$ventus" cc -o "$tmp/o.elf" "$tmp/ok.cl"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$tmp/crash.sh"
chmod +x "$tmp/crash.sh"
CHENGYING_CLANG="$tmp/crash.sh" expect 1 "the OpenCL C front end '$tmp/crash.sh' was killed by signal 11" \
  "a front end killed by a signal" "$ventus" cc -o "$tmp/o.elf" "$tmp/ok.cl"

exit $fail
