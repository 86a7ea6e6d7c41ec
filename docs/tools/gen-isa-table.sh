#!/usr/bin/env bash
# Prints the instruction list of docs/isa.md (markdown), grouped by the
# sections of src/isa/insns.def. Encodings are deliberately left out: they
# live in insns.def only. From the repository root:
#     bash docs/tools/gen-isa-table.sh > /tmp/table.md
set -euo pipefail
def=${1:-src/isa/insns.def}
{
  echo '#define INSN(id, mn, match, mask, syn, unit, flags) @ROW@ mn @SEP@ syn @SEP@ unit'
  cat "$def"
} | cpp -P -C -undef -ffreestanding - | awk '
  /\/\* ---- / {
    t = $0; sub(/.*\/\* ---- /, "", t); sub(/ *-* *\*\/.*/, "", t)
    if (n++) print ""
    printf "**%s**\n\n| mnemonic | operands | unit |\n|---|---|---|\n", t
    next
  }
  /@ROW@/ {
    k = split($0, rows, /@ROW@/)
    for (r = 2; r <= k; r++) {
      row = rows[r]
      gsub(/" *"/, "", row); gsub(/"/, "", row)
      split(row, f, /@SEP@/)
      for (i = 1; i <= 3; i++) gsub(/^ +| +$/, "", f[i])
      printf "| `%s` | `%s` | %s |\n", f[1], f[2], f[3]
    }
  }'
