#!/usr/bin/env bash
# `ventus cc`: options, outputs (-S, -c, executable), clang's diagnostics
# passed through, one clear error for what the back end does not support,
# and a compiled kernel run by `ventus run`.
#   usage: bash test_cc_cli.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail, ok, bad

cat >"$tmp/k.cl" <<'CL'
__kernel void scale(__global const int *in, __global int *out, int k) {
  uint i = get_global_id(0);
  out[i] = in[i] * k + OFFSET;
}
CL
if "$ventus_bin" cc -DOFFSET=1 -o "$tmp/probe.elf" "$tmp/k.cl" 2>"$tmp/err"; then :; else
  if grep -q "no OpenCL C compiler\|cannot run the OpenCL C front end" "$tmp/err"; then
    echo "SKIP: ventus cc is not available here: $(cat "$tmp/err")"
    exit 0
  fi
fi

expect 0 "" "--help" "$ventus" cc --help
grep -q -- "-cl-std=" "$tmp/out" && ok "--help lists -cl-std=" || bad "--help text"
expect 2 "no input file" "no input file" "$ventus" cc
expect 2 "unknown option '--frob'" "unknown option" "$ventus" cc --frob "$tmp/k.cl"
expect 2 "-o needs a value" "-o without a value" "$ventus" cc "$tmp/k.cl" -o
expect 2 "exclude each other" "-S with -c" "$ventus" cc -S -c "$tmp/k.cl"
expect 4 "cannot open $tmp/none.cl" "missing input file" "$ventus" cc "$tmp/none.cl"
expect 4 "$tmp: not a regular file" "a directory as input" "$ventus" cc "$tmp"
head -c 2000 /dev/zero | tr '\0' '\377' >"$tmp/junk.cl"
"$ventus" cc -o "$tmp/junk.elf" "$tmp/junk.cl" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && tail -1 "$tmp/err" | grep -q "junk.cl: compilation failed" && ok "binary junk: clang's errors, exit 1" ||
  bad "binary junk: $(tail -1 "$tmp/err")"

# an executable that ventus run runs: out[i] = in[i] * 3 + 5 (in = iota)
if "$ventus" cc -D OFFSET=5 -O1 -o "$tmp/k.elf" "$tmp/k.cl" &&
  "$ventus" run "$tmp/k.elf" --kernel scale --global 64 --local 32 --arg buf:i32:64:iota \
    --arg buf:i32:64 --arg i32:3 --show 1:4 --quiet >"$tmp/out" 2>&1 &&
  grep -q "^arg1 i32\[64\]: 5 8 11 14 " "$tmp/out"; then
  ok "compiled kernel runs (-D NAME=V, -O1)"
else
  bad "compiled kernel runs: $(cat "$tmp/out")"
fi
"$ventus" cc -O0 -DOFFSET=0 -o "$tmp/k0.elf" "$tmp/k.cl" &&
  "$ventus" run "$tmp/k0.elf" --kernel scale --global 32 --local 32 --arg buf:i32:32:iota \
    --arg buf:i32:32 --arg i32:2 --show 1:3 --quiet 2>&1 | grep -q "^arg1 i32\[32\]: 0 2 4 " &&
  ok "-O0" || bad "-O0"

# printf: ventus run formats the records of a compiled kernel; two work-groups
# of 64 (two warps of 32 each by default), so warps contend for the buffer's
# lock; every work-item with i % 5 == 0 prints exactly once, in lane order
# within a warp
cat >"$tmp/pf.cl" <<'EOF'
__kernel void pf(__global int *a) {
  int i = get_global_id(0);
  if (i % 5 == 0) printf("i=%d %s %.1f\n", i, "ok", i * 0.5f);
}
EOF
awk 'BEGIN { for (i = 0; i < 128; i += 5) printf "i=%d ok %.1f\n", i, i * 0.5 }' | sort >"$tmp/pf.want"
if "$ventus" cc -o "$tmp/pf.elf" "$tmp/pf.cl" 2>"$tmp/err" &&
  "$ventus" run "$tmp/pf.elf" --kernel pf --global 128 --local 64 --arg buf:zero:4 --quiet >"$tmp/pf.out" 2>&1 &&
  sort "$tmp/pf.out" | cmp -s - "$tmp/pf.want" && [ "$(head -2 "$tmp/pf.out" | tr '\n' ' ')" = "i=0 ok 0.0 i=5 ok 2.5 " ]; then
  ok "printf of a compiled kernel under ventus run"
else
  bad "printf under ventus run: $(head -3 "$tmp/pf.out" "$tmp/err")"
fi

# determinism: two runs of a compiled divergent kernel give the same commit log
"$ventus" cc -o "$tmp/ex.elf" "$src/tests/cc/kernels/examples.cl" &&
  for t in 1 2; do
    "$ventus" run "$tmp/ex.elf" --kernel diverge --global 128 --local 64 --arg buf:u32:128:iota \
      --arg buf:u32:128 --arg u32:120 --trace "$tmp/t$t.log" --quiet || exit 1
  done && "$ventus" trace-diff "$tmp/t1.log" "$tmp/t2.log" >/dev/null &&
  ok "compiled kernel: identical commit logs across runs (trace-diff)" || bad "compiled kernel: trace-diff"

# -S: assembly with the metadata sections; -c: a relocatable object
(cd "$tmp" && "$ventus" cc -S -DOFFSET=1 k.cl) && grep -q "vlw12.v" "$tmp/k.s" &&
  grep -q "section .ventus.args.scale" "$tmp/k.s" && grep -q "section .ventus.resource.scale" "$tmp/k.s" &&
  ok "-S writes k.s with the metadata sections" || bad "-S"
(cd "$tmp" && "$ventus" cc -c -DOFFSET=1 k.cl) && "$ventus" objdump "$tmp/k.o" | grep -q "vlw12.v" &&
  ok "-c writes k.o" || bad "-c"

# clang's diagnostics unchanged, then our one line; exit 1
printf '__kernel void bad(__global int *p) {\n  p[0] = undefined_name;\n}\n' >"$tmp/bad.cl"
"$ventus" cc -o "$tmp/bad.elf" "$tmp/bad.cl" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "bad.cl:2:10: error: use of undeclared identifier 'undefined_name'" "$tmp/err" &&
  grep -q "^ventus cc: .*bad.cl: compilation failed" "$tmp/err" && ok "clang's diagnostics passed through, exit 1" ||
  bad "clang diagnostics: rc=$rc $(cat "$tmp/err")"

# what the back end cannot compile: one line naming the source line (a math
# builtin without the libclc library it comes from)
printf '__kernel void sn(__global int *p) {\n  int x = get_global_id(0);\n  p[x + 1] = (int)sin((float)x);\n  p[x] = 1;\n}\n' >"$tmp/sn.cl"
expect 1 "sn.cl:3: error: the builtin function '_Z3sinf' is not supported yet (kernel sn)" \
  "unsupported builtin: one line naming the source line" env CHENGYING_LIBCLC=/nonexistent "$ventus" cc -o "$tmp/sn.elf" "$tmp/sn.cl"
printf '__kernel void lg(__global long *q) {\n  printf("%%ld\\n", q[0]);\n}\n' >"$tmp/lg.cl"
if "$ventus" cc -o "$tmp/lg.elf" "$tmp/lg.cl" 2>"$tmp/err" &&
  "$ventus" run -q "$tmp/lg.elf" --kernel lg --global 1 --local 1 --threads 1 --arg buf:u32:2:fill=0xfffffffe \
    >"$tmp/out" 2>&1 && [ "$(cat "$tmp/out")" = "-4294967298" ]; then
  ok "a long printed (two words)"
else
  bad "a long printed (two words): $(head -2 "$tmp/err" "$tmp/out" | cat -v)"
fi
printf '__attribute__((noinline)) int f(int n) { return n > 1 ? f(n - 1) + f(n - 2) : n; }\n__kernel void rec(__global int *p) {\n  p[0] = f(p[1]);\n}\n' >"$tmp/rec.cl"
expect 1 "rec.cl:1: error: the function 'f' calls itself, directly or through others (recursion is not supported)" \
  "recursion: one line naming the call" "$ventus" cc -o "$tmp/rec.elf" "$tmp/rec.cl"
printf '__kernel void nok(__global int *p) {\n  p[0] = 1;\n}\n__kernel void nil(void) {}\n' >"$tmp/two.cl"
"$ventus" cc -o "$tmp/two.elf" "$tmp/two.cl" && "$ventus" objdump "$tmp/two.elf" | grep -q "<nil>:" &&
  ok "two kernels, one without arguments" || bad "two kernels"
# the start-up code of a compiled program stores nothing (start.S under
# VT_CC_START: compiled code reads the print buffer from the metadata), and
# lists its extent and the kernels' (.ventus.code.<kernel>: start, end)
"$ventus" objdump "$tmp/two.elf" | awk '/<_start>:/ { s = 1; next } /^$/ { s = 0 } s' >"$tmp/start.dis"
[ -s "$tmp/start.dis" ] && ! grep -q "[[:space:]]s[bhw][[:space:]]" "$tmp/start.dis" && grep -q "jalr" "$tmp/start.dis" &&
  ok "a compiled program's _start stores nothing" || bad "compiled _start: $(grep -c . "$tmp/start.dis") lines, stores: $(grep "[[:space:]]s[bhw][[:space:]]" "$tmp/start.dis" | head -2)"
"$ventus" as -o "$tmp/hand.elf" "$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S" "$src/kernels/examples/vecadd.S" &&
  [ "$("$ventus" objdump "$tmp/hand.elf" | awk '/<_start>:/ { s = 1; next } /^$/ { s = 0 } s' | grep -c "[[:space:]]sw[[:space:]]")" = 2 ] &&
  ok "a hand-written program's _start still copies the print buffer (two stores)" || bad "hand-written _start"
printf 'void f(void) {}\n' >"$tmp/none.cl"
expect 1 "no __kernel function" "no kernel" "$ventus" cc -o "$tmp/n.elf" "$tmp/none.cl"

# reqd_work_group_size: `ventus run` takes only that group size, as the platform does
printf '__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void sq(__global int *a) {\n  uint i = get_global_id(0);\n  a[i] = i * i;\n}\n' >"$tmp/rq.cl"
"$ventus" cc -o "$tmp/rq.elf" "$tmp/rq.cl" 2>"$tmp/err" || bad "reqd_work_group_size kernel: $(cat "$tmp/err")"
expect 2 "kernel sq declares reqd_work_group_size(64,1,1): --local must be 64,1,1, not 32,1,1" \
  "reqd_work_group_size: another --local refused" "$ventus" run "$tmp/rq.elf" --kernel sq --global 128 --local 32 \
  --arg buf:u32:128:zero
"$ventus" run -q "$tmp/rq.elf" --kernel sq --global 128 --arg buf:u32:128:zero --show 0:0 >"$tmp/out" 2>&1 &&
  grep -q " 4096 4225 .* 16129$" "$tmp/out" && ok "reqd_work_group_size: no --local takes the declared size" ||
  bad "reqd_work_group_size without --local: $(cat "$tmp/out")"
printf '__kernel __attribute__((reqd_work_group_size(4, 2, 1))) void two(__global int *a) { a[0] = 1; }\n' >"$tmp/rq2.cl"
"$ventus" cc -o "$tmp/rq2.elf" "$tmp/rq2.cl" 2>"$tmp/err" || bad "reqd_work_group_size(4,2,1): $(cat "$tmp/err")"
expect 2 "kernel two declares reqd_work_group_size(4,2,1): --global needs 2 dimensions, not 1" \
  "reqd_work_group_size of 2 dimensions, --global of 1" "$ventus" run "$tmp/rq2.elf" --kernel two --global 8 --arg buf:u32:1
"$ventus" run -q "$tmp/rq.elf" --kernel sq --global 128 --local 64 --arg buf:u32:128:zero --show 0:6 >"$tmp/out" 2>&1 &&
  grep -q "0 1 4 9 16 25" "$tmp/out" && ok "reqd_work_group_size: the declared --local runs" ||
  bad "reqd_work_group_size with --local 64: $(cat "$tmp/out")"

# work-groups no warp width divides (67 work-items in warps of 32, and 4 in
# warps of --threads 32): exactly the work-items asked for run, each counting
# itself once and adding its local id (sums by hand: 2 groups x 0..66 = 4422;
# 3 groups x 0..3 = 18)
cat >"$tmp/pw.cl" <<'CL'
__kernel void cnt(__global uint *c) {
  atomic_inc(c);
  atomic_add(c + 1, (uint)get_local_id(0));
}
CL
"$ventus" cc -o "$tmp/pw.elf" "$tmp/pw.cl" 2>"$tmp/err" || bad "partial-warp kernel: $(cat "$tmp/err")"
"$ventus" run -q "$tmp/pw.elf" --kernel cnt --global 134 --local 67 --arg buf:u32:2 --show 0 >"$tmp/out" 2>&1 &&
  grep -q "^arg0 u32\[2\]: 134 4422$" "$tmp/out" && ok "67 work-items a group: no phantom lanes" ||
  bad "67 work-items a group: $(cat "$tmp/out")"
"$ventus" run -q "$tmp/pw.elf" --kernel cnt --global 12 --local 4 --threads 32 --arg buf:u32:2 --show 0 >"$tmp/out" 2>&1 &&
  grep -q "^arg0 u32\[2\]: 12 18$" "$tmp/out" && ok "--threads 32 for groups of 4: the last lanes idle" ||
  bad "--threads 32 for groups of 4: $(cat "$tmp/out")"
expect 2 "a work-group of 4 work-items in warps of 32 threads has a partial warp" \
  "--export-testvec refuses a partial warp" "$ventus" run "$tmp/pw.elf" --kernel cnt --global 12 --local 4 \
  --threads 32 --arg buf:u32:2 --export-testvec "$tmp/pwtv"

# printf of half: a half vector (%v4hf, not promoted) as the floats its
# elements widen to, a half scalar promoted; the float vector beside it
cat >"$tmp/ph.cl" <<'CL'
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void ph(__global float *o) {
  half4 h = (half4)((half)1.0f, (half)2.5f, (half)-3.0f, (half)o[3]);
  printf("%v4hf|%v2hlf|%f\n", h, (float2)(1.5f, o[1]), (half)o[2]);
}
CL
"$ventus" cc -o "$tmp/ph.elf" "$tmp/ph.cl" 2>"$tmp/err" || bad "printf of half: $(cat "$tmp/err")"
"$ventus" run -q "$tmp/ph.elf" --kernel ph --global 1 --arg buf:f32:4:iota >"$tmp/out" 2>&1 &&
  [ "$(cat "$tmp/out")" = "1.000000,2.500000,-3.000000,3.000000|1.500000,1.000000|2.000000" ] &&
  ok "printf of a half vector and a half" || bad "printf of half: $(cat "$tmp/out")"

# printf of an unsuffixed floating constant: varargs take it as double, so
# its digits print as written though the kernel names no double (the
# expected text is the shell's own printf)
cat >"$tmp/pd.cl" <<'CL'
__kernel void pd(__global float *o) {
  printf("%-#20.15e|%.16g|%.1f\n", 789456123.0, M_PI, o[1] * 0.5f);
}
CL
"$ventus" cc -o "$tmp/pd.elf" "$tmp/pd.cl" 2>"$tmp/err" || bad "printf of double constants: $(cat "$tmp/err")"
want=$(printf "%-#20.15e|%.16g|%.1f" 789456123.0 3.141592653589793 0.5)
"$ventus" run -q "$tmp/pd.elf" --kernel pd --global 1 --arg buf:f32:2:iota >"$tmp/out" 2>&1 &&
  [ "$(cat "$tmp/out")" = "$want" ] && ok "printf of double constants in a float kernel" ||
  bad "printf of double constants: '$(cat "$tmp/out")', not '$want'"

# half on an ISA revision 2025 device: the vector unit's SEW-16 float
# instructions (each in its own e16 stretch), none on the baseline, which
# computes half in float (test_cc_half_2025 checks the results)
cat >"$tmp/h25.cl" <<'CL'
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void h(__global half *a, __global float *f, __global int *c) {
  int i = get_global_id(0);
  half x = a[2 * i], y = a[2 * i + 1];
  a[2 * i] = fma(x + y, x * y, x / y) - sqrt(x);
  a[2 * i + 1] = fmin(x, y) + (half)f[i];
  f[i] = (float)fmax(x, y);
  c[i] = (x < y) + (x <= y) + (x == y);
}
CL
"$ventus" cc --isa 2025 -S -o "$tmp/h25.s" "$tmp/h25.cl" 2>"$tmp/err" || bad "half for revision 2025: $(cat "$tmp/err")"
"$ventus" cc -S -o "$tmp/h0.s" "$tmp/h25.cl" 2>"$tmp/err" || bad "half for the baseline: $(cat "$tmp/err")"
miss=""
for insn in vfadd.vv vfsub.vv vfmul.vv vfdiv.vv vfsqrt.v vfmacc.vv vfmin.vv vfmax.vv vmflt.vv vmfle.vv vmfeq.vv \
  vfwcvt.f.f.v vfncvt.f.f.w; do
  grep -q "	$insn \| $insn " "$tmp/h25.s" || miss="$miss $insn"
done
n16=$(grep -c "vsetvli zero, zero, e16, m1, ta, ma" "$tmp/h25.s")
n32=$(grep -c "vsetvli zero, zero, e32, m1, ta, ma" "$tmp/h25.s")
[ -z "$miss" ] && [ "$n16" -ge 13 ] && [ "$n16" = "$n32" ] && ! grep -q "e16" "$tmp/h0.s" &&
  ok "half on revision 2025: SEW-16 float instructions ($n16 stretches)" ||
  bad "half on revision 2025: missing$miss; $n16 e16 and $n32 e32 vsetvli; baseline e16: $(grep -c e16 "$tmp/h0.s")"

# work-item functions: one computation per function and dimension, wherever
# the kernel calls them (cc_lower_workitem.c), and the values still right
cat >"$tmp/wi.cl" <<'CL'
__kernel void ids(__global int *out, int n) {
  int x = get_global_id(0), y = get_global_id(1);
  int v = get_local_id(0) + 100 * get_local_id(1);
  if (get_local_id(0) & 1)
    v += 10000 * (get_global_id(0) + get_global_id(1));
  for (int i = 0; i < n; i++)
    v += get_local_id(1) * (int)get_local_size(0);
  out[y * get_global_size(0) + x] = v;
}
CL
"$ventus" cc -S -o "$tmp/wi.s" "$tmp/wi.cl" 2>"$tmp/err" || bad "work-item kernel: $(cat "$tmp/err")"
nrem=$(grep -c "vremu\|vdivu" "$tmp/wi.s") nknl=$(grep -c "csrr .*knl" "$tmp/wi.s") ntid=$(grep -c "csrr .*tid" "$tmp/wi.s")
# local id 0 = l % lsx; local id 1 = (l % (lsx * lsy)) / lsx: three divisions in all
[ "$nrem" = 3 ] && [ "$nknl" = 1 ] && [ "$ntid" = 1 ] && ok "work-item functions computed once each" ||
  bad "work-item functions: $nrem vremu/vdivu (want 3), $nknl csrr knl, $ntid csrr tid (want 1 each)"
want="arg0 i32[32]:"
for y in 0 1 2 3; do for x in 0 1 2 3 4 5 6 7; do
  lx=$((x % 4)) ly=$((y % 2)); v=$((lx + 100 * ly))
  [ $((lx & 1)) = 1 ] && v=$((v + 10000 * (x + y)))
  want="$want $((v + 3 * ly * 4))"
done; done
"$ventus" cc -o "$tmp/wi.elf" "$tmp/wi.cl" && "$ventus" run "$tmp/wi.elf" --kernel ids --global 8,4 --local 4,2 \
  --arg buf:i32:32 --arg i32:3 --show 0:0 --quiet >"$tmp/out" 2>&1 && [ "$(cat "$tmp/out")" = "$want" ] &&
  ok "work-item values in branches and loops (8x4 in 4x2 groups)" || bad "work-item values: $(cat "$tmp/out"), want $want"

# neighbours in a __local tile: tile[ly][lx + 1], tile[ly + 2][lx + 1], ...
# are one address (computed before the barrier) plus constants
# (cc_lower_addr.c), which the loads take as their immediates: after the
# barrier five vlw12.v off one register, each with its own offset; the
# values by hand (cells past the tile hold -1)
cat >"$tmp/nb.cl" <<'CL'
__kernel void nb(__global const int *in, __global int *out) {
  __local int t[6][10];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  t[ly + 1][lx + 1] = in[y * w + x];
  if (lx == 0) t[ly + 1][0] = -1;
  if (lx == 7) t[ly + 1][9] = -1;
  if (ly == 0) t[0][lx + 1] = -1;
  if (ly == 3) t[5][lx + 1] = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[y * w + x] = t[ly][lx + 1] + 10 * t[ly + 2][lx + 1] + 100 * t[ly + 1][lx] + 1000 * t[ly + 1][lx + 2] +
                   10000 * t[ly + 1][lx + 1];
}
CL
"$ventus" cc -S -o "$tmp/nb.s" "$tmp/nb.cl" 2>"$tmp/err" || bad "neighbour kernel: $(cat "$tmp/err")"
sed -n '/barrier/,/ret/p' "$tmp/nb.s" >"$tmp/nb.after"
loads=$(grep -c "vlw12.v" "$tmp/nb.after") bases=$(grep "vlw12.v" "$tmp/nb.after" | sed 's/.*(\(.*\))/\1/' | sort -u | wc -l)
offs=$(grep "vlw12.v" "$tmp/nb.after" | sed 's/.*, \(-*[0-9]*\)(.*/\1/' | grep -v '^0$' | sort -u | wc -l)
[ "$loads" = 5 ] && [ "$bases" = 1 ] && [ "$offs" = 5 ] &&
  ok "__local neighbours: five loads off one register with immediate offsets" ||
  bad "__local neighbours after the barrier: $loads loads, $bases base registers, $offs distinct offsets: $(tr '\n' ';' <"$tmp/nb.after")"
want="arg1 i32[32]:"
cell() { if [ "$1" -lt 0 ] || [ "$1" -gt 7 ] || [ "$2" -lt 0 ] || [ "$2" -gt 3 ]; then echo -1; else echo $(($2 * 8 + $1)); fi; }
for y in 0 1 2 3; do for x in 0 1 2 3 4 5 6 7; do
  want="$want $(($(cell $x $((y - 1))) + 10 * $(cell $x $((y + 1))) + 100 * $(cell $((x - 1)) $y) + 1000 * $(cell $((x + 1)) $y) + 10000 * $(cell $x $y)))"
done; done
"$ventus" cc -o "$tmp/nb.elf" "$tmp/nb.cl" && "$ventus" run "$tmp/nb.elf" --kernel nb --global 8,4 --local 8,4 \
  --arg buf:i32:32:iota --arg buf:i32:32 --show 1:0 --quiet >"$tmp/out" 2>&1 && [ "$(cat "$tmp/out")" = "$want" ] &&
  ok "__local neighbour values (8x4, halo -1)" || bad "__local neighbour values: $(cat "$tmp/out"), want $want"

# the machine-code rewrites of cc_peephole.c: a loop's constants (the splat
# its SIMT branch compares with) made once at the start, zero and the
# __local base read as x0 and s0, no branch over a jump to the next block
# (the branch is inverted), no jump to a block that only jumps; the values
# by hand
cat >"$tmp/pq.cl" <<'CL'
__kernel void pq(__global int *out, int n) {
  __local int t[32];
  int l = get_local_id(0), acc = 0;
  t[l] = 0;
  for (int i = 0; i < n; i++) {
    if (((l + i) & 7) > 4) acc += max(l - i, 0);
    else acc += 3;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  t[31 - l] += acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[31 - l];
}
CL
"$ventus" cc -S -o "$tmp/pq.s" "$tmp/pq.cl" 2>"$tmp/err" || bad "peephole kernel: $(cat "$tmp/err")"
# the splat of 4 the SIMT branch compares with: once, in the first block
k4=$(grep -c "vmv.v.i v[0-9]*, 4$" "$tmp/pq.s") k4first=$(sed -n '/^\.Lpq_0:/,/^\.Lpq_1:/p' "$tmp/pq.s" | grep -c "vmv.v.i v[0-9]*, 4$")
zeros=$(grep -c "addi x[0-9]*, s0, 0$" "$tmp/pq.s") xzero=$(grep -c "v[a-z.]* v[0-9]*, v[0-9]*, zero$" "$tmp/pq.s")
xs0=$(grep -c "v[a-z.]* v[0-9]*, v[0-9]*, s0$" "$tmp/pq.s")
over=$(awk '/^ *v?b[a-z]* .*\.L/ {t=$NF; getline; if ($1 == "j") { getline; if ($1 == t ":") n++ } } END {print n + 0}' "$tmp/pq.s")
# jumps to a block that only jumps: the bitonic sort's nested loops leave through such blocks
"$ventus" cc -S -o "$tmp/bs.s" "$src/bench/opencl/bitonic_sort.cl" 2>"$tmp/err" || bad "bitonic sort: $(cat "$tmp/err")"
chain=$(awk 'NR == FNR { if ($0 ~ /^\.L.*:$/) { if (st == 2) only[lab] = 1; lab = substr($1, 1, length($1) - 1); st = 1 }
                         else if (st == 1 && $1 == "j") st = 2; else st = 0; next }
             ($1 ~ /^v?b/ || $1 == "j") && ($NF in only) { n++ } END { print n + 0 }' "$tmp/bs.s" "$tmp/bs.s")
[ "$k4" = 1 ] && [ "$k4first" = 1 ] && [ "$zeros" = 0 ] && [ "$xzero" -ge 1 ] && [ "$xs0" -ge 1 ] && [ "$over" = 0 ] &&
  [ "$chain" = 0 ] &&
  ok "machine-code rewrites: constants at the start, x0 and s0 as operands, inverted branches" ||
  bad "machine-code rewrites: $k4 splats of 4 ($k4first in the first block), $zeros copies of s0, $xzero and $xs0 uses of x0 and s0 by a vector op, $over branches over a jump to the next block, $chain jumps to a jump: $(tr '\n' ';' <"$tmp/pq.s")"
want="arg0 i32[64]:"
for g in $(seq 0 63); do
  l=$((g % 32)) acc=0
  for i in 0 1 2 3 4 5 6 7 8 9 10; do
    if [ $(((l + i) & 7)) -gt 4 ]; then d=$((l - i)); [ $d -lt 0 ] && d=0; acc=$((acc + d)); else acc=$((acc + 3)); fi
  done
  want="$want $acc"
done
"$ventus" cc -o "$tmp/pq.elf" "$tmp/pq.cl" && "$ventus" run "$tmp/pq.elf" --kernel pq --global 64 --local 32 \
  --arg buf:i32:64 --arg i32:11 --show 0:0 --quiet >"$tmp/out" 2>&1 && [ "$(cat "$tmp/out")" = "$want" ] &&
  ok "machine-code rewrites keep the values (64 items, 11 iterations)" || bad "peephole kernel values: $(cat "$tmp/out"), want $want"
# the reconvergence pc set once where nothing changes it (cc_rpc_once): the
# bitonic sort's step loop sets it once, before its loops; but the two sides
# of a SIMT branch run one after the other, so where one side calls a
# function (which sets its own), the other side's nested branch keeps its
# setrpc: the side with fewer lanes (here the calls) runs first; the values
# by hand
nrpc=$(grep -c "setrpc" "$tmp/bs.s")
cat >"$tmp/rq.cl" <<'CL'
__attribute__((noinline)) int g(int x) { /* Collatz steps: a loop with a divergent exit */
  int n = 0;
  while (x > 1) {
    x = (x & 1) ? 3 * x + 1 : x >> 1;
    n++;
  }
  return n;
}
__kernel void rq(__global int *out) {
  int l = get_local_id(0), v;
  if (l < 8) {
    v = g(l) + g(l + 1);
  } else {
    if (l & 2) v = 100 + l;
    else v = 200 + l;
  }
  out[get_global_id(0)] = v;
}
CL
g() { local x=$1 n=0; while [ "$x" -gt 1 ]; do if [ $((x & 1)) = 1 ]; then x=$((3 * x + 1)); else x=$((x >> 1)); fi; n=$((n + 1)); done; echo $n; }
want="arg0 i32[64]:"
for i in $(seq 0 63); do
  l=$((i % 32))
  if [ $l -lt 8 ]; then want="$want $(($(g $l) + $(g $((l + 1)))))"
  elif [ $((l & 2)) != 0 ]; then want="$want $((100 + l))"; else want="$want $((200 + l))"; fi
done
"$ventus" cc -o "$tmp/rq.elf" "$tmp/rq.cl" 2>"$tmp/err" && "$ventus" run "$tmp/rq.elf" --kernel rq --global 64 --local 32 \
  --arg buf:i32:64 --show 0:0 --quiet >"$tmp/out" 2>&1 && [ "$(cat "$tmp/out")" = "$want" ] && [ "$nrpc" = 1 ] &&
  ok "the reconvergence pc: once for the bitonic sort's loops, again after a call on the other side" ||
  bad "reconvergence pc: $nrpc setrpc in the bitonic sort (want 1); values $(cat "$tmp/out" "$tmp/err"), want $want"

# a SIMT branch around stores with nothing on the other side: inverted to go
# straight to the join, no jump left; its condition, two booleans that
# differ (an xor of them), is the branch itself; the values by hand (a[k] =
# k, so a pair is swapped where i & 2)
cat >"$tmp/sw.cl" <<'CL'
__kernel void sw(__global int *a, int s) {
  int i = get_global_id(0);
  int p = a[2 * i], q = a[2 * i + 1];
  if ((p > q) == ((i & s) == 0)) {
    a[2 * i] = q;
    a[2 * i + 1] = p;
  }
}
CL
"$ventus" cc -S -o "$tmp/sw.s" "$tmp/sw.cl" 2>"$tmp/err" || bad "swap kernel: $(cat "$tmp/err")"
want="arg0 i32[64]:"
for i in $(seq 0 31); do
  if [ $((i & 2)) != 0 ]; then want="$want $((2 * i + 1)) $((2 * i))"; else want="$want $((2 * i)) $((2 * i + 1))"; fi
done
"$ventus" cc -o "$tmp/sw.elf" "$tmp/sw.cl" && "$ventus" run "$tmp/sw.elf" --kernel sw --global 32 --local 32 \
  --arg buf:i32:64:iota --arg i32:2 --show 0:0 --quiet >"$tmp/out" 2>&1 && [ "$(cat "$tmp/out")" = "$want" ] &&
  ! grep -q "^ *j \|vxor\|vmv.v.i" "$tmp/sw.s" && grep -q "^ *vbeq v[0-9]*, v[0-9]*, \.Lsw_[0-9]*$" "$tmp/sw.s" &&
  ok "a SIMT branch over a jump inverted, on two booleans directly, values kept" ||
  bad "swap kernel: $(cat "$tmp/out"), want $want; code: $(sed -n '/^sw:/,/Lcc_end/p' "$tmp/sw.s" | tr '\n' ';')"

# the start-up code sets up only what the program reads (cc_module.c
# start_needs): the swap kernel (above) names no sp, s0 or tp and has no fp
# instruction, so its _start reads no wid/lds/numw and leaves mstatus,
# sp, s0 and tp alone; the reconvergence kernel above calls a function (sp
# for ra) and keeps the warp stack; a kernel with fp, __local data and a
# private array and no call keeps mstatus.FS, s0 and tp but not sp; each
# runs right
startup() { "$ventus" objdump "$1" | sed -n '/<_start>:/,/^$/p'; }
cat >"$tmp/sn.cl" <<'CL'
__kernel void sn(__global int *o, int k) {
  __local float t[32];
  float p[8];
  int l = get_local_id(0);
  for (int i = 0; i < 8; i++) p[i] = (float)(l * i);
  t[l] = p[k & 7] * 0.5f;
  barrier(CLK_LOCAL_MEM_FENCE);
  o[get_global_id(0)] = (int)(t[31 - l] * 2.0f);
}
CL
want="arg0 i32[32]:"
for i in $(seq 0 31); do want="$want $(((31 - i) * 5))"; done
"$ventus" cc -o "$tmp/sn.elf" "$tmp/sn.cl" 2>"$tmp/err" && "$ventus" run "$tmp/sn.elf" --kernel sn --global 32 --local 32 \
  --arg buf:i32:32 --arg i32:13 --show 0:0 --quiet >"$tmp/out" 2>&1 || bad "start-up kernel: $(cat "$tmp/out" "$tmp/err")"
"$ventus" cc -o "$tmp/sw0.elf" "$tmp/sw.cl" 2>/dev/null
full=$(startup "$tmp/sn.elf" | grep -c "mstatus\|add s0\|li tp") nosp=$(startup "$tmp/sn.elf" | grep -c "add sp\|wid")
bare=$(startup "$tmp/sw0.elf" | grep -c "mstatus\|wid\|lds\|numw\|sp\|s0\|tp")
stack=$(startup "$tmp/rq.elf" | grep -c "add sp")
[ "$full" = 3 ] && [ "$nosp" = 0 ] && [ "$bare" = 0 ] && [ "$stack" = 1 ] && [ "$(cat "$tmp/out")" = "$want" ] &&
  ok "the start-up code sets up what the program reads: FS, s0 and tp; nothing; the warp stack" ||
  bad "start-up: $full of mstatus/s0/tp and $nosp of sp with fp, local and private data (want 3, 0), $bare with none (want 0), $stack sp with a call (want 1); values $(cat "$tmp/out"), want $want"


# compares against constants and selects with a 0 side: vmseq.vi/vmsne.vi,
# slt/sltu and branches against x0 instead of a register loaded with 0, and a
# select of (c ? k : 0) as k & -c (cc_isel.c); every result by hand for a
# negative, zero and positive n
cat >"$tmp/c0.cl" <<'CL'
__kernel void cmp0(__global int *out, int n) {
  int i = get_global_id(0), a = i - 4;
  int r = (a == 0) | (a != 0) << 1 | (a == -3) << 2 | (a != 2) << 3;
  int s = (n < 0) | (n <= 0) << 1 | (n > 0) << 2 | (n >= 0) << 3 | (n == 0) << 4 | (n != 0) << 5 |
          ((uint)n > 0u) << 6 | ((uint)n <= 0u) << 7;
  out[i] = r | s << 4;
  if (n < 0) out[8 + i] = 1;
  if (n > 0) out[16 + i] = 2;
  if (n == 0) out[24 + i] = 3;
  if (n != 0) out[32 + i] = 4;
}
CL
"$ventus" cc -S -o "$tmp/c0.s" "$tmp/c0.cl" 2>"$tmp/err" || bad "compare kernel: $(cat "$tmp/err")"
nvi=$(grep -c "vms\(eq\|ne\)\.vi" "$tmp/c0.s") nz=$(grep -c "slt[u]* x[0-9]*, \(zero, x[0-9]*\|x[0-9]*, zero\)$" "$tmp/c0.s")
nmv=$(grep -c "mv x[0-9]*, zero" "$tmp/c0.s")
[ "$nvi" -ge 3 ] && [ "$nz" -ge 2 ] && [ "$nmv" = 0 ] && ok "compares against constants: .vi forms and x0" ||
  bad "compares against constants: $nvi vmseq/vmsne.vi (want 3), $nz slt against zero (want 2), $nmv mv of zero (want 0)"
"$ventus" cc -o "$tmp/c0.elf" "$tmp/c0.cl" || bad "compare kernel does not compile"
for n in -5 0 7; do
  s=0
  [ "$n" -lt 0 ] && s=$((s | 1)); [ "$n" -le 0 ] && s=$((s | 2)); [ "$n" -gt 0 ] && s=$((s | 4))
  [ "$n" -ge 0 ] && s=$((s | 8)); [ "$n" = 0 ] && s=$((s | 16)); [ "$n" != 0 ] && s=$((s | 32))
  [ "$n" != 0 ] && s=$((s | 64)); [ "$n" = 0 ] && s=$((s | 128)) # unsigned: n > 0u, n <= 0u
  want="arg0 i32[40]:"
  for i in 0 1 2 3 4 5 6 7; do
    a=$((i - 4)) r=0
    [ $a = 0 ] && r=$((r | 1)); [ $a != 0 ] && r=$((r | 2)); [ $a = -3 ] && r=$((r | 4)); [ $a != 2 ] && r=$((r | 8))
    want="$want $((r | s << 4))"
  done
  for k in 1 2 3 4; do
    v=0
    case $k in 1) [ "$n" -lt 0 ] && v=1 ;; 2) [ "$n" -gt 0 ] && v=2 ;; 3) [ "$n" = 0 ] && v=3 ;; 4) [ "$n" != 0 ] && v=4 ;; esac
    for i in 0 1 2 3 4 5 6 7; do want="$want $v"; done
  done
  "$ventus" run "$tmp/c0.elf" --kernel cmp0 --global 8 --local 8 --arg buf:i32:40 --arg i32:$n --show 0:0 --quiet \
    >"$tmp/out" 2>&1 && [ "$(cat "$tmp/out")" = "$want" ] && ok "compare values, n = $n" ||
    bad "compare values, n = $n: $(cat "$tmp/out"), want $want"
done

# the compiler module is loaded on first use: a wrong module is one input error
ldd "$ventus" 2>/dev/null | grep -q libasan ||
  CHENGYING_CC_MODULE="$tmp/no-such-module.so" expect 4 "cannot load the OpenCL C compiler module" \
  "a compiler module that does not load" "$ventus" cc -o "$tmp/m.elf" "$tmp/two.cl"
# and nothing else loads LLVM
if command -v ldd >/dev/null && ! ldd "$ventus" | grep -q libasan; then # (the sanitizer build links it in)
  if ldd "$ventus" | grep -q libLLVM; then bad "ventus links libLLVM"; else ok "ventus does not link libLLVM"; fi
fi

exit $fail
