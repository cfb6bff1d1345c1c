// libmathdx's C API (libcusolverdx.h), wrapped for the generator: describe one
// cuSolverDx function (routine, precision, order, execution, BlockDim,
// BatchesPerBlock), ask for its suggested launch configuration, and generate
// its device code as LTO-IR. Every call is checked; a failure throws
// DxError with libmathdx's message (a configuration that does not fit, for
// instance, fails to compile inside libmathdx).
#ifndef BATCHOL_DX_CODEGEN_HPP
#define BATCHOL_DX_CODEGEN_HPP

#include <stdexcept>
#include <string>
#include <vector>

namespace batchol_dx {

struct DxError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Problem {
  std::string routine;  // potrf, potrs, posv
  bool is_double = true;
  int n = 0;
  int nrhs = 1;
  int sm = 90;  // compute capability x 10
};

// One function to generate. block_dim[0] == 0 or batches_per_block == 0
// leave the choice to cuSolverDx (Block execution only).
struct Variant {
  bool thread = false;
  int block_dim[3] = {0, 0, 0};
  int batches_per_block = 0;
};

// Launch configuration cuSolverDx reports for a Block-execution problem.
struct Suggestion {
  int block_dim[3] = {0, 0, 0};            // what an unset BlockDim gives
  int suggested_block_dim[3] = {0, 0, 0};  // what it recommends
  int suggested_batches_per_block = 1;
};

struct Generated {
  std::vector<std::vector<char>> ltoir;  // one or more LTO-IR modules
};

Suggestion suggest(const Problem& p);
Generated generate(const Problem& p, const Variant& v, const std::string& symbol);
std::vector<char> universal_fatbin(const Problem& p);
std::string version();  // "libmathdx a.b.c, cuSolverDx x.y.z"

}  // namespace batchol_dx

#endif
