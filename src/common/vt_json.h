/* JSON output helpers shared by the tools. */
#ifndef VT_JSON_H
#define VT_JSON_H

#include <stdio.h>

/* Writes s as a JSON string literal: '"' and '\' escaped, control bytes as
 * \u00XX, valid UTF-8 sequences unchanged, every other byte (file names are
 * bytes, not text) as U+FFFD, so the output always parses. */
void vt_json_str(FILE *f, const char *s);

#endif
