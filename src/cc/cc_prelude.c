/* Declarations clang's OpenCL header lacks for the device's OpenCL C
 * version, included (-include of a temporary copy, cc_front.c) when a
 * program calls one without declaring it: a program that defines its own
 * function of the name is compiled without them. ctz is OpenCL C 2.0's,
 * but the OpenCL CTS calls it on 1.2 devices as well and pocl declares it
 * for every version; the back end selects it for every integer width
 * (cc_isel_bits.c), vectors element by element (cc_scalarize.c). */
#include "cc_front.h"

const char cc_prelude[] =
    "#if !defined(__OPENCL_CPP_VERSION__) && __OPENCL_C_VERSION__ < 200\n"
    "#define __CY_CTZ1(T) T __attribute__((overloadable, const)) ctz(T);\n"
    "#define __CY_CTZ(T) __CY_CTZ1(T) __CY_CTZ1(T##2) __CY_CTZ1(T##3) __CY_CTZ1(T##4) __CY_CTZ1(T##8) "
    "__CY_CTZ1(T##16)\n"
    "__CY_CTZ(char) __CY_CTZ(uchar) __CY_CTZ(short) __CY_CTZ(ushort)\n"
    "__CY_CTZ(int) __CY_CTZ(uint) __CY_CTZ(long) __CY_CTZ(ulong)\n"
    "#undef __CY_CTZ\n"
    "#undef __CY_CTZ1\n"
    "#endif\n";
