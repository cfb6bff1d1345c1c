// The manifest written beside each generated cuSolverDx cubin: which
// problem the cubin solves (routine, precision, n, right-hand sides) and one
// line per kernel in it with its launch configuration. Read by the benchmark
// and by the smoke test, written by the generator; plain C++17, no CUDA.
//
//   routine potrf            potrf | potrs | posv
//   precision double         float | double
//   n 8
//   nrhs 1
//   sm 90
//   cubin potrf_double_n8.cubin
//   kernel NAME EXEC BX BY BZ BPB SMEM ORIGIN
//
// EXEC is thread_smem or thread_regs (Thread execution, one thread per
// matrix, any block size; SMEM is the dynamic shared memory per thread) or
// block (Block execution with BlockDim BX x BY x BZ and BPB matrices per
// block; SMEM is the block's dynamic shared memory). ORIGIN says where a
// block configuration comes from (default, suggested, more_batches, wider,
// narrower); "-" for thread kernels. Lines starting with '#' are comments.
#ifndef BATCHOL_DX_MANIFEST_HPP
#define BATCHOL_DX_MANIFEST_HPP

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace batchol_dx {

enum class Exec { ThreadSmem, ThreadRegs, Block };

inline const char* exec_name(Exec e) {
  switch (e) {
    case Exec::ThreadSmem:
      return "thread_smem";
    case Exec::ThreadRegs:
      return "thread_regs";
    case Exec::Block:
      return "block";
  }
  return "?";
}

inline Exec parse_exec(const std::string& s) {
  if (s == "thread_smem") return Exec::ThreadSmem;
  if (s == "thread_regs") return Exec::ThreadRegs;
  if (s == "block") return Exec::Block;
  throw std::invalid_argument("unknown cuSolverDx execution '" + s + "'");
}

struct KernelEntry {
  std::string name;
  Exec exec = Exec::Block;
  int block_dim[3] = {1, 1, 1};
  int batches_per_block = 1;
  long long smem = 0;  // block: bytes per block; thread: bytes per thread
  std::string origin = "-";

  bool is_thread() const { return exec != Exec::Block; }
  int threads() const { return block_dim[0] * block_dim[1] * block_dim[2]; }
};

struct Manifest {
  std::string routine;    // potrf, potrs, posv
  std::string precision;  // float, double
  int n = 0;
  int nrhs = 1;
  int sm = 0;
  std::string cubin;  // file name, in the manifest's folder
  std::vector<KernelEntry> kernels;
};

// File stem of the cubin and manifest of one problem, e.g. potrs_nrhs8_double_n16.
inline std::string stem(const std::string& routine, int nrhs, const std::string& precision, int n) {
  std::string r = routine;
  if (routine == "potrs") r += "_nrhs" + std::to_string(nrhs);
  return r + "_" + precision + "_n" + std::to_string(n);
}

inline void write_manifest(std::ostream& out, const Manifest& m) {
  out << "routine " << m.routine << "\nprecision " << m.precision << "\nn " << m.n << "\nnrhs "
      << m.nrhs << "\nsm " << m.sm << "\ncubin " << m.cubin << "\n";
  for (const auto& k : m.kernels)
    out << "kernel " << k.name << " " << exec_name(k.exec) << " " << k.block_dim[0] << " "
        << k.block_dim[1] << " " << k.block_dim[2] << " " << k.batches_per_block << " " << k.smem
        << " " << k.origin << "\n";
}

inline Manifest read_manifest(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  Manifest m;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "routine") {
      words >> m.routine;
    } else if (key == "precision") {
      words >> m.precision;
    } else if (key == "n") {
      words >> m.n;
    } else if (key == "nrhs") {
      words >> m.nrhs;
    } else if (key == "sm") {
      words >> m.sm;
    } else if (key == "cubin") {
      words >> m.cubin;
    } else if (key == "kernel") {
      KernelEntry k;
      std::string exec;
      words >> k.name >> exec >> k.block_dim[0] >> k.block_dim[1] >> k.block_dim[2] >>
          k.batches_per_block >> k.smem >> k.origin;
      k.exec = parse_exec(exec);
      m.kernels.push_back(k);
    } else {
      throw std::runtime_error(path + ": unknown line '" + line + "'");
    }
    if (words.fail()) throw std::runtime_error(path + ": malformed line '" + line + "'");
  }
  if (m.routine.empty() || m.precision.empty() || m.n <= 0 || m.cubin.empty())
    throw std::runtime_error(path + ": incomplete manifest");
  return m;
}

}  // namespace batchol_dx

#endif
