#!/usr/bin/env bash
# Upstream test vectors through `ventus run --export-testvec` and back: for
# every case of ../shared/corpora (verilog-tc, one or several launches, and
# the 16- to 64-work-group rtlsim-multiwg launches), the first exported
# launch holds the original's buffers (the same base, size and allocation
# triples) with the same memory image and the same fixed metadata fields;
# the exported directory runs to the expected result words and to the same
# memory as the original; its later launches carry only what changed.
#   usage: bash test_run_export_testvec_corpus.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@"
corp=$src/../shared/corpora
[ -d "$corp" ] || { echo "SKIP: ../shared/corpora not found"; exit 0; }

cat >"$tmp/img.pl" <<'EOF'
# the memory image of a launch: "0xADDR 0xWORD" per .data word
sub rd { open my $f, '<', $_[0] or die "$_[0]: $!"; map { hex } grep { /\S/ } <$f> }
my @m = rd("$ARGV[0].metadata"); my @d = rd("$ARGV[0].data");
my ($n, $k) = ($m[26], 0);
for my $i (0 .. $n - 1) {
  my ($b, $s) = ($m[28 + 2 * $i], $m[28 + 2 * ($n + $i)]);
  for (my $o = 0; $o < $s; $o += 4) { printf "0x%08x 0x%08x\n", $b + $o, $d[$k++] }
}
EOF
cat >"$tmp/bufs.pl" <<'EOF'
# the buffers of a .metadata: "base size alloc" per line
open my $f, '<', $ARGV[0] or die "$ARGV[0]: $!"; my @m = map { hex } grep { /\S/ } <$f>;
my $n = $m[26];
printf "0x%08x 0x%x 0x%x\n", $m[28 + 2 * $_], $m[28 + 2 * ($n + $_)], $m[28 + 2 * (2 * $n + $_)] for 0 .. $n - 1;
EOF

# roundtrip NAME INPUT DIR FIRST_STEM EXPECTED (options of every run: the array cfg)
roundtrip() {
  local name=$1 input=$2 dir=$3 first=$4 expect=$5 out=$tmp/out
  rm -rf "$out"
  if ! "$ventus" run "${cfg[@]}" "$input" --dump "$tmp/orig.dump" --export-testvec "$out" --quiet 2>"$tmp/err"; then
    bad "$name: ventus run --export-testvec failed: $(head -n 3 "$tmp/err")"
    return
  fi
  local what=""
  head -n 28 "$dir/$first.metadata" | cmp -s - <(head -n 28 "$out/$first.metadata") || what="$what fixed-fields"
  cmp -s <(perl "$tmp/bufs.pl" "$dir/$first.metadata" | sort) <(perl "$tmp/bufs.pl" "$out/$first.metadata" | sort) ||
    what="$what buffers"
  perl "$tmp/img.pl" "$dir/$first" | sort >"$tmp/img.orig"
  perl "$tmp/img.pl" "$out/$first" | sort >"$tmp/img.out"
  cmp -s "$tmp/img.orig" "$tmp/img.out" || what="$what image"
  [ -z "$what" ] && ok "$name: $first exported with the original's buffers and $(wc -l <"$tmp/img.out") words" ||
    bad "$name: $first differs from the original in:$what"
  if "$ventus" run "${cfg[@]}" "$out" --expect "$expect" --dump "$tmp/out.dump" --quiet 2>"$tmp/err"; then
    ok "$name: the export runs to the $(wc -l <"$expect") expected words"
  else
    bad "$name: the export against ${expect##*/}: $(head -n 3 "$tmp/err")"
  fi
  # later launches: a subset of the original's buffers each, so the whole
  # memory compared (every word a launch of either side described)
  if cmp -s <(sort -u "$tmp/orig.dump") <(sort -u "$tmp/out.dump"); then
    ok "$name: the export ends with the original's memory ($(sort -u "$tmp/out.dump" | wc -l) words)"
  else
    bad "$name: the export ends with other memory than the original"
  fi
  rm -rf "$tmp/again"
  "$ventus" run "${cfg[@]}" "$out" --export-testvec "$tmp/again" --quiet 2>/dev/null && diff -r "$out" "$tmp/again" >/dev/null &&
    ok "$name: exporting the export gives the same files" || bad "$name: the export of the export differs"
}

n=0
cfg=()
for d in "$corp"/verilog-tc/*/*/; do
  d=${d%/}
  [ -f "$d/kernels.txt" ] && [ -f "$d/expected_spike.txt" ] || continue
  first=$(grep -v '^#' "$d/kernels.txt" | grep -m 1 .)
  roundtrip "verilog-tc/${d#"$corp"/verilog-tc/}" "$d" "$d" "$first" "$d/expected_spike.txt"
  n=$((n + 1))
done
for m in "$corp"/rtlsim-multiwg/*/*.metadata; do
  stem=${m%.metadata}
  [ -f "$stem.expected.txt" ] || continue
  # <N>b<W>w<T>t: a group of W warps needs W warp slots per SM
  w=$(echo "${stem##*/}" | sed -n 's/.*_[0-9]*b\([0-9]*\)w[0-9]*t$/\1/p')
  cfg=(-c "warps_per_sm=$(( ${w:-8} > 8 ? ${w:-8} : 8 ))")
  roundtrip "rtlsim-multiwg/${stem#"$corp"/rtlsim-multiwg/}" "$m" "$(dirname "$m")" "${stem##*/}" "$stem.expected.txt"
  n=$((n + 1))
done
[ $n -gt 0 ] && ok "$n corpus cases exported and run again" || bad "no corpus case found under $corp"

# a multi-launch case: later launches only the words that changed
d=$corp/verilog-tc/bfs/4x8
if [ -d "$d" ]; then
  rm -rf "$tmp/bfs" && "$ventus" run "$d" --export-testvec "$tmp/bfs" --quiet
  [ "$(grep -v '^#' "$tmp/bfs/kernels.txt")" = "$(grep -v '^#' "$d/kernels.txt")" ] &&
    ok "bfs/4x8: kernels.txt lists the original's 8 launches in order" || bad "bfs/4x8: kernels.txt differs"
  # BFS_1_1: its argument block's first 5 words and the kernel block's
  # entry word changed, nothing else (code and private memory known)
  got=$(perl "$tmp/bufs.pl" "$tmp/bfs/BFS_1_1.metadata" | tr '\n' ' ')
  [ "$got" = "0x90007000 0x14 0x14 0x90028000 0x4 0x4 " ] && ok "bfs/4x8: BFS_1_1 carries only $got" ||
    bad "bfs/4x8: BFS_1_1 carries $got"
fi
exit $fail
