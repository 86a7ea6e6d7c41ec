/* What the test process itself uses, from /proc (Linux). */
#ifndef VT_TEST_PROC_H
#define VT_TEST_PROC_H

/* Resident set size in KiB (VmRSS), -1 if it cannot be read or means
 * nothing (under valgrind: VT_UNDER_VALGRIND is set). */
long test_rss_kib(void);

#endif
