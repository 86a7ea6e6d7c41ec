#!/usr/bin/env python3
# Large OpenCL C kernels for the compiler's time and size bounds (issue 22
# item 4; docs/robustness.md). Each kernel takes `global int *a`, reads a[1]
# (and a[2]) and writes a[0]; `expect KIND N X` prints the a[0] it must give
# for a[1] = X, computed here in Python, independently of the compiler.
#   gen-large.py switch N     one switch of N cases on a[1]
#   gen-large.py dswitch N    a per-lane switch of N cases: a[i] from a[i]
#                             (run with a[] all X, a[0] is as for switch)
#   gen-large.py straight N   N dependent statements in one block
#   gen-large.py nest D       D nested loops of 2 trips each, a counter inside
#   gen-large.py init N       a __constant table of N ints, indexed by a[1]
#   gen-large.py expect KIND N X
import sys

M = 0xFFFFFFFF


def s32(v):
    v &= M
    return v - (1 << 32) if v >> 31 else v


def switch(n):
    cases = ''.join('case %d: a[0] = %d; break;\n' % (i, i * 7 + 3) for i in range(n))
    return 'kernel void k(global int *a) {\nswitch (a[1]) {\n%sdefault: a[0] = -1;\n}\n}\n' % cases


def dswitch(n):
    cases = ''.join('case %d: a[i] = %d; break;\n' % (j, j * 7 + 3) for j in range(n))
    return ('kernel void k(global int *a) {\nint i = get_global_id(0);\nswitch (a[i]) {\n%sdefault: a[i] = -1;\n}\n}\n'
            % cases)


def straight(n):
    # eight values, each statement mixing one with another, so clang can
    # neither fold the chain nor keep fewer than eight values live
    src = 'kernel void k(global int *a) {\nint x = a[1];\n'
    src += ''.join('int v%d = x + %d;\n' % (j, j) for j in range(8))
    for i in range(n):
        d, s = i % 8, (i * 3 + 1) % 8
        src += ('v%d = v%d * %d + v%d;\n' % (d, d, 2 * (i % 13) + 3, s)) if i % 3 else \
            ('v%d ^= (int)((uint)v%d >> %d);\n' % (d, s, i % 7 + 1))
    return src + 'a[0] = %s;\n}\n' % ' + '.join('v%d' % j for j in range(8))


def straight_ref(n, x):
    v = [s32(x + j) for j in range(8)]
    for i in range(n):
        d, s = i % 8, (i * 3 + 1) % 8
        v[d] = s32(v[d] * (2 * (i % 13) + 3) + v[s]) if i % 3 else s32(v[d] ^ ((v[s] & M) >> (i % 7 + 1)))
    return s32(sum(v))


def nest(d):
    # the trip count comes from a[2] (2 when run), so no loop is unrolled away
    src = 'kernel void k(global int *a) {\nint c = a[1];\nint t = a[2];\n'
    for i in range(d):
        src += '%sfor (int i%d = 0; i%d < t; i%d++) {\n' % (' ' * i, i, i, i)
    src += ' ' * d + 'c = c * 3 + 1;\n'
    src += ''.join(' ' * (d - 1 - i) + '}\n' for i in range(d))
    return src + 'a[0] = c;\n}\n'


def nest_ref(d, x):
    for _ in range(2 ** d):
        x = s32(x * 3 + 1)
    return x


def table(i):
    return s32(i * 2654435761 >> 3)


def init(n):
    vals = ',\n'.join(','.join(str(table(i)) for i in range(j, min(j + 16, n))) for j in range(0, n, 16))
    return '__constant int tab[%d] = {\n%s};\nkernel void k(global int *a) { a[0] = tab[a[1]]; }\n' % (n, vals)


def main():
    if sys.argv[1] == 'expect':
        kind, n, x = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        ref = {'switch': lambda: x * 7 + 3 if 0 <= x < n else -1, 'dswitch': lambda: x * 7 + 3 if 0 <= x < n else -1,
               'straight': lambda: straight_ref(n, x),
               'nest': lambda: nest_ref(n, x), 'init': lambda: table(x)}
        print(ref[kind]())
        return
    kind, n = sys.argv[1], int(sys.argv[2])
    sys.stdout.write({'switch': switch, 'dswitch': dswitch, 'straight': straight, 'nest': nest, 'init': init}[kind](n))


main()
