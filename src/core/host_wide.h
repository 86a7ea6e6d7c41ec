/* VT_HOST_WIDE: a function compiled twice, for the x86-64 baseline and for
 * AVX2, the one the host can run chosen once at load time. Only for work
 * whose results do not depend on the vector width: integer lanes, and IEEE
 * binary32 operations without fused multiply-add (AVX2 alone brings none
 * for the compiler to form). */
#ifndef VT_HOST_WIDE_H
#define VT_HOST_WIDE_H

#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define VT_HOST_WIDE __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef VT_HOST_WIDE
#define VT_HOST_WIDE
#endif

#endif
