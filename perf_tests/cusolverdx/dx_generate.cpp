// batchol_dx_generate: builds, at build time, the cuSolverDx kernels the
// benchmark compares against, for one problem (routine, precision, n, nrhs):
//   1. libmathdx generates each configuration's device function as LTO-IR:
//      Thread execution (n <= --thread-max-n) and a few Block-execution
//      configurations around the one cuSolverDx suggests (--block);
//   2. NVRTC compiles the wrapper kernels (dx_wrappers.cuh) to LTO-IR;
//   3. nvJitLink links both with cuSolverDx's universal fatbin into one cubin.
// Writes OUT/<stem>.cubin and OUT/<stem>.txt (the manifest, dx_manifest.hpp).
// --block lists the Block configurations (default: the one cuSolverDx picks
// with BatchesPerBlock 1; suggested: its suggested BlockDim and
// BatchesPerBlock; more_batches: twice those batches, where the block's
// shared memory stays within 48 KB; wider: twice that BlockDim; narrower:
// half of it; quad_batches: four times the batches; wide_batches: twice the
// BlockDim with twice the batches), or none. Large orders are what the build
// time goes to (nvJitLink takes about 10 s per configuration at n = 128).
// A configuration cuSolverDx rejects (too much shared memory, ...) is skipped
// with a note; no kernel at all is an error.
//
//   batchol_dx_generate --routine potrs --nrhs 8 --precision double --n 16
//                       --sm 90 --wrappers dx_wrappers.cuh --out DIR
#include "dx_codegen.hpp"
#include "dx_link.hpp"
#include "dx_manifest.hpp"

#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace batchol_dx;

struct Options {
  Problem problem;
  std::string wrappers, out;
  int thread_max_n = 16;
  std::vector<std::string> block = {"suggested", "more_batches", "wider", "quad_batches",
                                    "wide_batches"};
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

Options parse(int argc, char** argv) {
  Options o;
  std::string precision = "double";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--routine")
      o.problem.routine = value;
    else if (key == "--precision")
      precision = value;
    else if (key == "--n")
      o.problem.n = std::stoi(value);
    else if (key == "--nrhs")
      o.problem.nrhs = std::stoi(value);
    else if (key == "--sm")
      o.problem.sm = std::stoi(value);
    else if (key == "--wrappers")
      o.wrappers = value;
    else if (key == "--out")
      o.out = value;
    else if (key == "--thread-max-n")
      o.thread_max_n = std::stoi(value);
    else if (key == "--block")
      o.block = value == "none" ? std::vector<std::string>{} : split(value);
    else
      throw std::invalid_argument("unknown option " + key);
  }
  if (argc % 2 == 0) throw std::invalid_argument("options come in pairs: --name value");
  if (precision != "float" && precision != "double")
    throw std::invalid_argument("--precision is float or double");
  o.problem.is_double = precision == "double";
  const auto& r = o.problem.routine;
  if (r != "potrf" && r != "potrs" && r != "posv")
    throw std::invalid_argument("--routine is potrf, potrs or posv");
  if (r == "potrf") o.problem.nrhs = 1;
  if (o.problem.n <= 0 || o.problem.nrhs <= 0 || o.wrappers.empty() || o.out.empty())
    throw std::invalid_argument("--n, --nrhs > 0, --wrappers and --out are required");
  return o;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Written under a temporary name and renamed, so that an interrupted run
// leaves no file that looks complete.
void write_file(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw std::runtime_error("cannot rename " + tmp + " to " + path);
}

// One kernel of the cubin before it is linked.
struct Planned {
  KernelEntry entry;
  std::string symbol;  // the cuSolverDx function it calls
};

// The generated extern "C" declarations and kernels of one cubin.
std::string kernel_source(const Problem& p, const std::vector<Planned>& kernels) {
  const std::string T = p.is_double ? "double" : "float";
  const int r = p.routine == "potrf" ? 0 : p.routine == "potrs" ? 1 : 2;
  const char* call = r == 0 ? "PotrfCall" : r == 1 ? "PotrsCall" : "PosvCall";
  const std::string signature = r == 0   ? T + "*, int*"
                                : r == 1 ? T + "*, " + T + "*"
                                         : T + "*, " + T + "*, int*";
  std::ostringstream s;
  s << "#include \"dx_wrappers.cuh\"\n";
  std::map<std::string, bool> declared;
  for (const auto& k : kernels) {
    if (!declared[k.symbol])
      s << "extern \"C\" __device__ void " << k.symbol << "(" << signature << ");\n";
    declared[k.symbol] = true;
    const auto& e = k.entry;
    const int bounds = e.is_thread() ? 256 : e.threads();
    s << "extern \"C\" __global__ void __launch_bounds__(" << bounds << ") " << e.name << "(" << T
      << "* A, " << T << "* B, int* info, long long batch) {\n  batchol_dx::";
    if (e.is_thread())
      s << "thread_kernel<" << T << ", " << p.n << ", " << p.nrhs << ", " << r << ", "
        << (e.exec == Exec::ThreadRegs ? "true" : "false") << ">";
    else
      s << "block_kernel<" << T << ", " << p.n << ", " << p.nrhs << ", " << e.batches_per_block
        << ", " << r << ">";
    s << "(A, B, info, batch, batchol_dx::" << call << "<" << T << ", " << k.symbol << ">{});\n}\n";
  }
  return s.str();
}

int odd(int x) {
  return x % 2 ? x : x + 1;
}

// Dynamic shared memory of a kernel, as dx_wrappers.cuh lays it out.
long long smem_bytes(const Problem& p, Exec e, int bpb) {
  const long long s = p.is_double ? 8 : 4;
  const bool rhs = p.routine != "potrf";
  if (e == Exec::Block) return bpb * s * (p.n * p.n + (rhs ? p.n * p.nrhs : 0));
  return s * (odd(p.n * p.n) + (rhs ? odd(p.n * p.nrhs) : 0));
}

// The Block-execution configurations to generate: (block_dim, bpb, origin),
// without duplicates and within the shared memory of the architecture.
struct BlockConfig {
  int bd[3];
  int bpb;
  std::string origin;
};

std::vector<BlockConfig> block_configs(const Options& o, const Suggestion& s) {
  const Problem& p = o.problem;
  const long long max_smem = 227 * 1024 - 4096;  // sm_80/sm_90 opt-in limit, less static use
  std::vector<BlockConfig> out;
  const auto add = [&](int x, int y, int z, int bpb, const std::string& origin) {
    if (x <= 0 || y <= 0 || z <= 0 || bpb <= 0 || x * y * z > 1024) return;
    if (smem_bytes(p, Exec::Block, bpb) > max_smem) return;
    for (const auto& c : out)
      if (c.bd[0] == x && c.bd[1] == y && c.bd[2] == z && c.bpb == bpb) return;
    out.push_back({{x, y, z}, bpb, origin});
  };
  // Each named configuration: BlockDim x of the suggestion (or of the
  // default block, BatchesPerBlock 1) times `wide` (halved for -1), its
  // batches times `batches`; `capped`: only while the block stays within
  // 48 KB of shared memory (past it, more batches halve the blocks an SM
  // holds).
  struct Variant {
    const char* name;
    int wide, batches;
    bool capped;
  };
  static const Variant variants[] = {{"default", 1, 0, false},     {"suggested", 1, 1, false},
                                     {"more_batches", 1, 2, true}, {"wider", 2, 1, false},
                                     {"narrower", -1, 1, false},   {"quad_batches", 1, 4, true},
                                     {"wide_batches", 2, 2, true}};
  const int* g = s.suggested_block_dim;
  const int b = s.suggested_batches_per_block;
  for (const auto& name : o.block) {
    const Variant* v = nullptr;
    for (const auto& c : variants)
      if (name == c.name) v = &c;
    if (!v) throw std::invalid_argument("unknown --block configuration " + name);
    if (v->batches == 0) {  // cuSolverDx's own default block
      add(s.block_dim[0], s.block_dim[1], s.block_dim[2], 1, name);
      continue;
    }
    const int bpb = v->batches * b;
    if (v->capped && smem_bytes(p, Exec::Block, bpb) > 48 * 1024) continue;
    if (v->wide == -1 && g[0] < 64) continue;
    const int x = v->wide == -1 ? g[0] / 2 : v->wide * g[0];
    add(x, g[1], g[2], bpb, name);
  }
  return out;
}

std::string first_line(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

int run(const Options& o) {
  const Problem& p = o.problem;
  const std::string precision = p.is_double ? "double" : "float";
  const std::string name = stem(p.routine, p.nrhs, precision, p.n);

  std::vector<Planned> kernels;
  std::vector<std::vector<char>> ltoirs;
  std::vector<std::string> notes;
  const auto generate_one = [&](const Variant& v, const std::string& symbol) {
    try {
      for (auto& m : generate(p, v, symbol).ltoir) ltoirs.push_back(std::move(m));
      return true;
    } catch (const DxError& e) {
      notes.push_back(symbol + " skipped: " + first_line(e.what()));
      return false;
    }
  };

  if (p.n <= o.thread_max_n) {
    Variant v;
    v.thread = true;
    const std::string symbol = name + "_thread_fn";
    if (generate_one(v, symbol))
      for (const Exec e : {Exec::ThreadSmem, Exec::ThreadRegs}) {
        Planned k;
        k.symbol = symbol;
        k.entry.name = name + "_" + exec_name(e);
        k.entry.exec = e;
        k.entry.block_dim[0] = k.entry.block_dim[1] = k.entry.block_dim[2] = 0;
        k.entry.smem = smem_bytes(p, e, 1);
        kernels.push_back(k);
      }
  }

  std::vector<BlockConfig> configs;
  try {
    if (!o.block.empty()) configs = block_configs(o, suggest(p));
  } catch (const DxError& e) {
    notes.push_back("Block execution skipped: " + first_line(e.what()));
  }
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const auto& c = configs[i];
    Variant v;
    for (int d = 0; d < 3; ++d) v.block_dim[d] = c.bd[d];
    v.batches_per_block = c.bpb;
    const std::string symbol = name + "_block" + std::to_string(i) + "_fn";
    if (!generate_one(v, symbol)) continue;
    Planned k;
    k.symbol = symbol;
    k.entry.name = name + "_block" + std::to_string(i);
    k.entry.exec = Exec::Block;
    for (int d = 0; d < 3; ++d) k.entry.block_dim[d] = c.bd[d];
    k.entry.batches_per_block = c.bpb;
    k.entry.smem = smem_bytes(p, Exec::Block, c.bpb);
    k.entry.origin = c.origin;
    kernels.push_back(k);
  }
  for (const auto& n : notes)
    std::fprintf(stderr, "batchol_dx_generate: %s: %s\n", name.c_str(), n.c_str());
  if (kernels.empty()) {
    std::fprintf(stderr, "batchol_dx_generate: %s: no configuration could be generated\n",
                 name.c_str());
    return 1;
  }

  const std::vector<char> wrappers =
      compile_to_ltoir(kernel_source(p, kernels), name + "_kernels.cu",
                       {{"dx_wrappers.cuh", read_file(o.wrappers)}}, p.sm);
  const std::vector<char> fatbin = universal_fatbin(p);
  std::vector<LinkInput> inputs;
  inputs.push_back({LinkInput::Kind::Ltoir, &wrappers, name + "_kernels"});
  for (std::size_t i = 0; i < ltoirs.size(); ++i)
    inputs.push_back({LinkInput::Kind::Ltoir, &ltoirs[i], name + "_dx" + std::to_string(i)});
  inputs.push_back({LinkInput::Kind::Fatbin, &fatbin, "cusolverdx_universal"});
  const std::vector<char> cubin = link_cubin(inputs, p.sm);

  Manifest m;
  m.routine = p.routine;
  m.precision = precision;
  m.n = p.n;
  m.nrhs = p.nrhs;
  m.sm = p.sm;
  m.cubin = name + ".cubin";
  for (const auto& k : kernels) m.kernels.push_back(k.entry);
  std::ostringstream text;
  text << "# " << version() << "\n";
  for (const auto& n : notes) text << "# " << n << "\n";
  write_manifest(text, m);
  write_file(o.out + "/" + m.cubin, std::string(cubin.begin(), cubin.end()));
  write_file(o.out + "/" + name + ".txt", text.str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "batchol_dx_generate: %s\n", e.what());
    return 1;
  }
}
