// The chengying testbench of the Ventus Verilog RTL (gpgpu_axi_top under
// Verilator). It plays the host and the memory the upstream AXI testbench
// plays: loads each launch of an upstream test vector into memory, writes a
// work-group's 16 registers over AXI-lite, polls register 0x44 for its end,
// and counts cycles over the window the upstream README's table counts
// (docs/timing.md, "The RTL in the loop"). Unlike the upstream host model it
// dispatches every work-group of a launch's grid, not only work-group 0.
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vgpgpu_axi_top.h"
#include "Vgpgpu_axi_top___024root.h"
#include "axi_mem.h"
#include "probes.h"
#include "testvec.h"
#include "verilated.h"

namespace {

const char *const kUsage =
    "usage: rtl_tb [options] CASE\n"
    "Runs an upstream test-vector case (a .metadata file with its .data, or a\n"
    "directory with kernels.txt) on the Verilated Ventus RTL.\n"
    "  --dump FILE        final memory of every buffer as '0x<addr> 0x<word>' lines\n"
    "  --json FILE        cycles per launch and the build's parameters as JSON\n"
    "  --events FILE      every issue of an instruction into an operand collector,\n"
    "                     'CYCLE SM WARP PC' lines, CYCLE counted from the launch's start\n"
    "  --max-cycles N     give up (exit 3) after N cycles in one launch (default 20000000)\n"
    "  --params TEXT      the build's parameters, copied into the JSON\n"
    "  --quiet            no summary on stdout\n"
    "exit: 0 done, 2 usage, 3 the RTL did not finish, 4 bad input or output\n";

struct Options {
  std::string input, dump, json, events, params;
  uint64_t max_cycles = 20000000;
  bool quiet = false;
};

int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "rtl_tb: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n%s", kUsage);
  return 2;
}

// The simulated system: the RTL, its memory and the host side of AXI-lite.
class Bench {
 public:
  explicit Bench(VerilatedContext *ctx) : top_(new Vgpgpu_axi_top(ctx)), slave_(&mem_) {}
  ~Bench() { top_->final(); }

  SparseMem &mem() { return mem_; }
  uint64_t cycle() const { return cycle_; }

  void reset() {
    top_->rst_n = 0;
    slave_.idle();
    drive();
    for (int i = 0; i < 4; i++) tick();
    top_->rst_n = 1;
    tick();
  }

  // One AXI-lite write; returns false if it did not finish within `limit`.
  bool lite_write(uint32_t reg, uint32_t value, uint64_t limit) {
    top_->s_axilite_awaddr_i = reg * 4;
    top_->s_axilite_awvalid_i = 1;
    top_->s_axilite_wdata_i = value;
    top_->s_axilite_wstrb_i = 0xf;
    top_->s_axilite_wvalid_i = 1;
    top_->s_axilite_bready_i = 1;
    bool aw = false, w = false;
    for (uint64_t n = 0; n < limit; n++) {
      top_->clk = 0;
      top_->eval();
      bool awh = top_->s_axilite_awvalid_i && top_->s_axilite_awready_o;
      bool wh = top_->s_axilite_wvalid_i && top_->s_axilite_wready_o;
      bool bh = top_->s_axilite_bvalid_o && top_->s_axilite_bready_i;
      tick();
      if (awh) aw = true, top_->s_axilite_awvalid_i = 0;
      if (wh) w = true, top_->s_axilite_wvalid_i = 0;
      if (bh && aw && w) {
        top_->s_axilite_bready_i = 0;
        return true;
      }
    }
    // Not taken (the CTA has no room yet): withdraw, so a read can go first.
    top_->s_axilite_awvalid_i = 0;
    top_->s_axilite_wvalid_i = 0;
    top_->s_axilite_bready_i = 0;
    return false;
  }

  // One AXI-lite read into *value.
  bool lite_read(uint32_t reg, uint32_t *value, uint64_t limit) {
    top_->s_axilite_araddr_i = reg * 4;
    top_->s_axilite_arvalid_i = 1;
    top_->s_axilite_rready_i = 1;
    for (uint64_t n = 0; n < limit; n++) {
      top_->clk = 0;
      top_->eval();
      bool arh = top_->s_axilite_arvalid_i && top_->s_axilite_arready_o;
      bool rh = top_->s_axilite_rvalid_o && top_->s_axilite_rready_i && !top_->s_axilite_arvalid_i;
      uint32_t data = top_->s_axilite_rdata_o;
      tick();
      if (arh) top_->s_axilite_arvalid_i = 0;
      if (rh) {
        top_->s_axilite_rready_i = 0;
        *value = data;
        return true;
      }
    }
    return false;
  }

  // Cycles until the CTA acknowledges the work-group just written (the
  // falling edge of cta2host_rcvd_ack the upstream window starts at).
  bool wait_ack(uint64_t limit) {
    bool seen = false;
    for (uint64_t n = 0; n < limit; n++) {
      bool ack = rcvd_ack();
      if (seen && !ack) return true;
      seen |= ack;
      top_->clk = 0;
      top_->eval();
      tick();
    }
    return false;
  }

  uint64_t axi_reads() const { return slave_.reads; }
  // --events: issue lines go to F, cycles counted from `origin`.
  void set_events(FILE *f) { events_ = f; }
  void set_origin(uint64_t c) { origin_ = c; }
  uint64_t axi_writes() const { return slave_.writes; }

 private:
  bool rcvd_ack() { return top_->rootp->gpgpu_axi_top__DOT__gpgpu_top__DOT__cta__DOT__cta2host_rcvd_ack_o; }

  // Drives the AXI slave's outputs into the RTL.
  void drive() {
    const AxiSlaveOut &o = slave_.out();
    top_->m_axi_arready_i = o.arready;
    top_->m_axi_rvalid_i = o.rvalid;
    top_->m_axi_rid_i = o.rid;
    top_->m_axi_rdata_i = o.rdata;
    top_->m_axi_rresp_i = 0;
    top_->m_axi_rlast_i = o.rlast;
    top_->m_axi_ruser_i = 0;
    top_->m_axi_awready_i = o.awready;
    top_->m_axi_wready_i = o.wready;
    top_->m_axi_bvalid_i = o.bvalid;
    top_->m_axi_bid_i = o.bid;
    top_->m_axi_bresp_i = 0;
    top_->m_axi_buser_i = 0;
  }

  // One clock cycle: samples the RTL's AXI outputs with the inputs settled,
  // takes the rising edge, then lets the slave answer for the next cycle.
  void tick() {
    top_->clk = 0;
    top_->eval();
    AxiSlaveIn in;
    in.arvalid = top_->m_axi_arvalid_o;
    in.araddr = top_->m_axi_araddr_o;
    in.arid = (uint8_t)top_->m_axi_arid_o;
    in.arlen = (uint8_t)top_->m_axi_arlen_o;
    in.rready = top_->m_axi_rready_o;
    in.awvalid = top_->m_axi_awvalid_o;
    in.awaddr = top_->m_axi_awaddr_o;
    in.awid = (uint8_t)top_->m_axi_awid_o;
    in.wvalid = top_->m_axi_wvalid_o;
    in.wdata = top_->m_axi_wdata_o;
    in.wstrb = (uint8_t)top_->m_axi_wstrb_o;
    in.wlast = top_->m_axi_wlast_o;
    in.bready = top_->m_axi_bready_o;
    if (events_) log_issues();
    if (dbg_) debug_top();
    top_->clk = 1;
    top_->eval();
    cycle_++;
    slave_.edge(in);
    drive();
    top_->clk = 0;
    top_->eval();
  }

  // RTL_TB_DEBUG: the end-of-work-group signals whenever they change.
  void debug_top() {
    auto *r = top_->rootp;
    unsigned v = r->gpgpu_axi_top__DOT__gpgpu_top__DOT__wg_done | r->gpgpu_axi_top__DOT__gpgpu_top__DOT__is_flushing << 1 |
                 r->gpgpu_axi_top__DOT__gpgpu_top__DOT__l2cache_finish_issue << 2 |
                 r->gpgpu_axi_top__DOT__gpgpu_top__DOT__host_rsp_valid_o << 3;
    if (v != dbg_last_)
      fprintf(stderr, "cycle %llu: wg_done %u is_flushing %u l2_finish %u host_rsp_valid %u\n",
              (unsigned long long)cycle_, v & 1, v >> 1 & 1, v >> 2 & 1, v >> 3 & 1);
    dbg_last_ = v;
  }
  unsigned dbg_last_ = 0;
  bool dbg_ = getenv("RTL_TB_DEBUG") != nullptr;

  // Issues taking place at the coming edge, one line each.
  void log_issues() {
    for (unsigned sm = 0; sm < RTL_NUM_SM; sm++) {
      RtlIssue is = rtl_issue_probe(top_->rootp, sm);
      if (is.fire)
        fprintf(events_, "%" PRId64 " %u %u 0x%08x\n", (int64_t)(cycle_ - origin_), sm, is.wid, is.pc);
    }
  }

  std::unique_ptr<Vgpgpu_axi_top> top_;
  SparseMem mem_;
  FILE *events_ = nullptr;
  uint64_t origin_ = 0;
  AxiSlave slave_;
  uint64_t cycle_ = 0;
};

// The 16 work-group registers of axi4lite_2_cta, as the upstream host model
// fills them for work-group (x, y, z) of a launch.
void wg_registers(const TvLaunch &L, uint32_t x, uint32_t y, uint32_t z, uint32_t r[16]) {
  uint32_t linear = x + L.grid[0] * (y + L.grid[1] * z);
  r[0] = 1;  // start: written last
  r[1] = linear;
  r[2] = L.wg_size;
  r[3] = L.wf_size;
  r[4] = 0x80000000u;
  r[5] = L.wg_size * L.vgpr;
  r[6] = L.wg_size * L.sgpr;
  r[7] = 128;  // the upstream host's fixed lds_size_total
  r[8] = L.vgpr;
  r[9] = L.sgpr;
  r[10] = 0;
  r[11] = L.pds_base + linear * L.pds_size * L.wf_size * L.wg_size;
  r[12] = L.knl;
  r[13] = x;
  r[14] = y;
  r[15] = z;
}

void load_launch(SparseMem &m, const TvLaunch &L) {
  size_t w = 0;
  for (const TvBuffer &b : L.bufs) {
    uint32_t words = (b.size + 3u) / 4u;
    for (uint32_t i = 0; i < words; i++, w++)
      for (int k = 0; k < 4; k++) m.write8(b.base + 4 * i + (uint32_t)k, (uint8_t)(L.data[w] >> (8 * k)));
  }
}

struct LaunchResult {
  std::string name;
  uint64_t cycles, wgs;
};

// Runs one work-group of a launch: its 16 registers written over AXI-lite,
// the window from the CTA's acknowledgement to the poll of register 17
// (0x44, cleared by the read) that reports its end.
int run_wg(Bench &b, const TvLaunch &L, uint32_t x, uint32_t y, uint32_t z, uint64_t deadline, uint64_t *cycles) {
  uint64_t step = deadline - b.cycle();
  uint32_t r[16];
  wg_registers(L, x, y, z, r);
  for (uint32_t i = 1; i <= 16; i++) {
    uint32_t reg = i % 16;  // 1..15, then 0 (start)
    if (!b.lite_write(reg, r[reg], step)) return 3;
  }
  if (!b.wait_ack(step)) return 3;
  uint64_t start = b.cycle();
  b.set_origin(start);
  for (uint32_t v = 0; !v;) {
    if (b.cycle() >= deadline || !b.lite_read(17, &v, deadline - b.cycle())) return 3;
  }
  *cycles = b.cycle() - start;
  return 0;
}

// Runs one launch. The RTL reports the end of only the first work-group
// after a reset (docs/timing.md, "The RTL in the loop": the second one's
// invalidate never starts an L2 flush), so each launch, and each
// work-group of a launch with several, runs from a reset, one after the
// other, on the memory the earlier ones left.
int run_launch(Bench &b, const TvLaunch &L, const Options &o, bool first, LaunchResult *res) {
  uint64_t total = (uint64_t)L.grid[0] * L.grid[1] * L.grid[2], sum = 0, n = 0;
  uint64_t deadline = b.cycle() + o.max_cycles;
  for (uint32_t z = 0; z < L.grid[2]; z++)
    for (uint32_t y = 0; y < L.grid[1]; y++)
      for (uint32_t x = 0; x < L.grid[0]; x++) {
        if (!first || n) b.reset();
        uint64_t c = 0;
        int rc = run_wg(b, L, x, y, z, deadline, &c);
        if (rc) return rc;
        sum += c;
        n++;
      }
  res->name = L.name;
  res->cycles = sum;
  res->wgs = total;
  return 0;
}

int write_dump(SparseMem &m, const std::vector<TvLaunch> &launches, const std::string &path) {
  FILE *f = fopen(path.c_str(), "w");
  if (!f) {
    fprintf(stderr, "rtl_tb: %s: %s\n", path.c_str(), strerror(errno));
    return 4;
  }
  // Every buffer with contents, once, in first-seen order; bytes outside a
  // buffer read as 0, as `ventus run --dump` writes them.
  std::vector<std::pair<uint32_t, uint32_t>> seen;
  for (const TvLaunch &L : launches)
    for (const TvBuffer &bf : L.bufs) {
      if (bf.size == 0) continue;
      bool dup = false;
      for (auto &s : seen) dup |= s.first == bf.base && s.second == bf.size;
      if (dup) continue;
      seen.push_back({bf.base, bf.size});
      uint64_t end = (uint64_t)bf.base + bf.size;
      for (uint64_t a = bf.base & ~3u; a < end; a += 4) {
        uint32_t w = 0;
        for (int k = 0; k < 4; k++)
          if (a + (uint64_t)k >= bf.base && a + (uint64_t)k < end) w |= (uint32_t)m.read8((uint32_t)a + (uint32_t)k) << (8 * k);
        fprintf(f, "0x%08" PRIx64 " 0x%08x\n", a, w);
      }
    }
  if (fclose(f) != 0) {
    fprintf(stderr, "rtl_tb: %s: write failed\n", path.c_str());
    return 4;
  }
  return 0;
}

int write_json(const std::vector<LaunchResult> &rs, const Options &o, const Bench &b) {
  FILE *f = fopen(o.json.c_str(), "w");
  if (!f) {
    fprintf(stderr, "rtl_tb: %s: %s\n", o.json.c_str(), strerror(errno));
    return 4;
  }
  uint64_t sum = 0;
  for (const LaunchResult &r : rs) sum += r.cycles;
  fprintf(f, "{\"case\": \"%s\", \"params\": \"%s\", \"cycles\": %" PRIu64 ", \"axi_reads\": %" PRIu64
             ", \"axi_writes\": %" PRIu64 ", \"launches\": [",
          o.input.c_str(), o.params.c_str(), sum, b.axi_reads(), b.axi_writes());
  for (size_t i = 0; i < rs.size(); i++)
    fprintf(f, "%s{\"name\": \"%s\", \"cycles\": %" PRIu64 ", \"work_groups\": %" PRIu64 "}", i ? ", " : "",
            rs[i].name.c_str(), rs[i].cycles, rs[i].wgs);
  fprintf(f, "]}\n");
  return fclose(f) == 0 ? 0 : 4;
}

}  // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto need = [&](std::string *dst) {
      if (i + 1 >= argc) return false;
      *dst = argv[++i];
      return true;
    };
    if (a == "--help" || a == "-h") {
      printf("%s", kUsage);
      return 0;
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (a == "--dump" || a == "--json" || a == "--events" || a == "--params") {
      std::string *dst = a == "--dump" ? &o.dump : a == "--json" ? &o.json : a == "--events" ? &o.events : &o.params;
      if (!need(dst)) return usage_error("%s needs a value", a.c_str());
    } else if (a == "--max-cycles") {
      std::string v;
      if (!need(&v)) return usage_error("%s needs a value", a.c_str());
      char *end = nullptr;
      errno = 0;
      o.max_cycles = strtoull(v.c_str(), &end, 0);
      if (errno || !*v.c_str() || *end || o.max_cycles == 0) return usage_error("--max-cycles %s: expected a positive number", v.c_str());
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("unknown option %s", a.c_str());
    } else if (o.input.empty()) {
      o.input = a;
    } else {
      return usage_error("one case only (also got %s)", a.c_str());
    }
  }
  if (o.input.empty()) return usage_error("%s", "no case given");

  std::vector<TvLaunch> launches;
  std::string err;
  if (!tv_read_case(o.input, &launches, &err)) {
    fprintf(stderr, "rtl_tb: %s\n", err.c_str());
    return 4;
  }
  auto ctx = std::make_unique<VerilatedContext>();
  Bench bench(ctx.get());
  bench.reset();
  std::vector<LaunchResult> results;
  FILE *events = nullptr;
  if (!o.events.empty() && !(events = fopen(o.events.c_str(), "w"))) {
    fprintf(stderr, "rtl_tb: %s: %s\n", o.events.c_str(), strerror(errno));
    return 4;
  }
  bench.set_events(events);
  for (const TvLaunch &L : launches) {
    load_launch(bench.mem(), L);
    if (events) fprintf(events, "# launch %s\n", L.name.c_str());
    LaunchResult r;
    int rc = run_launch(bench, L, o, &L == &launches[0], &r);
    if (rc) {
      fprintf(stderr, "rtl_tb: %s: launch %s did not finish within %" PRIu64 " cycles\n", o.input.c_str(),
              L.name.c_str(), o.max_cycles);
      return rc;
    }
    results.push_back(r);
    if (!o.quiet) printf("%s: %" PRIu64 " cycles (%" PRIu64 " work-groups)\n", r.name.c_str(), r.cycles, r.wgs);
  }
  uint64_t sum = 0;
  for (const LaunchResult &r : results) sum += r.cycles;
  if (!o.quiet) printf("total: %" PRIu64 " cycles\n", sum);
  if (bench.mem().unwritten_reads)
    fprintf(stderr, "rtl_tb: note: %" PRIu64 " AXI reads of memory no launch provided\n", bench.mem().unwritten_reads);
  if (events && fclose(events) != 0) {
    fprintf(stderr, "rtl_tb: %s: write failed\n", o.events.c_str());
    return 4;
  }
  if (!o.dump.empty() && write_dump(bench.mem(), launches, o.dump)) return 4;
  if (!o.json.empty() && write_json(results, o, bench)) return 4;
  return 0;
}
