/* Executable layout and conversion of an assembled unit to an ELF image.
 *
 * Layout rule for executables: code sections (flag x) are packed from
 * --text-addr in source order; read-only data (a, not w/x) starts at the
 * next 4 KiB page after the code; writable sections (w: .data, then NOBITS
 * ones such as .bss) start at the next 4 KiB page after that. Each group is
 * one PT_LOAD segment (R+X, R, R+W). Non-allocated sections are not loaded. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "asm_int.h"
#include "vt_elf.h"

enum { G_CODE, G_RODATA, G_DATA, G_BSS, G_NONE };

static int group_of(const asm_sec *s) {
  if (!(s->flags & SHF_ALLOC)) return G_NONE;
  if (s->flags & SHF_EXECINSTR) return G_CODE;
  if (!(s->flags & SHF_WRITE)) return G_RODATA;
  return s->type == SHT_NOBITS ? G_BSS : G_DATA;
}

static uint64_t align_up(uint64_t v, uint32_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

void asm_layout(asm_object *o) {
  o->wrap_sec = -1;
  for (int i = 0; i < o->nsecs; i++) o->secs[i].addr = 0;
  if (!o->exec) return;
  uint64_t addr = o->opt.text_addr; /* 64-bit: a layout past 4 GiB is reported, not wrapped */
  for (int g = G_CODE; g < G_NONE; g++) {
    int any = 0;
    for (int i = 0; i < o->nsecs; i++) {
      asm_sec *s = &o->secs[i];
      if (group_of(s) != g) continue;
      if (!any && g != G_CODE && g != G_BSS) addr = align_up(addr, 0x1000);
      if (!any && g == G_BSS) {
        /* .bss joins the data segment; alone it still starts a page */
        int data = 0;
        for (int k = 0; k < o->nsecs; k++) data |= group_of(&o->secs[k]) == G_DATA;
        if (!data) addr = align_up(addr, 0x1000);
      }
      any = 1;
      addr = align_up(addr, s->align);
      s->addr = (uint32_t)addr;
      if (o->wrap_sec < 0 && addr + s->size > UINT64_C(1) << 32) {
        o->wrap_sec = i;
        o->wrap_addr = addr;
      }
      addr += s->size;
    }
  }
}

int asm_layout_check(const asm_object *o, vt_error *e) {
  if (o->wrap_sec < 0) return 0;
  const asm_sec *s = &o->secs[o->wrap_sec];
  return vt_fail(e, VT_ERR_ASM,
                 "section '%s' at 0x%llx (0x%x bytes) does not fit below 4 GiB, the end of the "
                 "32-bit address space (see --text-addr)",
                 s->name, (unsigned long long)o->wrap_addr, s->size);
}

/* Linker-synthesised symbols, defined in executables when the source
 * references them without defining them (as GNU ld's default script / LLD):
 *   __global_pointer$  start of .sdata, else of the first writable section,
 *                      else the page after the last section; plus 0x800
 *   _edata             end of the writable PROGBITS sections (initialised
 *                      data); without any, __bss_start
 *   __bss_start        start of the first writable NOBITS section, else _edata
 *   _end               end of the last writable section (.bss included)
 * With no writable section at all, all three are the page after the last
 * allocated section. They are absolute symbols. */
void asm_synth_symbols(asm_object *o) {
  if (!o->exec) return;
  uint32_t top = o->opt.text_addr, sdata = 0, data = 0, edata = 0, bss = 0, end = 0;
  int have_sdata = 0, have_data = 0, have_bss = 0;
  for (int i = 0; i < o->nsecs; i++) {
    const asm_sec *s = &o->secs[i];
    int g = group_of(s);
    if (g == G_NONE) continue;
    if (s->addr + s->size > top) top = s->addr + s->size;
    if (g != G_DATA && g != G_BSS) continue;
    if (!strcmp(s->name, ".sdata")) have_sdata = 1, sdata = s->addr;
    if (!have_data && !have_bss) data = s->addr;
    if (g == G_DATA && (!have_data || s->addr + s->size > edata)) edata = s->addr + s->size;
    if (g == G_BSS && !have_bss) bss = s->addr;
    if (s->addr + s->size > end || (!have_data && !have_bss)) end = s->addr + s->size;
    have_data |= g == G_DATA;
    have_bss |= g == G_BSS;
  }
  uint32_t page = (uint32_t)align_up(top, 0x1000); /* wraps only with a layout error */
  if (!have_data && !have_bss) data = edata = bss = end = page;
  if (!have_data) edata = bss;
  if (!have_bss) bss = edata;
  const struct {
    const char *name;
    uint32_t v;
  } syn[] = {{"__global_pointer$", (have_sdata ? sdata : data) + 0x800},
             {"_edata", edata},
             {"__bss_start", bss},
             {"_end", end}};
  for (size_t k = 0; k < sizeof syn / sizeof syn[0]; k++) {
    int i = asm_sym_find(o, syn[k].name, strlen(syn[k].name));
    if (i < 0) continue;
    asm_sym *y = &o->syms[i];
    if (y->sec != SYM_UNDEF && !y->synth) continue;
    if (y->sec != SYM_ABS || y->value != syn[k].v) o->changed = 1;
    y->synth = 1;
    y->sec = SYM_ABS;
    y->value = syn[k].v;
    y->prev_sec = y->sec;
    y->prev_value = y->value;
  }
}

static int is_hidden_name(const char *n) {
  return n[0] == '\001' || (n[0] == '.' && n[1] == 'L');
}

int asm_write_elf(const asm_object *o, const char *path, vt_error *e) {
  int n = o->nsecs;
  int *order = malloc(sizeof(int) * (size_t)n), *wsec = malloc(sizeof(int) * (size_t)n);
  vt_elf_wsec *secs = calloc((size_t)n, sizeof *secs);
  vt_elf_wsym *syms = calloc((size_t)o->nsyms + 1, sizeof *syms);
  int *wsym = malloc(sizeof(int) * ((size_t)o->nsyms + 1));
  vt_elf_wrela *rels = calloc((size_t)o->nrels + 1, sizeof *rels);
  int rc = 0;
  if (!order || !wsec || !secs || !syms || !wsym || !rels) {
    rc = vt_fail(e, VT_ERR_NOMEM, "out of memory while writing %s", path);
    goto out;
  }
  /* executables: sections in address order, non-allocated last */
  int k = 0;
  if (!o->exec)
    for (int i = 0; i < n; i++) order[k++] = i;
  else
    for (int g = G_CODE; g <= G_NONE; g++)
      for (int i = 0; i < n; i++)
        if (group_of(&o->secs[i]) == g) order[k++] = i;
  for (int j = 0; j < n; j++) {
    const asm_sec *s = &o->secs[order[j]];
    wsec[order[j]] = j;
    secs[j] = (vt_elf_wsec){s->name, s->type, s->flags, s->addr, s->align,
                            s->type == SHT_NOBITS ? NULL : s->data, s->size};
  }
  int ns = 0;
  for (int i = 0; i < o->nsyms; i++) {
    const asm_sym *y = &o->syms[i];
    wsym[i] = -1;
    if (is_hidden_name(y->name) && !(y->needed && !o->exec)) continue;
    if (y->sec == SYM_UNDEF && !(y->global && !o->exec)) continue;
    vt_elf_wsym *w = &syms[ns];
    w->name = y->name;
    w->sec = y->sec >= 0 ? wsec[y->sec] : y->sec == SYM_ABS ? VT_ELF_SEC_ABS : VT_ELF_SEC_UNDEF;
    w->value = (uint32_t)(y->sec >= 0 ? o->secs[y->sec].addr + (uint64_t)y->value : (uint64_t)y->value);
    w->size = y->has_size ? (uint32_t)y->size : 0;
    w->type = (uint8_t)y->type;
    w->bind = y->weak ? STB_WEAK : y->global ? STB_GLOBAL : STB_LOCAL;
    wsym[i] = ns++;
  }
  for (int i = 0; i < o->nrels; i++) {
    const asm_rel *r = &o->rels[i];
    rels[i] = (vt_elf_wrela){wsec[r->sec], r->off, r->type,
                             r->sym >= 0 ? wsym[r->sym] : -1 - wsec[-1 - r->sym], (int32_t)r->addend};
  }
  vt_elf_wimage img = {o->exec, o->entry, secs, n, syms, ns, rels, o->exec ? 0 : o->nrels};
  rc = vt_elf_write(path, &img, e);
  if (rc && e->kind == VT_ERR_NOMEM)
    vt_fail(e, VT_ERR_NOMEM, "out of memory while writing %s", path);
out:
  free(order);
  free(wsec);
  free(secs);
  free(syms);
  free(wsym);
  free(rels);
  return rc;
}
