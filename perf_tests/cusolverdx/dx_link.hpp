// The two toolkit steps after libmathdx: NVRTC compiles the wrapper kernels
// (dx_wrappers.cuh plus the generated per-configuration kernels) to LTO-IR,
// and nvJitLink links them with cuSolverDx's LTO-IR and universal fatbin into
// one cubin for the target architecture. Failures throw LinkError with the
// compiler's or linker's log.
#ifndef BATCHOL_DX_LINK_HPP
#define BATCHOL_DX_LINK_HPP

#include <stdexcept>
#include <string>
#include <vector>

namespace batchol_dx {

struct LinkError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `headers`: (include name, contents) pairs the source may #include.
std::vector<char> compile_to_ltoir(const std::string& source, const std::string& name,
                                   const std::vector<std::pair<std::string, std::string>>& headers,
                                   int sm);

struct LinkInput {
  enum class Kind { Ltoir, Fatbin } kind;
  const std::vector<char>* data;
  std::string name;
};

std::vector<char> link_cubin(const std::vector<LinkInput>& inputs, int sm);

}  // namespace batchol_dx

#endif
