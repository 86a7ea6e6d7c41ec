# Included by the test loop in CMakeLists.txt for test_asm_oom only: every
# malloc/realloc/calloc/strdup/strndup call of the code linked statically
# into the test (the assembler) goes to the test's counting wrappers, which
# fail the Nth allocation on request. Shared libraries (libc, libelf, the
# sanitizer runtime) are not affected; __real_malloc is the ordinary malloc
# (ASan's under VT_SANITIZE, so the failure paths are also leak-checked).
target_link_options(${name} PRIVATE
  -Wl,--wrap=malloc,--wrap=realloc,--wrap=calloc,--wrap=strdup,--wrap=strndup)
