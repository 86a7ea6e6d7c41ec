#!/usr/bin/env bash
# Output files never remove what we did not create: a failed write through a
# symlink (here to /dev/full) leaves the symlink and the device alone; a
# symlink to a regular file is written through; a regular file is replaced
# only by a complete output.
#   usage: bash test_outfile_safety.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
elf=$tmp/vecadd.elf
assemble_example vecadd "$elf"
A=(--kernel vecadd --arg buf:u32:8:iota --arg buf:u32:8:fill=1 --arg buf:u32:8 --arg u32:8 -q)

if [ ! -c /dev/full ]; then
  echo "SKIP: /dev/full is not a character device"
  exit 0
fi
ln -s /dev/full "$tmp/full"
"$ventus" run "$elf" "${A[@]}" --dump "$tmp/full" 2>"$tmp/err"
rc=$?
if [ $rc = 4 ] && [ -L "$tmp/full" ] && [ -c /dev/full ] && grep -q "full: write error" "$tmp/err"; then
  ok "run --dump to a symlink to /dev/full: exit 4, the symlink and /dev/full survive"
else
  bad "run --dump to a symlink to /dev/full: exit $rc, symlink $([ -L "$tmp/full" ] && echo kept || echo GONE): $(cat "$tmp/err")"
fi
"$ventus" as -o "$tmp/full" "$src/kernels/lib/start.S" 2>"$tmp/err"
rc=$?
if [ $rc != 0 ] && [ -L "$tmp/full" ] && [ -c /dev/full ]; then
  ok "as -o a symlink to /dev/full: exit $rc, the symlink and /dev/full survive"
else
  bad "as -o a symlink to /dev/full: exit $rc, symlink $([ -L "$tmp/full" ] && echo kept || echo GONE)"
fi

# a symlink to a regular file: written through, the link stays a link
echo old >"$tmp/target"
ln -s target "$tmp/link"
if "$ventus" run "$elf" "${A[@]}" --dump "$tmp/link" && [ -L "$tmp/link" ] &&
  [ "$(head -1 "$tmp/target")" = "0x90000000 0x00000000" ] && [ "$(wc -l <"$tmp/target")" = 24 ]; then
  ok "run --dump through a symlink writes its target"
else
  bad "run --dump through a symlink: $(ls -l "$tmp/link") $(head -1 "$tmp/target")"
fi

# a regular file: replaced whole, permissions kept, no temporary file left
echo old >"$tmp/dump.txt"
chmod 600 "$tmp/dump.txt"
if "$ventus" run "$elf" "${A[@]}" --dump "$tmp/dump.txt" && [ "$(wc -l <"$tmp/dump.txt")" = 24 ] &&
  [ "$(stat -c %a "$tmp/dump.txt")" = 600 ] && [ "$(ls -A "$tmp" | grep -c '\.tmp$')" = 0 ]; then
  ok "run --dump replaces a regular file, keeps its mode, leaves no temporary file"
else
  bad "run --dump over a regular file: $(ls -lA "$tmp")"
fi
# a file with a second hard link: written in place, so both names see the dump
echo old >"$tmp/linked.txt"
ln "$tmp/linked.txt" "$tmp/other.txt"
if "$ventus" run "$elf" "${A[@]}" --dump "$tmp/linked.txt" && [ "$(wc -l <"$tmp/other.txt")" = 24 ]; then
  ok "run --dump over a hard-linked file writes the shared file"
else
  bad "run --dump over a hard-linked file: the other name has $(wc -l <"$tmp/other.txt") lines"
fi
exit $fail
