# The common start of the CLI tests (not a test itself): source it right
# after `set -u` with the test's own arguments,
#   . "$(dirname "$0")/lib.sh" "$@"
# It sets ventus (the binary, $1), src (the source tree, $2), tmp (a scratch
# directory removed on exit) and fail=0, and defines ok/bad below.
ventus=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

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
