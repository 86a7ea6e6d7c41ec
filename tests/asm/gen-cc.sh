#!/usr/bin/env bash
# Regenerates the compiler-output test inputs cc_*.s from cc_*.c / cc_*.cl with
# stock clang-19 (Debian package clang-19). The .s files are committed so that
# the test (tests/cli/test_as_gnu.sh) needs only llvm-mc-19.
set -eu
cd "$(dirname "$0")"
m="--target=riscv32 -march=rv32ima_zfinx_zve32x -mabi=ilp32 -O2 -S -ffreestanding -nostdlib"
# Ventus has no vector reductions (vredsum.vs): the scalar file is not vectorised
clang-19 $m -fno-vectorize -fno-slp-vectorize cc_loops.c -o cc_loops.s
clang-19 $m cc_vec.c -o cc_vec.s
clang-19 $m -x cl -cl-std=CL1.2 cc_kern.cl -o cc_kern.s
