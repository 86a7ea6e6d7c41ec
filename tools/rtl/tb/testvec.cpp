// The test-vector reader of the RTL testbench (format: testvec.h).
#include "testvec.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

// Reads a file of hex words, one per line (blank lines and a missing final
// newline tolerated). Caps the count so a damaged file cannot exhaust memory.
bool read_hex_words(const std::string &path, std::vector<uint32_t> *out, std::string *err) {
  std::ifstream f(path);
  if (!f) {
    *err = path + ": cannot open";
    return false;
  }
  std::string line;
  unsigned lineno = 0;
  while (std::getline(f, line)) {
    lineno++;
    size_t i = 0;
    while (i < line.size() && isspace((unsigned char)line[i])) i++;
    if (i == line.size()) continue;
    size_t j = i;
    uint64_t v = 0;
    while (j < line.size() && isxdigit((unsigned char)line[j]) && j - i < 8) {
      char c = line[j++];
      v = v * 16 + (uint64_t)(isdigit((unsigned char)c) ? c - '0' : (tolower(c) - 'a' + 10));
    }
    while (j < line.size() && isspace((unsigned char)line[j])) j++;
    if (j == i || j != line.size()) {
      *err = path + ":" + std::to_string(lineno) + ": expected one hex word of up to 8 digits";
      return false;
    }
    if (out->size() >= (64u << 20)) {
      *err = path + ": more than 64 Mi words";
      return false;
    }
    out->push_back((uint32_t)v);
  }
  return true;
}

bool is_dir(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string stem_of(const std::string &path) {
  size_t s = path.find_last_of('/');
  std::string base = s == std::string::npos ? path : path.substr(s + 1);
  size_t d = base.rfind(".metadata");
  return d == std::string::npos ? base : base.substr(0, d);
}

}  // namespace

bool tv_read_launch(const std::string &mp, TvLaunch *L, std::string *err) {
  const std::string suffix = ".metadata";
  if (mp.size() <= suffix.size() || mp.compare(mp.size() - suffix.size(), suffix.size(), suffix)) {
    *err = mp + ": expected a .metadata file";
    return false;
  }
  std::vector<uint32_t> m;
  if (!read_hex_words(mp, &m, err)) return false;
  // Field k is the pair m[2k] (low), m[2k+1] (high); only the low words matter
  // on a 32-bit device, but a high word that is not zero is a damaged file.
  auto field = [&](size_t k, uint32_t *v) {
    if (2 * k + 1 >= m.size()) {
      *err = mp + ": ends before field " + std::to_string(k);
      return false;
    }
    if (m[2 * k + 1] != 0) {
      *err = mp + ": field " + std::to_string(k) + " does not fit in 32 bits";
      return false;
    }
    *v = m[2 * k];
    return true;
  };
  uint32_t id, nbuf;
  if (!field(0, &L->start_pc) || !field(1, &id) || !field(2, &L->grid[0]) || !field(3, &L->grid[1]) ||
      !field(4, &L->grid[2]) || !field(5, &L->wf_size) || !field(6, &L->wg_size) || !field(7, &L->knl) ||
      !field(8, &L->lds_size) || !field(9, &L->pds_size) || !field(10, &L->sgpr) || !field(11, &L->vgpr) ||
      !field(12, &L->pds_base) || !field(13, &nbuf))
    return false;
  if (nbuf > 4096) {
    *err = mp + ": " + std::to_string(nbuf) + " buffers (at most 4096)";
    return false;
  }
  L->bufs.resize(nbuf);
  for (uint32_t i = 0; i < nbuf; i++)
    if (!field(14 + i, &L->bufs[i].base) || !field(14 + nbuf + i, &L->bufs[i].size) ||
        !field(14 + 2 * nbuf + i, &L->bufs[i].alloc))
      return false;
  if (L->wf_size == 0 || L->wg_size == 0) {
    *err = mp + ": a work-group of " + std::to_string(L->wg_size) + " warps of " + std::to_string(L->wf_size) +
           " threads";
    return false;
  }
  std::string dp = mp.substr(0, mp.size() - suffix.size()) + ".data";
  if (!read_hex_words(dp, &L->data, err)) return false;
  uint64_t need = 0;
  for (const TvBuffer &b : L->bufs) need += (b.size + 3u) / 4u;
  if (L->data.size() < need) {
    *err = dp + ": " + std::to_string(L->data.size()) + " words, the metadata's buffers need " + std::to_string(need);
    return false;
  }
  L->name = stem_of(mp);
  return true;
}

bool tv_read_case(const std::string &path, std::vector<TvLaunch> *out, std::string *err) {
  std::vector<std::string> files;
  if (!is_dir(path)) {
    files.push_back(path);
  } else {
    std::ifstream k(path + "/kernels.txt");
    if (k) {
      std::string line;
      while (std::getline(k, line)) {
        size_t h = line.find('#');
        if (h != std::string::npos) line.erase(h);
        std::istringstream ss(line);
        std::string w;
        if (ss >> w) files.push_back(path + "/" + w + ".metadata");
      }
    } else {
      DIR *d = opendir(path.c_str());
      if (!d) {
        *err = path + ": cannot open the directory";
        return false;
      }
      while (struct dirent *e = readdir(d)) {
        std::string n = e->d_name;
        if (n.size() > 9 && n.compare(n.size() - 9, 9, ".metadata") == 0) files.push_back(path + "/" + n);
      }
      closedir(d);
      if (files.size() != 1) {
        *err = path + ": " + std::to_string(files.size()) +
               " .metadata files and no kernels.txt to say their order";
        return false;
      }
    }
  }
  if (files.empty()) {
    *err = path + ": kernels.txt names no launch";
    return false;
  }
  for (const std::string &f : files) {
    TvLaunch L;
    if (!tv_read_launch(f, &L, err)) return false;
    out->push_back(std::move(L));
  }
  return true;
}
