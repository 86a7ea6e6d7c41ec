// Reads one launch of the upstream test-vector format (.metadata + .data),
// as ../shared/docs/corpora.md §2.1-2.2 describes it: hex words, one per
// line, every metadata field a uint64 written low word first; .data holds the
// buffers one after another, ceil(size/4) words each.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct TvBuffer {
  uint32_t base, size, alloc;
};

struct TvLaunch {
  std::string name;          // file stem, e.g. "BFS_1_0"
  uint32_t start_pc = 0;     // field 0 (the testbenches use 0x80000000)
  uint32_t grid[3] = {1, 1, 1};
  uint32_t wf_size = 0, wg_size = 0, knl = 0, lds_size = 0, pds_size = 0;
  uint32_t sgpr = 0, vgpr = 0, pds_base = 0;
  std::vector<TvBuffer> bufs;
  std::vector<uint32_t> data;  // the .data words, in file order
};

// Reads PATH (a .metadata file; the .data beside it). Returns false with a
// message naming the file and line in *err.
bool tv_read_launch(const std::string &metadata_path, TvLaunch *out, std::string *err);

// A case: one .metadata file, or a directory with kernels.txt (the launch
// order) or with exactly one .metadata file.
bool tv_read_case(const std::string &path, std::vector<TvLaunch> *out, std::string *err);
