/* Drawing a line plot as SVG: axes with rounded ticks, one coloured
 * polyline with markers per series, a legend on the right. */
#include "sweep_svg.h"

#include <math.h>
#include <string.h>

#define W 760.0
#define H 440.0
#define L 80.0  /* plot area: left, top, right, bottom edges */
#define T 40.0
#define R 560.0
#define B 380.0

static const char *palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

static void text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '<')
      fputs("&lt;", f);
    else if (*s == '>')
      fputs("&gt;", f);
    else if (*s == '&')
      fputs("&amp;", f);
    else if (*s == '"')
      fputs("&quot;", f);
    else
      fputc(*s, f);
  }
}

/* a tick step of 1, 2 or 5 times a power of ten giving about 5 ticks */
static double tick_step(double span) {
  if (!(span > 0)) return 1;
  double raw = span / 5, p = pow(10, floor(log10(raw))), m = raw / p;
  return p * (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10);
}

int sw_svg_lines(FILE *f, const sw_lineplot *p) {
  double x0 = INFINITY, x1 = -INFINITY, y0 = 0, y1 = -INFINITY;
  for (size_t s = 0; s < p->nseries; s++)
    for (size_t i = 0; i < p->series[s].n; i++) {
      double x = p->series[s].x[i], y = p->series[s].y[i];
      if (p->logx) x = log2(x);
      x0 = fmin(x0, x);
      x1 = fmax(x1, x);
      y0 = fmin(y0, y);
      y1 = fmax(y1, y);
    }
  if (p->categories) {
    x0 = 0;
    x1 = p->ncategories ? (double)p->ncategories - 1 : 0;
  }
  if (!isfinite(x0)) x0 = 0, x1 = 1;
  if (x1 <= x0) x0 -= 0.5, x1 += 0.5;
  if (!isfinite(y1) || y1 <= y0) y1 = y0 + 1;
  double ys = tick_step(y1 - y0);
  y1 = ceil(y1 / ys) * ys;
  y0 = floor(y0 / ys) * ys;
#define PX(x) (L + ((x) - x0) / (x1 - x0) * (R - L))
#define PY(y) (B - ((y) - y0) / (y1 - y0) * (B - T))
  fprintf(f,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\" "
          "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
          W, H, W, H);
  fprintf(f, "<text x=\"%g\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">", (L + R) / 2);
  text(f, p->title);
  fputs("</text>\n", f);
  /* y grid and labels */
  for (double y = y0; y <= y1 + ys / 2; y += ys) {
    fprintf(f, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, PY(y), R, PY(y));
    fprintf(f, "<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, PY(y) + 4, y);
  }
  /* x ticks: the categories, every power of two, or rounded steps */
  if (p->categories) {
    for (size_t i = 0; i < p->ncategories; i++) {
      fprintf(f, "<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">", PX((double)i), B + 18);
      text(f, p->categories[i]);
      fputs("</text>\n", f);
    }
  } else {
    double xs = p->logx ? 1 : tick_step(x1 - x0);
    for (double x = ceil(x0 / xs) * xs; x <= x1 + xs / 1e6; x += xs)
      fprintf(f, "<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" stroke=\"#999\"/>"
              "<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%g</text>\n",
              PX(x), B, PX(x), B + 5, PX(x), B + 18, p->logx ? exp2(x) : x);
  }
  fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" stroke=\"black\"/>\n", L, T, R - L,
          B - T);
  fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">", (L + R) / 2, B + 40);
  text(f, p->xlabel);
  fprintf(f, "%s</text>\n", p->logx ? " (log scale)" : "");
  fprintf(f, "<text transform=\"translate(20 %g) rotate(-90)\" text-anchor=\"middle\">", (T + B) / 2);
  text(f, p->ylabel);
  fputs("</text>\n", f);
  for (size_t s = 0; s < p->nseries; s++) {
    const sw_series *sr = &p->series[s];
    const char *c = palette[s % (sizeof palette / sizeof palette[0])];
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
    for (size_t i = 0; i < sr->n; i++)
      fprintf(f, "%s%.1f,%.1f", i ? " " : "", PX(p->logx ? log2(sr->x[i]) : sr->x[i]), PY(sr->y[i]));
    fputs("\"/>\n", f);
    for (size_t i = 0; i < sr->n; i++) {
      fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>", PX(p->logx ? log2(sr->x[i]) : sr->x[i]),
              PY(sr->y[i]), c);
      text(f, sr->name);
      fprintf(f, ": %g</title></circle>\n", sr->y[i]);
    }
    double ly = T + 8 + 18 * (double)s;
    fprintf(f, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\" stroke-width=\"2\"/>", R + 15, ly, R + 35,
            ly, c);
    fprintf(f, "<text x=\"%g\" y=\"%g\">", R + 40, ly + 4);
    text(f, sr->name);
    fputs("</text>\n", f);
  }
  fputs("</svg>\n", f);
#undef PX
#undef PY
  return ferror(f) ? -1 : 0;
}

int sw_svg_stacked(FILE *f, const sw_barplot *p) {
  const double bw = 28, gap = 12, left = 80, top = 40, plot_h = 300;
  double w = left + (double)p->nbars * (bw + gap) + 20, legend = w, total = w + 200;
  double ymax = 0;
  for (size_t b = 0; b < p->nbars; b++) {
    double t = 0;
    for (size_t k = 0; k < p->nparts; k++) t += p->v[b * p->nparts + k];
    ymax = fmax(ymax, t);
  }
  double ys = tick_step(ymax > 0 ? ymax : 1);
  ymax = ceil((ymax > 0 ? ymax : 1) / ys) * ys;
  /* labels under the bars, turned: room for the longest */
  size_t longest = 0;
  for (size_t b = 0; b < p->nbars; b++) longest = strlen(p->labels[b]) > longest ? strlen(p->labels[b]) : longest;
  double bottom = top + plot_h, h = bottom + 20 + 6.0 * (double)longest;
  if (h < top + plot_h + 40 + 18 * (double)p->nparts) h = top + plot_h + 40;
  fprintf(f,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\" "
          "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
          total, h, total, h);
  fprintf(f, "<text x=\"%g\" y=\"22\" font-size=\"15\">", left);
  text(f, p->title);
  fputs("</text>\n", f);
#define BY(y) (bottom - (y) / ymax * plot_h)
  for (double y = 0; y <= ymax + ys / 2; y += ys)
    fprintf(f, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#ddd\"/>"
               "<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
            left, BY(y), w - 20, BY(y), left - 6, BY(y) + 4, y);
  fprintf(f, "<text transform=\"translate(20 %g) rotate(-90)\" text-anchor=\"middle\">", top + plot_h / 2);
  text(f, p->ylabel);
  fputs("</text>\n", f);
  for (size_t b = 0; b < p->nbars; b++) {
    double x = left + gap / 2 + (double)b * (bw + gap), acc = 0;
    for (size_t k = 0; k < p->nparts; k++) {
      double v = p->v[b * p->nparts + k];
      if (v <= 0) continue;
      fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%g\" height=\"%.1f\" fill=\"%s\"><title>", x, BY(acc + v),
              bw, BY(acc) - BY(acc + v), palette[k % (sizeof palette / sizeof palette[0])]);
      text(f, p->labels[b]);
      fputs(": ", f);
      text(f, p->parts[k]);
      fprintf(f, " %g</title></rect>\n", v);
      acc += v;
    }
    fprintf(f, "<text transform=\"translate(%.1f %g) rotate(45)\">", x + bw / 2, bottom + 12);
    text(f, p->labels[b]);
    fputs("</text>\n", f);
  }
  fprintf(f, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"black\"/>\n", left, bottom, w - 20, bottom);
  for (size_t k = p->nparts; k-- > 0;) { /* the legend top down, as the stack */
    double ly = top + 8 + 18 * (double)(p->nparts - 1 - k);
    fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"14\" height=\"12\" fill=\"%s\"/><text x=\"%g\" y=\"%g\">", legend,
            ly - 6, palette[k % (sizeof palette / sizeof palette[0])], legend + 20, ly + 4);
    text(f, p->parts[k]);
    fputs("</text>\n", f);
  }
  fputs("</svg>\n", f);
#undef BY
  return ferror(f) ? -1 : 0;
}
