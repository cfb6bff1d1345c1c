// See dx_link.hpp.
#include "dx_link.hpp"

#include <nvJitLink.h>
#include <nvrtc.h>

#include <string>
#include <utility>
#include <vector>

namespace batchol_dx {
namespace {

std::string arch_option(int sm) {
  return "-arch=sm_" + std::to_string(sm);
}

// Owns an NVRTC program.
class Program {
 public:
  Program(const std::string& source, const std::string& name,
          const std::vector<std::pair<std::string, std::string>>& headers) {
    std::vector<const char*> names, bodies;
    for (const auto& [n, b] : headers) {
      names.push_back(n.c_str());
      bodies.push_back(b.c_str());
    }
    check(nvrtcCreateProgram(&p_, source.c_str(), name.c_str(), static_cast<int>(headers.size()),
                             bodies.data(), names.data()),
          "nvrtcCreateProgram");
  }
  ~Program() { nvrtcDestroyProgram(&p_); }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  void compile(const std::vector<std::string>& options) {
    std::vector<const char*> opts;
    for (const auto& o : options) opts.push_back(o.c_str());
    const nvrtcResult r = nvrtcCompileProgram(p_, static_cast<int>(opts.size()), opts.data());
    if (r != NVRTC_SUCCESS)
      throw LinkError(std::string("NVRTC: ") + nvrtcGetErrorString(r) + "\n" + log());
  }

  std::vector<char> ltoir() {
    std::size_t size = 0;
    check(nvrtcGetLTOIRSize(p_, &size), "nvrtcGetLTOIRSize");
    std::vector<char> out(size);
    check(nvrtcGetLTOIR(p_, out.data()), "nvrtcGetLTOIR");
    return out;
  }

 private:
  void check(nvrtcResult r, const char* what) {
    if (r != NVRTC_SUCCESS) throw LinkError(std::string(what) + ": " + nvrtcGetErrorString(r));
  }
  std::string log() {
    std::size_t size = 0;
    if (nvrtcGetProgramLogSize(p_, &size) != NVRTC_SUCCESS || size == 0) return {};
    std::string text(size, '\0');
    if (nvrtcGetProgramLog(p_, text.data()) != NVRTC_SUCCESS) return {};
    return text.c_str();
  }
  nvrtcProgram p_ = nullptr;
};

// Owns an nvJitLink handle.
class Linker {
 public:
  explicit Linker(int sm) {
    const std::string arch = arch_option(sm);
    const char* options[] = {arch.c_str(), "-lto", "-O3"};
    check(nvJitLinkCreate(&h_, 3, options), "nvJitLinkCreate");
  }
  ~Linker() { nvJitLinkDestroy(&h_); }
  Linker(const Linker&) = delete;
  Linker& operator=(const Linker&) = delete;

  void add(const LinkInput& in) {
    const nvJitLinkInputType t =
        in.kind == LinkInput::Kind::Ltoir ? NVJITLINK_INPUT_LTOIR : NVJITLINK_INPUT_FATBIN;
    check(nvJitLinkAddData(h_, t, in.data->data(), in.data->size(), in.name.c_str()),
          ("nvJitLinkAddData(" + in.name + ")").c_str());
  }

  std::vector<char> cubin() {
    check(nvJitLinkComplete(h_), "nvJitLinkComplete");
    std::size_t size = 0;
    check(nvJitLinkGetLinkedCubinSize(h_, &size), "nvJitLinkGetLinkedCubinSize");
    std::vector<char> out(size);
    check(nvJitLinkGetLinkedCubin(h_, out.data()), "nvJitLinkGetLinkedCubin");
    return out;
  }

 private:
  void check(nvJitLinkResult r, const char* what) {
    if (r == NVJITLINK_SUCCESS) return;
    std::string msg =
        std::string(what) + " failed (nvJitLink status " + std::to_string(int(r)) + ")";
    std::size_t size = 0;
    if (nvJitLinkGetErrorLogSize(h_, &size) == NVJITLINK_SUCCESS && size > 1) {
      std::string text(size, '\0');
      if (nvJitLinkGetErrorLog(h_, text.data()) == NVJITLINK_SUCCESS) msg += "\n" + text;
    }
    throw LinkError(msg);
  }
  nvJitLinkHandle h_ = nullptr;
};

}  // namespace

std::vector<char> compile_to_ltoir(const std::string& source, const std::string& name,
                                   const std::vector<std::pair<std::string, std::string>>& headers,
                                   int sm) {
  Program p(source, name, headers);
  p.compile({arch_option(sm), "-dlto", "-rdc=true", "-std=c++17"});
  return p.ltoir();
}

std::vector<char> link_cubin(const std::vector<LinkInput>& inputs, int sm) {
  Linker l(sm);
  for (const auto& in : inputs) l.add(in);
  return l.cubin();
}

}  // namespace batchol_dx
