/* Build-time helper: writes a file as a C string constant, so that the
 * compiler carries the start-up code it links every kernel with.
 * usage: gen_embed NAME FILE > out.c */
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  FILE *f = fopen(argv[2], "rb");
  if (!f) return 1;
  printf("/* generated from %s by gen_embed */\nconst char %s[] =\n\"", argv[2], argv[1]);
  int c;
  while ((c = fgetc(f)) != EOF) {
    if (c == '\n') printf("\\n\"\n\"");
    else if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 32 || c > 126) printf("\\%03o", c);
    else putchar(c);
  }
  printf("\";\n");
  fclose(f);
  return 0;
}
