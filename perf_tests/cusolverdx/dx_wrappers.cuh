// The kernels around cuSolverDx's generated device functions, compiled at
// build time by NVRTC (no host code, no standard headers) together with one
// small extern "C" kernel per configuration that the generator appends. Each
// stages its matrices (each contiguous; column-major with the upper triangle
// used, which is the row-major lower triangle of the benchmark's LayoutRight
// data) from global to shared memory with coalesced loads, calls the
// cuSolverDx function and writes the results back:
//   - block: Block execution, BPB consecutive matrices per CUDA block;
//   - thread_smem / thread_regs: Thread execution, one matrix per thread, any
//     block size; the matrix stays in shared memory (padded to an odd stride
//     against bank conflicts) or is copied into a per-thread array first.
// Every kernel takes (A, B, info, batch); B (n x nrhs per matrix, row-major)
// only for potrs and posv, info only for potrf and posv.
#ifndef BATCHOL_DX_WRAPPERS_CUH
#define BATCHOL_DX_WRAPPERS_CUH

namespace batchol_dx {

enum Routine { Potrf = 0, Potrs = 1, Posv = 2 };

// Adapters from the common (A, B, info) call to each routine's signature.
template <class T, void (*F)(T*, int*)>
struct PotrfCall {
  __device__ void operator()(T* a, T*, int* info) const { F(a, info); }
};
template <class T, void (*F)(T*, T*)>
struct PotrsCall {
  __device__ void operator()(T* a, T* b, int*) const { F(a, b); }
};
template <class T, void (*F)(T*, T*, int*)>
struct PosvCall {
  __device__ void operator()(T* a, T* b, int* info) const { F(a, b, info); }
};

__device__ inline int thread_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ inline int block_threads() {
  return blockDim.x * blockDim.y * blockDim.z;
}
__device__ inline long long min_ll(long long a, long long b) {
  return a < b ? a : b;
}

// Copies `count` contiguous elements with all threads of the block, 16 bytes
// per load where both sides allow it.
template <class T>
__device__ void copy_block(T* __restrict__ dst, const T* __restrict__ src, int count) {
  const int tid = thread_rank(), nt = block_threads();
  int done = 0;
  const unsigned long long bytes = (unsigned long long)count * sizeof(T);
  if ((((unsigned long long)dst | (unsigned long long)src) & 15) == 0) {
    const int vec = (int)(bytes / 16);
    float4* d = reinterpret_cast<float4*>(dst);
    const float4* s = reinterpret_cast<const float4*>(src);
    for (int i = tid; i < vec; i += nt) d[i] = s[i];
    done = (int)(vec * 16 / sizeof(T));
  }
  for (int i = done + tid; i < count; i += nt) dst[i] = src[i];
}

// Block execution: BPB matrices per block, the last block possibly partial
// (its unused shared-memory matrices are factored but never written out).
template <class T, int N, int NRHS, int BPB, int R, class Call>
__device__ void block_kernel(T* A, T* B, int* info, long long batch, Call call) {
  constexpr int AS = N * N, BS = N * NRHS;
  extern __shared__ __align__(16) unsigned char dx_smem[];
  __shared__ int s_info[BPB];
  T* sA = reinterpret_cast<T*>(dx_smem);
  T* sB = sA + BPB * AS;
  const long long first = (long long)blockIdx.x * BPB;
  const int count = (int)min_ll(BPB, batch - first);
  copy_block(sA, A + first * AS, count * AS);
  if (R != Potrf) copy_block(sB, B + first * BS, count * BS);
  __syncthreads();
  call(sA, sB, s_info);
  __syncthreads();
  if (R != Potrs) copy_block(A + first * AS, sA, count * AS);
  if (R != Potrf) copy_block(B + first * BS, sB, count * BS);
  if (R != Potrs)
    for (int i = thread_rank(); i < count; i += block_threads()) info[first + i] = s_info[i];
}

// Strides of one thread's matrix and right-hand sides in shared memory: odd,
// so that the threads of a warp reach different banks.
template <int S>
struct Odd {
  static constexpr int value = S % 2 ? S : S + 1;
};

// Moves `count` matrices of `size` elements between global memory (contiguous)
// and shared memory (stride `stride`), coalesced on the global side.
template <class T, int SIZE, int STRIDE>
__device__ void gather(T* __restrict__ s, const T* __restrict__ g, int count) {
  for (int i = thread_rank(); i < count * SIZE; i += block_threads())
    s[(i / SIZE) * STRIDE + i % SIZE] = g[i];
}
template <class T, int SIZE, int STRIDE>
__device__ void scatter(T* __restrict__ g, const T* __restrict__ s, int count) {
  for (int i = thread_rank(); i < count * SIZE; i += block_threads())
    g[i] = s[(i / SIZE) * STRIDE + i % SIZE];
}

// Thread execution: blockDim.x matrices per block (1-D blocks). REGS: the
// thread copies its matrix from shared memory into a local array and calls
// the function on that; otherwise on the shared-memory copy.
template <class T, int N, int NRHS, int R, bool REGS, class Call>
__device__ void thread_kernel(T* A, T* B, int* info, long long batch, Call call) {
  constexpr int AS = N * N, BS = N * NRHS;
  constexpr int SA = Odd<AS>::value, SB = Odd<BS>::value;
  extern __shared__ __align__(16) unsigned char dx_smem[];
  T* sA = reinterpret_cast<T*>(dx_smem);
  T* sB = sA + blockDim.x * SA;
  const long long first = (long long)blockIdx.x * blockDim.x;
  const int count = (int)min_ll(blockDim.x, batch - first);
  gather<T, AS, SA>(sA, A + first * AS, count);
  if (R != Potrf) gather<T, BS, SB>(sB, B + first * BS, count);
  __syncthreads();
  const int t = threadIdx.x;
  if (t < count) {
    T* a = sA + t * SA;
    T* b = sB + t * SB;
    int status = 0;
    if (REGS) {
      T ra[AS];
      T rb[R != Potrf ? BS : 1];
#pragma unroll
      for (int i = 0; i < AS; ++i) ra[i] = a[i];
      if (R != Potrf) {
#pragma unroll
        for (int i = 0; i < BS; ++i) rb[i] = b[i];
      }
      call(ra, rb, &status);
      if (R != Potrs) {
#pragma unroll
        for (int i = 0; i < AS; ++i) a[i] = ra[i];
      }
      if (R != Potrf) {
#pragma unroll
        for (int i = 0; i < BS; ++i) b[i] = rb[i];
      }
    } else {
      call(a, b, &status);
    }
    if (R != Potrs) info[first + t] = status;
  }
  __syncthreads();
  if (R != Potrs) scatter<T, AS, SA>(A + first * AS, sA, count);
  if (R != Potrf) scatter<T, BS, SB>(B + first * BS, sB, count);
}

}  // namespace batchol_dx

#endif
