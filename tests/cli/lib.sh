# The common start of the CLI tests (not a test itself): source it right
# after `set -u` with the test's own arguments,
#   . "$(dirname "$0")/lib.sh" "$@"
# It sets ventus (the binary, $1), ventus_bin (also $1, never wrapped), src
# (the source tree, $2), tmp (a scratch directory removed on exit) and
# fail=0, and defines ok/bad and under_valgrind below.
ventus=$1
ventus_bin=$1
src=$2
tmp=$(mktemp -d)
fail=0

# The tests' valgrind copies (CMakeLists.txt, VT_VALGRIND_TESTS) set
# VT_VALGRIND to the valgrind command line: then every "$ventus" call, and
# every program run as `under_valgrind PROGRAM ARGS...`, runs under it with
# its report in $tmp/valgrind.PID.log (not on stderr, which the tests
# check); a non-empty report fails the test and is printed at exit.
under_valgrind() { "$@"; }
if [ -n "${VT_VALGRIND:-}" ]; then
  # (the report goes to fd 9, not --log-file: a test that closes stdout
  # would have that file opened as the program's fd 1)
  printf '#!/bin/sh\nexec %s --log-fd=9 "$@" 9>>"%s/valgrind.$$.log"\n' "$VT_VALGRIND" "$tmp" >"$tmp/valgrind"
  printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$tmp/valgrind" "$ventus_bin" >"$tmp/ventus"
  chmod +x "$tmp/valgrind" "$tmp/ventus"
  ventus=$tmp/ventus
  under_valgrind() { "$tmp/valgrind" "$@"; }
fi
cli_exit() {
  local rc=$? log
  for log in "$tmp"/valgrind.*.log; do
    [ -s "$log" ] || continue
    echo "FAIL valgrind report:"
    sed 's/^/  | /' "$log"
    rc=1
  done
  rm -rf "$tmp"
  exit "$rc"
}
trap cli_exit EXIT

# ok WHAT / bad WHAT: one result line; bad also sets fail=1.
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

# assemble_example NAME ELF: start.S + workitem.S + kernels/examples/NAME.S
# into ELF; when that fails, says so with the assembler's messages and ends
# the test with status 1.
assemble_example() {
  if ! "$ventus" as -o "$2" "$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S" \
      "$src/kernels/examples/$1.S" 2>"$tmp/err"; then
    echo "FAIL assembling $1.S"
    cat "$tmp/err"
    exit 1
  fi
}

# build_kernel NAME FILE: start.S + workitem.S + FILE into $tmp/NAME.elf;
# when that fails, one FAIL line and status 1 (the test goes on).
build_kernel() {
  "$ventus" as -o "$tmp/$1.elf" "$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S" "$2" 2>"$tmp/as" ||
    { bad "$1 assembles: $(head -1 "$tmp/as")"; return 1; }
}

# expect STATUS TEXT WHAT COMMAND...: runs COMMAND; ok when it exits with
# STATUS and prints at most one stderr line, containing TEXT if not empty.
# Its output stays in $tmp/out and $tmp/err for further checks.
expect() {
  local want=$1 msg=$2 what=$3
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" = "$want" ] && { [ -z "$msg" ] || grep -qF -- "$msg" "$tmp/err"; } &&
    [ "$(wc -l <"$tmp/err")" -le 1 ]; then
    ok "$what"
  else
    bad "$what: exit $got (expected $want): $(head -2 "$tmp/err" | cat -v)"
  fi
}
