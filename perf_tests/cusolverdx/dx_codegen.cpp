// See dx_codegen.hpp.
#include "dx_codegen.hpp"

#include <libcusolverdx.h>
#include <libmathdx.h>

#include <cstddef>

namespace batchol_dx {
namespace {

void check(commondxStatusType s, const char* what) {
  if (s == COMMONDX_SUCCESS) return;
  std::string msg = std::string(what) + " failed: " + commondxStatusToStr(s);
  std::size_t size = 0;
  if (commondxGetLastErrorStrSize(&size) == COMMONDX_SUCCESS && size > 1) {
    std::string text(size, '\0');
    commondxStatusType code{};
    if (commondxGetLastErrorStr(&code, size, text.data()) == COMMONDX_SUCCESS)
      msg += "\n" + std::string(text.c_str());
  }
  throw DxError(msg);
}

cusolverdxFunction function_of(const std::string& routine) {
  if (routine == "potrf") return CUSOLVERDX_FUNCTION_POTRF;
  if (routine == "potrs") return CUSOLVERDX_FUNCTION_POTRS;
  if (routine == "posv") return CUSOLVERDX_FUNCTION_POSV;
  throw DxError("unknown routine '" + routine + "'");
}

// Owns a descriptor.
class Descriptor {
 public:
  explicit Descriptor(const Problem& p, const Variant& v) {
    check(cusolverdxCreateDescriptor(&h_), "cusolverdxCreateDescriptor");
    const long long size[3] = {p.n, p.n, p.nrhs};
    set(CUSOLVERDX_OPERATOR_SIZE, p.routine == "potrf" ? 1 : 3, size);
    set(CUSOLVERDX_OPERATOR_TYPE, CUSOLVERDX_TYPE_REAL);
    set(CUSOLVERDX_OPERATOR_PRECISION,
        p.is_double ? COMMONDX_PRECISION_F64 : COMMONDX_PRECISION_F32);
    set(CUSOLVERDX_OPERATOR_SM, 10LL * p.sm);
    set(CUSOLVERDX_OPERATOR_EXECUTION,
        v.thread ? COMMONDX_EXECUTION_THREAD : COMMONDX_EXECUTION_BLOCK);
    set(CUSOLVERDX_OPERATOR_API, CUSOLVERDX_API_SMEM);
    set(CUSOLVERDX_OPERATOR_FUNCTION, function_of(p.routine));
    // A column-major with its upper triangle: the row-major lower triangle of
    // the same bytes. B row-major (n x nrhs, each right-hand side strided).
    const long long arrangement[2] = {CUSOLVERDX_ARRANGEMENT_COL_MAJOR,
                                      CUSOLVERDX_ARRANGEMENT_ROW_MAJOR};
    set(CUSOLVERDX_OPERATOR_ARRANGEMENT, p.routine == "potrf" ? 1 : 2, arrangement);
    set(CUSOLVERDX_OPERATOR_FILL_MODE, CUSOLVERDX_FILL_MODE_UPPER);
    if (!v.thread && v.block_dim[0] > 0) {
      const long long bd[3] = {v.block_dim[0], v.block_dim[1], v.block_dim[2]};
      set(CUSOLVERDX_OPERATOR_BLOCK_DIM, 3, bd);
    }
    if (!v.thread && v.batches_per_block > 0)
      set(CUSOLVERDX_OPERATOR_BATCHES_PER_BLOCK, v.batches_per_block);
    const char* nvrtc[] = {"-pch"};  // see Code
    check(cusolverdxSetOptionStrs(h_, COMMONDX_OPTION_EXTRA_NVRTC_ARGS, 1, nvrtc),
          "cusolverdxSetOptionStrs(EXTRA_NVRTC_ARGS)");
  }
  ~Descriptor() { cusolverdxDestroyDescriptor(h_); }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;

  cusolverdxDescriptor get() const { return h_; }

  void set(cusolverdxOperatorType op, long long value) {
    check(cusolverdxSetOperatorInt64(h_, op, value), cusolverdxOperatorTypeToStr(op));
  }
  void set(cusolverdxOperatorType op, std::size_t count, const long long* values) {
    check(cusolverdxSetOperatorInt64s(h_, op, count, values), cusolverdxOperatorTypeToStr(op));
  }
  void traits3(cusolverdxTraitType t, int out[3]) const {
    long long v[3] = {0, 0, 0};
    check(cusolverdxGetTraitInt64s(h_, t, 3, v), cusolverdxTraitTypeToStr(t));
    for (int i = 0; i < 3; ++i) out[i] = static_cast<int>(v[i]);
  }

 private:
  cusolverdxDescriptor h_ = 0;
};

// Owns a code handle.
class Code {
 public:
  explicit Code(int sm) {
    check(commondxCreateCode(&h_), "commondxCreateCode");
    check(commondxSetCodeOptionInt64(h_, COMMONDX_OPTION_TARGET_SM, 10LL * sm),
          "commondxSetCodeOptionInt64(TARGET_SM)");
    check(commondxSetCodeOptionInt64(h_, COMMONDX_OPTION_TARGET_CODE, COMMONDX_CODE_TYPE_LTO),
          "commondxSetCodeOptionInt64(TARGET_CODE)");
    // NVRTC's automatic precompiled header: the cuSolverDx headers are parsed
    // once per process instead of once per configuration (about 40 % less
    // time for every configuration after the first).
    const char* nvrtc[] = {"-pch"};
    check(commondxSetCodeOptionStrs(h_, COMMONDX_OPTION_EXTRA_NVRTC_ARGS, 1, nvrtc),
          "commondxSetCodeOptionStrs(EXTRA_NVRTC_ARGS)");
  }
  ~Code() { commondxDestroyCode(h_); }
  Code(const Code&) = delete;
  Code& operator=(const Code&) = delete;
  commondxCode get() const { return h_; }

 private:
  commondxCode h_ = 0;
};

}  // namespace

Suggestion suggest(const Problem& p) {
  Descriptor d(p, Variant{});
  Suggestion s;
  d.traits3(CUSOLVERDX_TRAIT_BLOCK_DIM, s.block_dim);
  d.traits3(CUSOLVERDX_TRAIT_SUGGESTED_BLOCK_DIM, s.suggested_block_dim);
  long long bpb = 1;
  check(cusolverdxGetTraitInt64(d.get(), CUSOLVERDX_TRAIT_SUGGESTED_BATCHES_PER_BLOCK, &bpb),
        "cusolverdxGetTraitInt64(SUGGESTED_BATCHES_PER_BLOCK)");
  s.suggested_batches_per_block = static_cast<int>(bpb);
  return s;
}

Generated generate(const Problem& p, const Variant& v, const std::string& symbol) {
  Descriptor d(p, v);
  check(cusolverdxSetOptionStr(d.get(), COMMONDX_OPTION_SYMBOL_NAME, symbol.c_str()),
        "cusolverdxSetOptionStr(SYMBOL_NAME)");
  Code code(p.sm);
  check(cusolverdxFinalizeCode(code.get(), d.get()), "cusolverdxFinalizeCode");
  std::size_t count = 0;
  check(commondxGetCodeNumLTOIRs(code.get(), &count), "commondxGetCodeNumLTOIRs");
  std::vector<std::size_t> sizes(count);
  check(commondxGetCodeLTOIRSizes(code.get(), count, sizes.data()), "commondxGetCodeLTOIRSizes");
  Generated g;
  std::vector<void*> ptrs;
  for (const auto s : sizes) g.ltoir.emplace_back(s);
  for (auto& buf : g.ltoir) ptrs.push_back(buf.data());
  check(commondxGetCodeLTOIRs(code.get(), count, ptrs.data()), "commondxGetCodeLTOIRs");
  return g;
}

std::vector<char> universal_fatbin(const Problem& p) {
  Variant v;
  v.thread = true;
  Descriptor d(p, v);
  std::size_t size = 0;
  check(cusolverdxGetUniversalFATBINSize(d.get(), &size), "cusolverdxGetUniversalFATBINSize");
  std::vector<char> fatbin(size);
  check(cusolverdxGetUniversalFATBIN(d.get(), size, fatbin.data()), "cusolverdxGetUniversalFATBIN");
  return fatbin;
}

std::string version() {
  int a = 0, b = 0, c = 0, x = 0, y = 0, z = 0;
  mathdxGetVersionEx(&a, &b, &c);
  cusolverdxGetVersion(&x, &y, &z);
  return "libmathdx " + std::to_string(a) + "." + std::to_string(b) + "." + std::to_string(c) +
         ", cuSolverDx " + std::to_string(x) + "." + std::to_string(y) + "." + std::to_string(z);
}

}  // namespace batchol_dx
