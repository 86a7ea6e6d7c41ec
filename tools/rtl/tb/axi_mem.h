// The memory behind the RTL's AXI4 master port: a sparse byte store and a
// slave with no latency of its own (the upstream AXI testbench's axi_ram,
// timing-ref §1.1): an address is taken the cycle it is offered, read data
// follows one beat per cycle, a write is answered the cycle after its last
// beat. One read and one write may be in flight at once.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

class SparseMem {
 public:
  uint8_t read8(uint32_t a) const {
    auto it = pages_.find(a >> 12);
    return it == pages_.end() ? 0 : it->second[a & 4095];
  }
  void write8(uint32_t a, uint8_t v) { page(a)[a & 4095] = v; }
  uint64_t read64(uint32_t a) const {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | read8(a + (uint32_t)i);
    return v;
  }
  // Reads that touched no page written before (a kernel reading memory the
  // launch never provided): counted, reported, not fatal.
  uint64_t unwritten_reads = 0;
  bool mapped(uint32_t a) const { return pages_.count(a >> 12) != 0; }

 private:
  uint8_t *page(uint32_t a) {
    auto &p = pages_[a >> 12];
    if (!p) {
      p.reset(new uint8_t[4096]);
      memset(p.get(), 0, 4096);
    }
    return p.get();
  }
  std::unordered_map<uint32_t, std::unique_ptr<uint8_t[]>> pages_;
};

// Inputs the slave drives and outputs it samples, as plain values so the
// slave does not depend on the Verilated model's header.
struct AxiSlaveIn {  // sampled from the RTL before a rising edge
  bool arvalid, rready, awvalid, wvalid, wlast, bready;
  uint32_t araddr, awaddr;
  uint8_t arid, arlen, awid, wstrb;
  uint64_t wdata;
};
struct AxiSlaveOut {  // driven to the RTL after the edge
  bool arready = true, rvalid = false, rlast = false, awready = true, wready = false, bvalid = false;
  uint8_t rid = 0, bid = 0;
  uint64_t rdata = 0;
};

class AxiSlave {
 public:
  explicit AxiSlave(SparseMem *m) : mem_(m) {}
  // One rising edge: `in` are the RTL's outputs and `out_` our inputs as they
  // stood just before it; afterwards out() holds the next cycle's inputs.
  void edge(const AxiSlaveIn &in) {
    bool ar = in.arvalid && out_.arready, r = out_.rvalid && in.rready;
    bool aw = in.awvalid && out_.awready, w = in.wvalid && out_.wready, b = out_.bvalid && in.bready;
    if (r) {
      if (rbeat_ == rlen_) {
        out_.rvalid = false;
        out_.arready = true;
      } else {
        rbeat_++;
        raddr_ += 8;
        load_beat();
      }
    }
    if (ar) {
      out_.arready = false;
      raddr_ = in.araddr & ~7u;
      rlen_ = in.arlen;
      rbeat_ = 0;
      out_.rid = in.arid;
      out_.rvalid = true;
      load_beat();
      reads++;
    }
    if (b) {
      out_.bvalid = false;
      out_.awready = true;
    }
    if (aw) {
      out_.awready = false;
      out_.wready = true;
      waddr_ = in.awaddr & ~7u;
      out_.bid = in.awid;
    }
    if (w) {
      for (int i = 0; i < 8; i++)
        if (in.wstrb >> i & 1) mem_->write8(waddr_ + (uint32_t)i, (uint8_t)(in.wdata >> (8 * i)));
      waddr_ += 8;
      writes++;
      if (in.wlast) {
        out_.wready = false;
        out_.bvalid = true;
      }
    }
  }
  const AxiSlaveOut &out() const { return out_; }
  // Back to idle, as after a reset of the design (nothing is in flight
  // between work-groups).
  void idle() {
    out_ = AxiSlaveOut();
    rlen_ = rbeat_ = 0;
  }
  uint64_t reads = 0, writes = 0;

 private:
  void load_beat() {
    if (!mem_->mapped(raddr_)) mem_->unwritten_reads++;
    out_.rdata = mem_->read64(raddr_);
    out_.rlast = rbeat_ == rlen_;
  }
  SparseMem *mem_;
  AxiSlaveOut out_;
  uint32_t raddr_ = 0, waddr_ = 0;
  unsigned rlen_ = 0, rbeat_ = 0;
};
